# samples/profile: a sampling CPU profiler, stacks in a STACK_TRACE map,
# folded output; profile_target is the busy program its test profiles.
$(eval $(call bpf_object,profile,samples/profile/profile.bpf.c,samples/profile/profile.h))
$(eval $(call user_program,profile,samples/profile/profile.c))
$(eval $(call user_program,profile_target,samples/profile/profile_target.c))

# User stacks are walked by frame pointers: keep them in the target.
$(BUILD)/obj/samples/profile/profile_target.o: CFLAGS += -fno-omit-frame-pointer

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/profile.skel.h.
$(eval $(call skeleton,profile))
$(BUILD)/obj/samples/profile/profile.o: $(BUILD)/skel/profile.skel.h
$(BUILD)/obj/samples/profile/profile.o: CPPFLAGS += -I$(BUILD)/skel
