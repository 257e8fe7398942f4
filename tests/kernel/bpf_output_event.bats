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
	while IFS= read -r line; do note "  $line"; done <<<"$output"

	n=$(grep -c '^cpu=.* store=ok' <<<"$output")
	expect "online CPUs with an event stored" "$n" "$(field "$(grep -m1 online_cpus <<<"$output")" online_cpus)" || return 1
	[ "$n" -ge 1 ] || { echo "expected at least one CPU"; return 1; }
	while IFS= read -r line; do
		cpu=$(field "$line" trigger_cpu)
		expect "cpu $cpu: helper return" "$(field "$line" ret)" 0 || return 1
		expect "cpu $cpu: records in its own ring" "$(field "$line" records_in_own_ring)" 1 || return 1
		expect "cpu $cpu: records in other CPUs' rings" "$(field "$line" records_elsewhere)" 0 || return 1
		expect "cpu $cpu: record type" "$(field "$line" record_type)" "9(PERF_RECORD_SAMPLE)" || return 1
		# 8 bytes sent: header 8 + raw size field 4 + 8 + 4 padding.
		expect "cpu $cpu: raw size" "$(field "$line" raw_size)" 12 || return 1
		expect "cpu $cpu: header size" "$(field "$line" header_size)" 24 || return 1
		expect "cpu $cpu: payload" "$(field "$line" payload)" ok || return 1
	done < <(grep '^trigger_cpu=' <<<"$output")
	expect "CPUs triggered" "$(grep -c '^trigger_cpu=' <<<"$output")" "$n"
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
