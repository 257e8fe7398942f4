#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Patch 2/3, "bpf: introduce bpf_perf_event_output() helper": what the
# helper returns when it is misused, what the verifier refuses, and the
# GPL-only rule the review added.

load helpers

setup() {
	kern_setup
}

# errno values of x86_64 Linux, as the helper returns them (negated).
E2BIG=7 ENOENT=2 EINVAL=22 EOPNOTSUPP=95

# expect_case NAME RET: the case's return value, and no record for a
# failed call.
expect_case() {
	local line
	lines "case=$1 "
	line=${L[0]:-}
	[ -n "$line" ] || { echo "case '$1' missing from the driver's output"; return 1; }
	if [[ $line == *' skipped='* ]]; then
		note "  $1: $line"
		return 0
	fi
	fields "$line"
	expect "case $1 (${line#*what=}): return value" "${F[ret]}" "$2" || return 1
	if [ "$2" -ne 0 ]; then
		expect "case $1: records written" "${F[records]}" 0 || return 1
	else
		expect "case $1: records written" "${F[records]}" 1 || return 1
	fi
}

@test "patch 2: the helper returns -E2BIG, -ENOENT, -EINVAL, -EOPNOTSUPP for each misuse, 0 otherwise" {
	probe errors
	note "$(where):"
	sed 's/^/#   /' <<<"$output" >&3
	expect_case ok 0
	expect_case index_out_of_range -$E2BIG
	expect_case index_far_out_of_range -$E2BIG
	expect_case empty_slot -$ENOENT
	expect_case not_bpf_output -$EINVAL
	expect_case other_cpu -$EOPNOTSUPP
	expect_case unknown_flags -$EINVAL
	expect_case unknown_flags_high -$EINVAL
}

@test "patch 2: another CPU's event is refused with -EOPNOTSUPP (needs two CPUs)" {
	probe errors
	grep -q '^case=other_cpu skipped=' <<<"$output" && skip "only one CPU is online"
	expect_case other_cpu -$EOPNOTSUPP
}

# verdict OBJ: load it, put the verdict and the verifier's reason in the log.
verdict() {
	probe load "$BPF_TESTS/$1.bpf.o" || return 1
	note "$(where): $1: $(grep '^verdict=' <<<"$output")"
	grep -E 'cannot|invalid|GPL' <<<"$output" | sed 's/^/#     /' >&3 || true
}

@test "patch 2: the verifier rejects bpf_perf_event_output() with a map that is not a PERF_EVENT_ARRAY" {
	verdict kern_reject_map
	assert_line 'verdict=rejected'
	assert_output --partial 'cannot pass map_type 2 into func bpf_perf_event_output#25'
}

@test "patch 2: the verifier rejects a PERF_EVENT_ARRAY passed to bpf_map_lookup_elem()" {
	verdict kern_reject_lookup
	assert_line 'verdict=rejected'
	assert_output --partial 'cannot pass map_type 4 into func bpf_map_lookup_elem#1'
}

@test "patch 2 review: a program whose license is not GPL-compatible may not call the helper" {
	verdict kern_reject_license
	assert_line 'verdict=rejected'
	assert_output --partial 'cannot call GPL-restricted function from non-GPL compatible program'
}

@test "patch 2 controls: the valid program loads, and a non-GPL one without the helper loads" {
	verdict kern_output
	assert_line 'verdict=accepted'
	verdict kern_license_control
	assert_line 'verdict=accepted'
}
