# samples/payload: the bytes each write(2) carries, in records sized to them.
$(eval $(call bpf_object,payload,samples/payload/payload.bpf.c,samples/payload/payload.h))
$(eval $(call user_program,payload,samples/payload/payload.c))

# The user side opens the object through its generated skeleton, which
# embeds it: build/skel/payload.skel.h.
$(eval $(call skeleton,payload))
$(BUILD)/obj/samples/payload/payload.o: $(BUILD)/skel/payload.skel.h
$(BUILD)/obj/samples/payload/payload.o: CPPFLAGS += -I$(BUILD)/skel
