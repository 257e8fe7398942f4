# tests/faults/ - the fault walk: fail every allocation and system call a
# workflow makes, one at a time (walk.c, with tests/preload/faultinject.c).
#
#   make test-faults   every point of every workflow (tests/faults/run), then
#                      SIGKILL at 20 moments of bpfsdk run and two samples;
#                      make test runs a sample of the points and the kills
#                      (tests/bats/faults.bats)

FAULT_WALK := $(BUILD)/tests/faults/walk

$(FAULT_WALK): tests/faults/walk.c | $(BUILD)/.deps-ok
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

test-programs: $(FAULT_WALK)

test-faults: setup-test
	$(Q)$(MAKE) --no-print-directory test-programs
	$(Q)BUILD=$(BUILD) tests/faults/run
	$(Q)BUILD=$(BUILD) tests/faults/run --kill

.PHONY: test-faults
