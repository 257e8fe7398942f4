# tests/ - unit tests (C, TAP output), BPF objects the suites load, and the
# suite runner. `make test` = set-up + build + every suite + one summary.

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))

$(foreach s,$(UNIT_SRCS),$(eval $(call user_object,$(s))))

$(BUILD)/tests/unit/%: $(BUILD)/obj/tests/unit/%.o $(LOADER_LIB)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LOADER_LIB) $(LDLIBS_ELF)

# BPF objects used only by the tests: tests/bpf/NAME.bpf.c ->
# build/bpf/tests/NAME.bpf.o
TEST_BPF_SRCS := $(sort $(wildcard tests/bpf/*.bpf.c))
$(foreach s,$(TEST_BPF_SRCS),$(eval $(call bpf_object,tests/$(notdir $(s:.bpf.c=)),$(s))))

# C drivers of the BATS suites: tests/drivers/NAME.c -> build/bin/NAME
TEST_DRIVER_SRCS := $(sort $(wildcard tests/drivers/*.c))
$(foreach s,$(TEST_DRIVER_SRCS),$(eval $(call user_program,$(notdir $(s:.c=)),$(s))))

test-programs: all $(UNIT_BINS)

# `make test` runs the suites on this machine's kernel. The suites inside
# the qemu test kernel (tests/vm) are not part of it yet: they do not pass
# reliably, and a red suite must not hide behind a green one. Run them with
# `make vmtest`, or everything with `make test-all`.
test: setup
	$(Q)$(MAKE) --no-print-directory test-programs
	$(Q)BUILD=$(BUILD) tests/run --host-only

test-host: test

test-all: setup
	$(Q)$(MAKE) --no-print-directory test-programs
	$(Q)BUILD=$(BUILD) tests/run

.PHONY: test-programs test-all
