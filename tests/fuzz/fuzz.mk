# tests/fuzz/ - a libFuzzer target per parser of the loader, and the unit
# and CLI suites under AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer included).
#
#   make fuzz [FUZZ_SECONDS=60]   every target below, one after the other,
#                                 FUZZ_SECONDS each; fails on any finding,
#                                 kept in $(BUILD)/fuzz/findings/
#   make fuzz-obj, fuzz-btf, fuzz-btf-ext, fuzz-perf-ring, fuzz-usdt,
#        fuzz-btf-print
#                                 one of them
#   make test-asan                the unit tests, sanitised, in $(BUILD)/asan,
#                                 then the CLI suites against bpfsdk built
#                                 sanitised in $(BUILD)/asan-cli
#
# Targets (tests/fuzz/fuzz_NAME.c) and their seeds, made from the test
# objects at each run:
#   obj        any bytes as an object             the objects
#   btf        any bytes as .BTF                  their .BTF sections
#   btf_ext    any bytes as the .BTF.ext of one   their .BTF.ext sections, each
#              of the objects                     after the index of its object
#   perf_ring  any ring contents, both walkers    perf_ring_seeds.py: rings of
#                                                 records, and object bytes
#   usdt       PROVIDER NUL NAME NUL and a        each probe of usdt_probe,
#              binary: its .note.stapsdt and      whole and stripped
#              the argument strings
#
# All need clang's sanitizer and libFuzzer runtimes (libclang-rt-14-dev).

FUZZ_SECONDS ?= 60
SAN_CC       ?= $(CLANG)
SAN_FLAGS    := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=all
SAN_CFLAGS   := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE \
		$(SAN_FLAGS)

FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_TARGETS := obj btf btf_ext perf_ring usdt
FUZZ_BINS    := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))
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

