# samples/execsnoop: every execve(2), its argv and its result.
$(eval $(call bpf_object,execsnoop,samples/execsnoop/execsnoop.bpf.c,samples/execsnoop/execsnoop.h))
$(eval $(call user_program,execsnoop,samples/execsnoop/execsnoop.c))

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/execsnoop.skel.h.
$(eval $(call skeleton,execsnoop))
$(BUILD)/obj/samples/execsnoop/execsnoop.o: $(BUILD)/skel/execsnoop.skel.h
$(BUILD)/obj/samples/execsnoop/execsnoop.o: CPPFLAGS += -I$(BUILD)/skel
