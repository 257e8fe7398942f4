# samples/kfunc: do_unlinkat() through kprobes or fentry, chosen at run time.
$(eval $(call bpf_object,kfunc,samples/kfunc/kfunc.bpf.c,samples/kfunc/kfunc.h))
$(eval $(call user_program,kfunc,samples/kfunc/kfunc.c))
