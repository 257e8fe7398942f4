#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Patch 3/3, "samples: bpf: add bpf_perf_event_output example": the seed's
# experiment - a program on every write(2) of a `dd` streams {pid, cookie}
# to user space - as samples/trace_output does it today. Every record must
# carry the cookie and dd's pid; the sample counts the bad ones.

load helpers

setup() {
	kern_setup
	SAMPLE=$BUILD/bin/trace_output
	[ -x "$SAMPLE" ] || fail "'$SAMPLE' is not built (run make)"
}

# stream PROBE: run the sample for 2 seconds through that probe kind.
stream() {
	local summary received bad
	run "$SAMPLE" --duration 2 --probe "$1"
	note "$(where): trace_output --probe $1:"
	sed 's/^/#   /' <<<"$output" >&3
	if [ "$status" -ne 0 ] && [ "$1" = kprobe ] && [ ! -e /sys/bus/event_source/devices/kprobe ]; then
		skip "this kernel has no kprobes (no kprobe PMU); the test VM runs this one"
	fi
	expect "trace_output exit status" "$status" 0 || return 1
	summary=$(grep -m1 -E '^received [0-9]+, lost [0-9]+, bad [0-9]+' <<<"$output") ||
		{ echo "expected a 'received R, lost L, bad B' line"; return 1; }
	received=$(sed -E 's/^received ([0-9]+),.*/\1/' <<<"$summary")
	bad=$(sed -E 's/.*bad ([0-9]+).*/\1/' <<<"$summary")
	[ "$received" -gt 0 ] || { echo "expected records, got received=$received"; return 1; }
	expect "records with a wrong cookie, pid or size" "$bad" 0
}

@test "patch 3: trace_output streams with every cookie intact (tracepoint)" {
	stream tracepoint
}

@test "patch 3: trace_output streams with every cookie intact (kprobe, as in 2015)" {
	stream kprobe
}
