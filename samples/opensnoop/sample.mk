# samples/opensnoop: openat(2) arguments, the path read from user memory,
# variable-length records.
$(eval $(call bpf_object,opensnoop,samples/opensnoop/opensnoop.bpf.c,samples/opensnoop/opensnoop.h))
$(eval $(call user_program,opensnoop,samples/opensnoop/opensnoop.c))
$(eval $(call skeleton,opensnoop))
$(BUILD)/obj/samples/opensnoop/opensnoop.o: $(BUILD)/skel/opensnoop.skel.h
