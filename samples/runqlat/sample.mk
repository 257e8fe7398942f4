# samples/runqlat: run-queue latency, a log2 histogram kept in a map.
$(eval $(call bpf_object,runqlat,samples/runqlat/runqlat.bpf.c,samples/runqlat/runqlat.h))
$(eval $(call user_program,runqlat,samples/runqlat/runqlat.c))
