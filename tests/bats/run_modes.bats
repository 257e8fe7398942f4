#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# run_modes.bats - a tool with two modes (tests/bpf/run_modes.bpf.c, as
# sigsnoop: the exits of kill() and tkill(), or the tracepoint
# signal/signal_generate, send the same records): inspect names the places
# its records come from; run, attaching both, says so and how to choose,
# and a kill() then shows once per mode; --program or --no-program keeps
# one mode, and the hint goes.

load cli_common

setup() {
	cli_setup
	command -v jq >/dev/null || skip "jq is not installed (tools/setup installs it)"
	OBJ="$OBJS/run_modes.bpf.o"
	HINT="hint: map 'events': programs in different places send its records, all attached: kill_exit, tkill_exit (syscalls); sig_trace (signal); if they are modes of the tool, which loads one, each event shows once per mode: --program GLOB or --no-program GLOB chooses"
}

teardown() {
	cli_teardown
	[ -n "${SLEEP_PID:-}" ] && kill "$SLEEP_PID" 2>/dev/null
	return 0
}

# signal ARGS...: bpfsdk run ARGS on a shell that sends one SIGCONT with
# kill() once "$GO" exists; the records it shows in $OUT.
signal() {
	rm -f "$GO"
	sleep 60 &
	SLEEP_PID=$!
	sh -c 'i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done; kill -CONT "$2"' \
		sh "$GO" "$SLEEP_PID" &
	TRIGGER_PID=$!
	SIGNALLER=$TRIGGER_PID
	start_run --format json --set target_pid="$TRIGGER_PID" "$@" "$OBJ"
	go
	wait "$TRIGGER_PID"
	TRIGGER_PID=
}

# modes N: wait for N records of the SIGCONT (18) - the shell's exit
# sends its parent a SIGCHLD too, which signal_generate sees - stop run;
# the modes they came from, sorted.
modes() {
	local sent="$BATS_TEST_TMPDIR/sigcont"
	wait_lines "$1" '"sig":18,'
	kill -INT "$RUN_PID"
	wait_run
	jq -c 'select(.sig == 18)' "$OUT" >"$sent"
	MODES=$(jq -r .mode "$sent" | sort | xargs)
	expect_eq "$(jq -r .tpid "$sent" | sort -u)" "$SLEEP_PID" "the pid signalled"
	expect_eq "$(jq -r .pid "$sent" | sort -u)" "$SIGNALLER" "the pid that signalled"
}

@test "run_modes: inspect names the two places the records come from" {
	run "$BPFSDK" inspect "$OBJ"
	assert_success
	assert_line "  events: sent from different places, maybe alternative modes of the tool, which loads one (bpfsdk run attaches all; --program or --no-program chooses): kill_exit, tkill_exit (syscalls); sig_trace (signal)"
	run "$BPFSDK" inspect --json "$OBJ"
	assert_success
	expect_eq "$(jq -r '.maps[] | select(.name == "events") | .record.senders_by_place' <<<"$output")" \
		"kill_exit, tkill_exit (syscalls); sig_trace (signal)" "inspect --json"
	# one place, however many programs: no word (opensnoop's open and openat)
	run "$BPFSDK" inspect "$BUILD/bpf/opensnoop.bpf.o"
	refute_output --partial "sent from different places"
}

@test "run_modes: both modes attached: run says so, and a kill() shows once per mode" {
	signal
	grep -qxF -- "$HINT" "$ERR" || fail "no hint naming the modes in: $(cat "$ERR")"
	modes 2
	expect_eq "$MODES" "1 2" "modes of the records"
}

@test "run_modes: --no-program or --program keeps one mode: one record, no hint" {
	signal --no-program sig_trace
	modes 1
	expect_eq "$MODES" 1 "modes of the records"
	grep -q "^hint: map 'events'" "$ERR" && fail "a hint with one mode attached: $(cat "$ERR")"

	signal --program sig_trace
	modes 1
	expect_eq "$MODES" 2 "modes of the records"
	grep -q "^hint: map 'events'" "$ERR" && fail "a hint with one mode attached: $(cat "$ERR")"
	return 0
}
