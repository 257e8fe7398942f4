# samples/trace_output: the seed's pid/cookie stream.
$(eval $(call bpf_object,trace_output,samples/trace_output/trace_output.bpf.c,samples/trace_output/trace_output.h))
$(eval $(call user_program,trace_output,samples/trace_output/trace_output.c))
$(eval $(call skeleton,trace_output))
$(BUILD)/obj/samples/trace_output/trace_output.o: $(BUILD)/skel/trace_output.skel.h

# The same program linked against the minimal core (libbpfsdk-core.a, no
# extension) and the tool helpers its options need (libbpfsdk-tool.a):
# tests/bats/core.bats streams records with it. The core has no ring
# buffer (loader/rings/): no_ringbuf.c stands in for it.
$(eval $(call user_object,samples/trace_output/no_ringbuf.c))
$(BUILD)/bin/trace_output-core: $(BUILD)/obj/samples/trace_output/trace_output.o \
		$(BUILD)/obj/samples/trace_output/no_ringbuf.o $(LOADER_TOOL_LIB) $(LOADER_CORE_LIB)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LOADER_TOOL_LIB) $(LOADER_CORE_LIB) $(LDLIBS_ELF)
USER_BINS += $(BUILD)/bin/trace_output-core
