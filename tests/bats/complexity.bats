#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# complexity.bats - `bpfsdk inspect` takes time linear in the size of the
# object along each axis: BTF types (a chain that ends, and one that loops),
# symbols, sections (with a map and a relocation each) and line info (a
# program calling that many functions); so does `bpfsdk gen skeleton` in
# the number of global variables, each a member it looks up by name. Objects of size N and 4N come from
# tests/complexity/gen_obj.py; the check is a ratio measured here, in one
# run, not an absolute time: 4N must take less than 8 times as long as N
# (linear gives about 4, a quadratic walk about 16; 8 is halfway between on
# a log scale). The runs alternate, N then 4N, three times, and each time
# is the least of its three, so load that comes and goes falls on both
# sizes alike (with 4N's three runs after N's, a ratio of 5.66 was seen on
# a busy machine); N is large enough that the time is well above the
# start-up cost.

load '/usr/lib/bats/bats-support/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	BPFSDK=$(realpath -e "$BUILD/bin/bpfsdk") || fail "$BUILD/bin/bpfsdk is not built (run make)"
	GEN=tests/complexity/gen_obj.py
}

# run_us FILE: the wall-clock time of one `bpfsdk $CMD FILE` (CMD: inspect
# unless set), in microseconds; a run that has not ended after 60 s is a
# hang, and fails the test (the ratio of two capped times would say
# nothing).
run_us() {
	local s e st
	s=$(date +%s%N)
	timeout 60 "$BPFSDK" ${CMD:-inspect} "$1" >/dev/null 2>&1 && st=0 || st=$?
	e=$(date +%s%N)
	[ "$st" -ne 124 ] || { echo "${CMD:-inspect} $1 did not end within 60 s" >&2; return 1; }
	echo $(((e - s) / 1000))
}

# grows_linearly AXIS N [GEN-FLAGS...]: objects of N and 4N along AXIS,
# timed in turn, three times each; the least time of each size counts.
grows_linearly() {
	local axis=$1 n=$2 small big t1=0 t4=0 t i
	shift 2
	small="$BATS_TEST_TMPDIR/$axis-$n.o"
	big="$BATS_TEST_TMPDIR/$axis-$((4 * n)).o"
	python3 "$GEN" "$small" "--$axis" "$n" "$@"
	python3 "$GEN" "$big" "--$axis" "$((4 * n))" "$@"
	for i in 1 2 3; do
		t=$(run_us "$small") || fail "$axis: inspect of N=$n hangs"
		[ "$t1" -ne 0 ] && [ "$t1" -le "$t" ] || t1=$t
		t=$(run_us "$big") || fail "$axis: inspect of 4N=$((4 * n)) hangs"
		[ "$t4" -ne 0 ] && [ "$t4" -le "$t" ] || t4=$t
	done
	echo "# $axis: N=$n ${t1} us, 4N=$((4 * n)) ${t4} us, ratio $(awk "BEGIN { printf \"%.2f\", $t4 / $t1 }")" >&3
	[ $((t4 * 10)) -lt $((t1 * 80)) ] ||
		fail "$axis: 4N took $t4 us, more than 8 times the $t1 us of N"
}

@test "growth: BTF types, a chain of typedefs that ends" {
	grows_linearly types 300000
	run "$BPFSDK" inspect "$BATS_TEST_TMPDIR/types-1200000.o"
	[ "$status" -eq 0 ] || fail "inspect failed: $output"
}

@test "growth: BTF types, a chain that loops back is refused, naming the loop" {
	grows_linearly types 300000 --loop
	run "$BPFSDK" inspect "$BATS_TEST_TMPDIR/types-1200000.o"
	[ "$status" -eq 1 ] || fail "status $status: $output"
	[[ "$output" == *"refers back to type"*"in a loop"* ]] || fail "no loop named: $output"
}

@test "growth: symbols (global variables of .data sections)" {
	grows_linearly syms 100000
}

@test "growth: gen skeleton of that many global variables" {
	CMD="gen skeleton --name g" grows_linearly syms 20000
	run "$BPFSDK" gen skeleton --name g "$BATS_TEST_TMPDIR/syms-80000.o"
	[ "$status" -eq 0 ] || fail "gen failed: ${output:0:500}"
	[[ "$output" == *$'\tint g79999;'* ]] || fail "no member for the last variable"
}

@test "growth: sections (a program, a map and a relocation each)" {
	grows_linearly secs 1500
}

@test "growth: line info (a program calling that many functions)" {
	grows_linearly lines 20000
}