-include $(wildcard $(FUZZ_DIR)/obj/*/*.d $(FUZZ_DIR)/obj/*/*/*.d $(FUZZ_DIR)/obj/*/*/*/*.d)
-include $(wildcard $(ASAN_DIR)/obj/*/*.d $(ASAN_DIR)/obj/*/*/*.d $(ASAN_DIR)/obj/*/*/*/*.d)

$(FUZZ_BINS): $(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(msg) LINK $@
	$(Q)$(SAN_CC) $(SAN_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_ELF)

$(ASAN_DIR)/tests/unit/%: $(ASAN_DIR)/obj/tests/unit/%.o $(ASAN_LIB_OBJS)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS_ELF)

# $(call fuzz_run,NAME): run fuzz_NAME over $(FUZZ_DIR)/t/NAME/seeds; new
# inputs go to corpus/, kept between runs, findings to findings/NAME-*.
define fuzz_run
	@mkdir -p $(FUZZ_DIR)/t/$(1)/corpus $(FUZZ_DIR)/findings
	$(msg) FUZZ "$(1) $(FUZZ_SECONDS) s"
	$(Q)BSDK_FUZZ_BASES=$(FUZZ_DIR)/t/btf_ext/bases $(FUZZ_DIR)/fuzz_$(1) \
		-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(FUZZ_DIR)/findings/$(1)- -print_final_stats=1 \
		$(FUZZ_DIR)/t/$(1)/corpus $(FUZZ_DIR)/t/$(1)/seeds
endef

# $(call fuzz_sections,SECTION,DIR,WITH-INDEX): the section of every object
# that has one, into DIR; with WITH-INDEX, after a byte that is the index
# of its object in the sorted list of objects that have one.
define fuzz_sections
	$(Q)rm -rf $(2) && mkdir -p $(2) && i=0 && \
	for o in $(sort $(BPF_OBJS)); do \
		s=$(2)/$$(echo $$o | tr / _); \
		llvm-objcopy --dump-section $(1)=$$s.sec $$o $$s.tmp 2>/dev/null || continue; \
		rm -f $$s.tmp; \
		if [ -n "$(3)" ]; then \
			{ printf "\\$$(printf %o $$i)"; cat $$s.sec; } >$$s; rm $$s.sec; \
			cp $$o $(FUZZ_DIR)/t/btf_ext/bases/$$(printf %03d $$i).o; \
			i=$$((i + 1)); \
		else mv $$s.sec $$s; fi; \
	done
endef

fuzz-obj: $(FUZZ_DIR)/fuzz_obj $(BPF_OBJS)
	$(Q)rm -rf $(FUZZ_DIR)/t/obj/seeds && mkdir -p $(FUZZ_DIR)/t/obj/seeds
	$(Q)for o in $(BPF_OBJS); do cp $$o $(FUZZ_DIR)/t/obj/seeds/$$(echo $$o | tr / _); done
	$(call fuzz_run,obj)

fuzz-btf: $(FUZZ_DIR)/fuzz_btf $(BPF_OBJS)
	$(call fuzz_sections,.BTF,$(FUZZ_DIR)/t/btf/seeds,)
	$(call fuzz_run,btf)

fuzz-btf-ext: $(FUZZ_DIR)/fuzz_btf_ext $(BPF_OBJS)
	$(Q)rm -rf $(FUZZ_DIR)/t/btf_ext/bases && mkdir -p $(FUZZ_DIR)/t/btf_ext/bases
	$(call fuzz_sections,.BTF.ext,$(FUZZ_DIR)/t/btf_ext/seeds,index)
	$(call fuzz_run,btf_ext)

fuzz-perf-ring: $(FUZZ_DIR)/fuzz_perf_ring $(BPF_OBJS)
	$(Q)rm -rf $(FUZZ_DIR)/t/perf_ring/seeds
	$(Q)python3 tests/fuzz/perf_ring_seeds.py $(FUZZ_DIR)/t/perf_ring/seeds $(BPF_OBJS)
	$(call fuzz_run,perf_ring)

# usdt_probe (tests/drivers/usdt_probe.c) has two probes; each is a seed
# with the binary whole and with its symbols stripped.
fuzz-usdt: $(FUZZ_DIR)/fuzz_usdt $(BUILD)/bin/usdt_probe
	$(Q)rm -rf $(FUZZ_DIR)/t/usdt/seeds && mkdir -p $(FUZZ_DIR)/t/usdt/seeds
	$(Q)s=$(FUZZ_DIR)/t/usdt/seeds; b=$(BUILD)/bin/usdt_probe; \
	strip -o $$s/stripped $$b && \
	for p in hit gated; do \
		{ printf 'bpfsdk\0%s\0' $$p; cat $$b; } >$$s/usdt_probe-$$p; \
		{ printf 'bpfsdk\0%s\0' $$p; cat $$s/stripped; } >$$s/stripped-$$p; \
	done; rm $$s/stripped
	$(call fuzz_run,usdt)

fuzz: fuzz-obj fuzz-btf fuzz-btf-ext fuzz-perf-ring fuzz-usdt

test-asan: test-asan-unit test-asan-cli

test-asan-unit: $(ASAN_UNIT_BINS) $(BPF_OBJS)
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

# The CLI suites against the programs and objects built again with the
# sanitizers (CFLAGS and CC from the environment, so the Makefile's own
# flags still apply; not the shared library, which ASan does not link). Every
# report goes to a file, so that a test that expects a failure status
# cannot hide one: any file there fails the run.
ASAN_CLI        := $(BUILD)/asan-cli
ASAN_CLI_SUITES := $(sort $(wildcard tests/bats/cli_*.bats))

test-asan-cli:
	$(Q)CC=$(SAN_CC) CFLAGS="-O1 -g $(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
		$(MAKE) --no-print-directory BUILD=$(ASAN_CLI) \
		$(patsubst $(BUILD)/%,$(ASAN_CLI)/%,$(USER_BINS) $(BPF_OBJS))
	$(Q)rm -rf $(ASAN_CLI)/reports && mkdir -p $(ASAN_CLI)/reports
	$(Q)ASAN_OPTIONS=detect_leaks=1:log_path=$(abspath $(ASAN_CLI))/reports/asan \
	   UBSAN_OPTIONS=print_stacktrace=1:log_path=$(abspath $(ASAN_CLI))/reports/ubsan \
	   BUILD=$(ASAN_CLI) bats $(ASAN_CLI_SUITES)
	$(Q)if [ -n "$$(ls $(ASAN_CLI)/reports)" ]; then \
		cat $(ASAN_CLI)/reports/*; \
		echo "error: sanitizer reports from the CLI suites, in $(ASAN_CLI)/reports" >&2; \
		exit 1; \
	fi; echo "  ok      CLI suites under ASan/UBSan: no sanitizer report"

.PHONY: fuzz fuzz-obj fuzz-btf fuzz-btf-ext fuzz-perf-ring fuzz-usdt test-asan test-asan-unit test-asan-cli
-include tests/fuzz/fuzz_btf_print.mk
