#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The perf buffer's switch between a per-record event and a watermark event
# in a CPU's map slot, on the running kernel: the driver checks that an idle
# consumer has no timer and is woken for a single record, that a burst moves
# the slot to the watermark event and the timer, and back when quiet. No
# figure is asserted: the checks are on counts and states.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/perf_wakeup"
	OBJ="$BUILD/bpf/tests/perf_overflow.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
}

@test "perf buffer: per-record wakeups when idle, watermark and timer in a burst, and back" {
	run "$BIN" --obj "$OBJ"
	echo "$output"
	assert_success
	refute_line --partial 'FAIL'
	assert_line 'ok idle: no timer: -1 (expected -1)'
	assert_line "ok the poll ended on the per-record event's wakeup: 1 (expected 1)"
	assert_line 'ok after a burst: one CPU draining on the timer: 1 (expected 1)'
	assert_line 'ok quiet again: no timer: -1 (expected -1)'
	assert_line 'ok woken by the kernel again: 1 (expected 1)'
	assert_line 'all checks passed'
}
