#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The perf buffer's accounting on the running kernel: a ring of one page per
# CPU is flooded on purpose, and every record must be either received or
# reported lost - the BPF side's own count of what it sent decides.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/perf_overflow"
	OBJ="$BUILD/bpf/tests/perf_overflow.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
}


# counts: set produced, received, lost, enospc, other, bad from the output.
counts() {
	local line
	line=$(grep '^produced ' <<<"$output") || fail "no 'produced ...' line in: $output"
	read -r _ produced _ received _ lost _ enospc _ other _ bad <<<"$line"
}

@test "1 page per CPU, flooded: received + lost == produced exactly" {
	run "$BIN" --obj "$OBJ" --pages 1 --bursts 20 --writes 2000
	echo "$output"
	assert_success
	counts
	# It did overflow: a 4 KiB ring holds 128 records of 32 bytes, and
	# each burst writes 2000 with nobody reading.
	[ "$lost" -gt 0 ] || fail "lost is $lost: the ring never overflowed"
	[ "$received" -gt 0 ] || fail "received is $received"
	[ $((received + lost)) -eq "$produced" ] ||
		fail "received $received + lost $lost = $((received + lost)), produced $produced"
	# Both sides saw the same losses.
	[ "$enospc" -eq "$lost" ] || fail "BPF side -ENOSPC $enospc, kernel lost $lost"
	[ "$other" -eq 0 ] || fail "other errors: $other"
	[ "$bad" -eq 0 ] || fail "bad records: $bad"
	assert_line 'accounted: received + lost == produced'
}

@test "ring buffer of 1 page, flooded: received + lost == produced exactly" {
	run "$BIN" --obj "$OBJ" --channel ringbuf --pages 1 --bursts 20 --writes 2000
	echo "$output"
	assert_success
	assert_line 'channel ringbuf pages 1 bursts 20 writes 2000'
	counts
	# 4 KiB hold 170 records of 24 bytes; each burst writes 2000 unread.
	[ "$lost" -gt 0 ] || fail "lost is $lost: the ring never overflowed"
	[ "$received" -gt 0 ] || fail "received is $received"
	[ $((received + lost)) -eq "$produced" ] ||
		fail "received $received + lost $lost = $((received + lost)), produced $produced"
	[ "$other" -eq 0 ] || fail "other errors: $other"
	[ "$bad" -eq 0 ] || fail "bad records: $bad"
	assert_line 'accounted: received + lost == produced'
}

@test "a ring buffer large enough for a burst loses nothing" {
	run "$BIN" --obj "$OBJ" --channel ringbuf --pages 64 --bursts 5 --writes 2000
	echo "$output"
	assert_success
	counts
	[ "$lost" -eq 0 ] || fail "lost is $lost, expected 0 with 256 KiB"
	[ "$received" -eq "$produced" ] || fail "received $received, produced $produced"
	[ "$produced" -ge 10001 ] || fail "produced $produced, expected at least 10001"
}

@test "a ring large enough for a burst loses nothing" {
	run "$BIN" --obj "$OBJ" --pages 64 --bursts 5 --writes 2000
	echo "$output"
	assert_success
	counts
	[ "$lost" -eq 0 ] || fail "lost is $lost, expected 0 with 256 KiB per CPU"
	[ "$received" -eq "$produced" ] || fail "received $received, produced $produced"
	[ "$produced" -ge 10001 ] || fail "produced $produced, expected at least 10001"
}

@test "a page count that is not a power of two is refused with a clear error" {
	run "$BIN" --obj "$OBJ" --pages 3
	assert_failure 1
	assert_output --partial "error: perf buffer: 3 pages per CPU is not a power of two (try 2)"
}

@test "perf_overflow --help and a bad option" {
	run "$BIN" --help
	assert_success
	assert_output --partial 'usage: perf_overflow'
	run "$BIN" --pages
	assert_failure 2
	run "$BIN" --pages x
	assert_failure 2
	assert_output --partial "error: --pages 'x' is not a number"
	run "$BIN" --channel pipe
	assert_failure 2
	assert_output "error: --channel 'pipe' is not perf or ringbuf"
}
