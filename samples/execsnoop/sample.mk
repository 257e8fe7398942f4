# samples/execsnoop: every execve(2), its argv and its result.
$(eval $(call bpf_object,execsnoop,samples/execsnoop/execsnoop.bpf.c,samples/execsnoop/execsnoop.h))
$(eval $(call user_program,execsnoop,samples/execsnoop/execsnoop.c))
