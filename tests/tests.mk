# tests/ - unit tests (C, TAP output), BPF objects the suites load, and the
# suite runner. `make test` = set-up + build + every suite + one summary.

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))

$(foreach s,$(UNIT_SRCS),$(eval $(call user_object,$(s))))

# Every object of the library, the extensions' passes (ext/passes.c) with
# them, as in libbpfsdk.a: a unit test calls internal functions by name.
$(BUILD)/tests/unit/%: $(BUILD)/obj/tests/unit/%.o $(LOADER_LIB_INTERNAL)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-Wl,--whole-archive $(LOADER_LIB_INTERNAL) -Wl,--no-whole-archive $(LDLIBS_ELF)

# BPF objects used only by the tests: tests/bpf/NAME.bpf.c ->
# build/bpf/tests/NAME.bpf.o
TEST_BPF_SRCS := $(sort $(wildcard tests/bpf/*.bpf.c))
$(foreach s,$(TEST_BPF_SRCS),$(eval $(call bpf_object,tests/$(notdir $(s:.bpf.c=)),$(s))))

# C drivers of the BATS suites: tests/drivers/NAME.c -> build/bin/NAME
TEST_DRIVER_SRCS := $(sort $(wildcard tests/drivers/*.c))
$(foreach s,$(TEST_DRIVER_SRCS),$(eval $(call user_program,$(notdir $(s:.c=)),$(s))))

# Libraries the suites preload into a program to open a race window:
# tests/preload/NAME.c -> build/tests/preload/NAME.so
TEST_PRELOAD_SRCS := $(sort $(wildcard tests/preload/*.c))
TEST_PRELOADS     := $(patsubst tests/preload/%.c,$(BUILD)/tests/preload/%.so,$(TEST_PRELOAD_SRCS))

$(BUILD)/tests/preload/%.so: tests/preload/%.c | $(BUILD)/.deps-ok
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

test-programs: all $(UNIT_BINS) $(TEST_PRELOADS)

# `make test` runs the host suites and then the same suites inside the qemu
# test kernel (built once, cached); `make test-host` leaves the VM out.
test: setup-test
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) test-programs
	$(Q)BUILD=$(BUILD) tests/run

test-host: setup-test
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) test-programs
	$(Q)BUILD=$(BUILD) tests/run --host-only

test-all: test

.PHONY: test-programs test-all

# A driver built on a generated skeleton (tests/bats/cli_gen.bats).
$(eval $(call skeleton,tests/skel_types))
$(BUILD)/obj/tests/drivers/skel_driver.o: $(BUILD)/skel/tests/skel_types.skel.h

# The fault walk's driver (tests/faults/) runs a workflow through a skeleton too.
$(eval $(call skeleton,tests/fault_glob))
$(BUILD)/obj/tests/drivers/fault_flow.o: $(BUILD)/skel/tests/fault_glob.skel.h

# A libbpf-bootstrap-style main() on a generated skeleton (cli_gen.bats).
$(eval $(call skeleton,tests/skel_bootstrap))
$(BUILD)/obj/tests/drivers/skel_bootstrap.o: $(BUILD)/skel/tests/skel_bootstrap.skel.h

# Objects built the way a newcomer does without the Makefile, at -O0:
# tests/bpf-O0/NAME.bpf.c -> build/bpf/tests/NAME.bpf.o (cli_errors.bats).
TEST_BPF_O0_SRCS := $(sort $(wildcard tests/bpf-O0/*.bpf.c))
$(BUILD)/bpf/tests/%.bpf.o: tests/bpf-O0/%.bpf.c | $(BUILD)/.deps-ok
	$(msg) BPF-O0 $@
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(filter-out -O2,$(BPF_CFLAGS)) -O0 -MMD -MP -MF $@.d -c $< -o $@
-include $(patsubst tests/bpf-O0/%.bpf.c,$(BUILD)/bpf/tests/%.bpf.o.d,$(TEST_BPF_O0_SRCS))
BPF_OBJS += $(patsubst tests/bpf-O0/%.bpf.c,$(BUILD)/bpf/tests/%.bpf.o,$(TEST_BPF_O0_SRCS))
include tests/ports/ports.mk
