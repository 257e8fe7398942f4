# samples/trace_output: the seed's pid/cookie stream.
$(eval $(call bpf_object,trace_output,samples/trace_output/trace_output.bpf.c,samples/trace_output/trace_output.h))
$(eval $(call user_program,trace_output,samples/trace_output/trace_output.c samples/trace_output/writer.c))
$(eval $(call skeleton,trace_output))
$(BUILD)/obj/samples/trace_output/trace_output.o: $(BUILD)/skel/trace_output.skel.h

# The lesson on the minimal core alone (libbpfsdk-core.a, no extension, no
# other archive): trace_output_core.c, the same object read with the core's
# API only. tests/bats/core.bats streams records with it.
$(eval $(call user_object,samples/trace_output/trace_output_core.c))
$(BUILD)/obj/samples/trace_output/trace_output_core.o: $(BUILD)/skel/trace_output.skel.h
$(BUILD)/bin/trace_output-core: $(BUILD)/obj/samples/trace_output/trace_output_core.o \
		$(BUILD)/obj/samples/trace_output/writer.o $(LOADER_CORE_LIB)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LOADER_CORE_LIB) $(LDLIBS_ELF)
USER_BINS += $(BUILD)/bin/trace_output-core
