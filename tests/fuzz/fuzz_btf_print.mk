# tests/fuzz/fuzz_btf_print.mk - the BTF value printer under libFuzzer.
#
#   make fuzz-btf-print [FUZZ_SECONDS=60]   arbitrary types and records;
#                                           findings in $(BUILD)/fuzz/btf-findings/
#
# Seeds: the .BTF of every BPF object the build makes (llvm-objcopy), each
# followed by 64 bytes of record.

FUZZ_BTF_BIN := $(FUZZ_DIR)/fuzz_btf_print
FUZZ_BTF_DIR := $(FUZZ_DIR)/btf

$(FUZZ_BTF_BIN): $(FUZZ_DIR)/obj/tests/fuzz/fuzz_btf_print.o $(FUZZ_LIB_OBJS)
	$(msg) LINK $@
	$(Q)$(SAN_CC) $(SAN_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_ELF)

fuzz-btf-print: $(FUZZ_BTF_BIN) $(BPF_OBJS)
	@mkdir -p $(FUZZ_BTF_DIR)/seeds $(FUZZ_BTF_DIR)/corpus $(FUZZ_DIR)/btf-findings
	$(Q)for o in $(BPF_OBJS); do \
		s=$(FUZZ_BTF_DIR)/seeds/$$(echo $$o | tr / _); \
		llvm-objcopy --dump-section .BTF=$$s.btf $$o $$s.tmp 2>/dev/null || continue; \
		{ cat $$s.btf; head -c 64 /dev/urandom; } >$$s; rm -f $$s.btf $$s.tmp; \
	done
	$(msg) FUZZ "btf_print $(FUZZ_SECONDS) s"
	$(Q)$(FUZZ_BTF_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-artifact_prefix=$(FUZZ_DIR)/btf-findings/ -print_final_stats=1 \
		$(FUZZ_BTF_DIR)/corpus $(FUZZ_BTF_DIR)/seeds

fuzz: fuzz-btf-print

.PHONY: fuzz-btf-print
