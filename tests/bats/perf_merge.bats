#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The perf buffer's optional merge by timestamp, on the running kernel:
# writers on every CPU fill their rings, one consume hands everything out.
# With one CPU there is nothing to merge and both tests would pass whatever
# the merge did: they need two CPUs, and check that records of more than
# one CPU came out.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/perf_merge"
	OBJ="$BUILD/bpf/tests/perf_overflow.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
}

# parse: set cpus, received, lost, inversions, switches from the output.
parse() {
	local line
	line=$(grep '^merge ' <<<"$output") || fail "no 'merge ...' line in: $output"
	read -r _ _ _ cpus _ _ _ received _ lost _ inversions _ switches <<<"$line"
	[ "$cpus" -ge 2 ] || skip "one CPU online: nothing to merge"
	# both rings held records: they came out from more than one CPU
	[ "$switches" -ge 1 ] || fail "all $received records came from one CPU"
}

@test "merge_by_ts: the records of all CPUs come out in timestamp order" {
	run "$BIN" --obj "$OBJ" --merge --writes 3000
	echo "$output"
	assert_success
	parse
	[ "$received" -eq $((3000 * cpus)) ] || fail "received $received, expected $((3000 * cpus))"
	[ "$lost" -eq 0 ] || fail "lost $lost"
	[ "$inversions" -eq 0 ] || fail "$inversions records out of timestamp order"
	# the writers ran at once: merged, the CPUs alternate, far more often
	# than once per ring
	[ "$switches" -gt $((cpus - 1)) ] ||
		fail "only $switches changes of CPU: the records were not interleaved by time"
}

@test "without merge_by_ts the records come CPU by CPU" {
	run "$BIN" --obj "$OBJ" --writes 3000
	echo "$output"
	parse
	[ "$received" -eq $((3000 * cpus)) ] || fail "received $received, expected $((3000 * cpus))"
	# One ring after the other: at most one change of CPU per ring.
	[ "$switches" -le $((cpus - 1)) ] ||
		fail "$switches changes of CPU, expected at most $((cpus - 1)) without merging"
	# and the writers took turns, so that order is not the order in time
	[ "$inversions" -gt 0 ] || fail "CPU by CPU, yet in timestamp order: the writes did not interleave"
}

@test "merge_by_ts with ts_offset 8: ordered by the u64 there, not the timestamp" {
	# bytes 8..15 of a record are its per-CPU sequence number and its CPU:
	# as a u64, CPU first. Merged by it, each CPU's records come in one
	# run; by the timestamp at offset 0 they would alternate.
	run "$BIN" --obj "$OBJ" --merge --ts-offset 8 --writes 3000
	echo "$output"
	assert_success
	parse
	[ "$received" -eq $((3000 * cpus)) ] || fail "received $received, expected $((3000 * cpus))"
	[ "$inversions" -eq 0 ] || fail "$inversions records out of order by the u64 at offset 8"
	[ "$switches" -eq $((cpus - 1)) ] ||
		fail "$switches changes of CPU, expected $((cpus - 1)): the order is not by offset 8"
}
