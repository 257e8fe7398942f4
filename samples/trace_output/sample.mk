# samples/trace_output: the seed's pid/cookie stream.
$(eval $(call bpf_object,trace_output,samples/trace_output/trace_output.bpf.c,samples/trace_output/trace_output.h))
$(eval $(call user_program,trace_output,samples/trace_output/trace_output.c))
$(eval $(call skeleton,trace_output))
$(BUILD)/obj/samples/trace_output/trace_output.o: $(BUILD)/skel/trace_output.skel.h
