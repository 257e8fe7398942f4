#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The channel the series created: user space opens a
# PERF_TYPE_SOFTWARE/PERF_COUNT_SW_BPF_OUTPUT event per CPU, stores it in a
# BPF_MAP_TYPE_PERF_EVENT_ARRAY, and what a program sends with
# bpf_perf_event_output() arrives in that CPU's ring as a PERF_RECORD_SAMPLE
# carrying PERF_SAMPLE_RAW data.

load helpers

setup() {
	kern_setup
}

# records_on_every_cpu HOOK: the check, through one kind of hook.
records_on_every_cpu() {
	local line n cpu
	probe --hook "$1" records || return 1
	note "$(where), hook $1:"
	sed 's/^/#   /' <<<"$output" >&3

	lines 'cpu='
	n=0
	for line in "${L[@]}"; do
		[[ $line == *' store=ok'* ]] && n=$((n + 1))
	done
	lines online_cpus=
	fields "${L[0]:-}"
	expect "online CPUs with an event stored" "$n" "${F[online_cpus]:-none}" || return 1
	[ "$n" -ge 1 ] || { echo "expected at least one CPU"; return 1; }
	lines trigger_cpu=
	expect "CPUs triggered" "${#L[@]}" "$n" || return 1
	for line in "${L[@]}"; do
		fields "$line"
		cpu=${F[trigger_cpu]}
		expect "cpu $cpu: helper return" "${F[ret]}" 0 || return 1
		expect "cpu $cpu: records in its own ring" "${F[records_in_own_ring]}" 1 || return 1
		expect "cpu $cpu: records in other CPUs' rings" "${F[records_elsewhere]}" 0 || return 1
		expect "cpu $cpu: record type" "${F[record_type]}" "9(PERF_RECORD_SAMPLE)" || return 1
		# 8 bytes sent: header 8 + raw size field 4 + 8 + 4 padding.
		expect "cpu $cpu: raw size" "${F[raw_size]}" 12 || return 1
		expect "cpu $cpu: header size" "${F[header_size]}" 24 || return 1
		expect "cpu $cpu: payload" "${F[payload]}" ok || return 1
	done
}

@test "BPF_OUTPUT: an event per CPU in a PERF_EVENT_ARRAY gets PERF_RECORD_SAMPLE raw records (tracepoint)" {
	records_on_every_cpu tracepoint
}

@test "BPF_OUTPUT: the same from a uprobe on the driver" {
	records_on_every_cpu uprobe
}

@test "BPF_OUTPUT: the same from a kprobe, the 2015 sample's hook" {
	records_on_every_cpu kprobe
}
