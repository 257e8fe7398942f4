#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bench/rings_bench as a smoke test: one short round over rings in memory, a row for each ring
# count, and every record written handed out, in CPU order and merged. No figure is asserted -
# timings on a shared machine are not test results; `make bench-rings` is where they are
# measured.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/rings_bench"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
}

# The value of key in a bench: line.
field() {
	sed -nE "s/.* $1=([0-9.]+)( .*|$)/\1/p" <<<"$2"
}

@test "rings_bench prints a row for 1, 8, 64 and 256 rings and drains every record written" {
	run "$BIN" --rounds 1 --drains 2 --records 512
	echo "$output"
	assert_success
	assert_line --partial '| rings | pages per ring | CPU order ns/record (range) |'
	for n in 1 8 64 256; do
		assert_line --regexp "^\| $n \| [0-9]+ \| [0-9.]+ \([0-9.]+–[0-9.]+\) \|"
		line=$(grep "^bench: rings name=perf rings=$n " <<<"$output") ||
			fail "no bench: line for $n rings"
		assert_equal "$(field records "$line")" 1024
		assert_equal "$(field drained "$line")" 1024
		assert_equal "$(field drained_merged "$line")" 1024
		for k in order_ns_per_record merged_ns_per_record merged_vs_order empty_ns_per_ring \
			 empty_merged_ns_per_ring empty_cold_ns_per_ring mapped_bytes heap_bytes; do
			[ -n "$(field $k "$line")" ] || fail "$n rings: no $k"
		done
	done
	assert_line --regexp '^\| bsdk-ringbuf \| 1 \| [0-9.]+ '
	line=$(grep '^bench: rings name=ringbuf rings=1 ' <<<"$output") || fail "no ring buffer line"
	assert_equal "$(field records "$line")" 1024
	assert_equal "$(field drained "$line")" 1024
}

@test "rings_bench --rings chooses the ring counts" {
	run "$BIN" --rounds 2 --drains 1 --records 64 --rings 3,5
	assert_success
	assert_line --regexp '^bench: rings name=perf rings=3 rounds=2 records=128 drained=128 drained_merged=128 '
	assert_line --regexp '^bench: rings name=perf rings=5 rounds=2 records=128 drained=128 drained_merged=128 '
	refute_line --regexp '^bench: rings name=perf rings=(1|8|64|256) '
}

@test "rings_bench usage errors exit 2 with a message" {
	run "$BIN" --rings 0
	assert_failure 2
	assert_output --partial "error: --rings '0' is not a number from 1 to 4096"
	run "$BIN" --rings 1,x
	assert_failure 2
	run "$BIN" --records 0
	assert_failure 2
	run "$BIN" nosuch
	assert_failure 2
	assert_output --partial "unexpected argument 'nosuch'"
	run "$BIN" --help
	assert_success
	assert_output --partial 'usage: rings_bench'
}
