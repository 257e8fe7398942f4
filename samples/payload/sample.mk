# samples/payload: the bytes each write(2) carries, in records sized to them.
$(eval $(call bpf_object,payload,samples/payload/payload.bpf.c,samples/payload/payload.h))
$(eval $(call user_program,payload,samples/payload/payload.c))
