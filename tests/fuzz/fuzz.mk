# tests/fuzz/ - the object loader under libFuzzer, and the unit suite under
# AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included).
#
#   make fuzz [FUZZ_SECONDS=60]   fuzz bsdk_obj_open_mem() and everything
#                                 inspect reads; fails on any finding, kept
#                                 in $(BUILD)/fuzz/findings/
#   make test-asan                the unit tests, sanitised, in $(BUILD)/asan
#
# Both need clang's sanitizer and libFuzzer runtimes (libclang-rt-14-dev).

FUZZ_SECONDS ?= 60
SAN_CC       ?= $(CLANG)
SAN_FLAGS    := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=all
SAN_CFLAGS   := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE \
		$(SAN_FLAGS)

FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BIN     := $(FUZZ_DIR)/fuzz_obj
ASAN_DIR     := $(BUILD)/asan
ASAN_UNIT_BINS := $(patsubst tests/unit/%.c,$(ASAN_DIR)/tests/unit/%,$(UNIT_SRCS))
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(LOADER_SRCS))
ASAN_LIB_OBJS := $(patsubst %.c,$(ASAN_DIR)/obj/%.o,$(LOADER_SRCS))

# Made by pattern rules, so make would delete them as intermediates.
.SECONDARY: $(FUZZ_LIB_OBJS) $(ASAN_LIB_OBJS) \
	    $(patsubst %.c,$(ASAN_DIR)/obj/%.o,$(UNIT_SRCS))

# The fuzz build instruments for coverage too; the asan build does not.
$(FUZZ_DIR)/obj/%.o: %.c | $(BUILD)/.deps-ok
	$(msg) CC $@
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(CPPFLAGS) $(SAN_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(ASAN_DIR)/obj/%.o: %.c | $(BUILD)/.deps-ok
	$(msg) CC $@
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(CPPFLAGS) $(SAN_CFLAGS) -c $< -o $@

-include $(wildcard $(FUZZ_DIR)/obj/*/*.d $(FUZZ_DIR)/obj/*/*/*.d)
-include $(wildcard $(ASAN_DIR)/obj/*/*.d $(ASAN_DIR)/obj/*/*/*.d)

$(FUZZ_BIN): $(FUZZ_DIR)/obj/tests/fuzz/fuzz_obj.o $(FUZZ_LIB_OBJS)
	$(msg) LINK $@
	$(Q)$(SAN_CC) $(SAN_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_ELF)

$(ASAN_DIR)/tests/unit/%: $(ASAN_DIR)/obj/tests/unit/%.o $(ASAN_LIB_OBJS)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS_ELF)

# Seeds: every BPF object the build makes. New inputs go to corpus/, kept
# between runs; crashes, leaks and timeouts to findings/.
fuzz: $(FUZZ_BIN) $(BPF_OBJS)
	@mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/findings
	$(Q)for o in $(BPF_OBJS); do cp $$o $(FUZZ_DIR)/seeds/$$(echo $$o | tr / _); done
	$(msg) FUZZ "$(FUZZ_SECONDS) s"
	$(Q)$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-artifact_prefix=$(FUZZ_DIR)/findings/ -print_final_stats=1 \
		$(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

test-asan: $(ASAN_UNIT_BINS) $(BPF_OBJS)
	$(Q)failed=0; for t in $(ASAN_UNIT_BINS); do \
		log=$$t.log; \
		if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		   BUILD=$(BUILD) $$t >$$log 2>&1; then \
			echo "  ok      $$(basename $$t): $$(grep -c '^ok' $$log) checks, no sanitizer report"; \
		else \
			failed=1; cat $$log; \
			echo "error: $$(basename $$t) failed under ASan/UBSan (log: $$log)" >&2; \
		fi; \
	done; exit $$failed

.PHONY: fuzz test-asan
-include tests/fuzz/fuzz_btf_print.mk
