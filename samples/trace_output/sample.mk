# samples/trace_output: the seed's pid/cookie stream.
$(eval $(call bpf_object,trace_output,samples/trace_output/trace_output.bpf.c,samples/trace_output/trace_output.h))
$(eval $(call user_program,trace_output,samples/trace_output/trace_output.c))
$(eval $(call skeleton,trace_output))
$(BUILD)/obj/samples/trace_output/trace_output.o: $(BUILD)/skel/trace_output.skel.h

# The same program linked against the minimal core alone (libbpfsdk-core.a,
# no extension): tests/bats/core.bats streams records with it.
$(BUILD)/bin/trace_output-core: $(BUILD)/obj/samples/trace_output/trace_output.o $(LOADER_CORE_LIB)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LOADER_CORE_LIB) $(LDLIBS_ELF)
USER_BINS += $(BUILD)/bin/trace_output-core
