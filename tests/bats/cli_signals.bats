#!/usr/bin/env bats
# bpfsdk run stops on Ctrl-C (SIGINT) and SIGTERM at any moment, not only
# while it streams: cli_slow.bpf.o has eight programs the verifier takes a
# long time over, so a signal sent soon after the start arrives during the
# load. run must end promptly (timeout's -k sends SIGKILL when it does not,
# which fails the status check) with 130 or 143, and leave no pin, program
# or link behind. Pins the run did not make stay.

load cli_common

PIN=/sys/fs/bpf/cli_slow_pinned

setup() {
	cli_setup
	rm -f "$PIN"
}

teardown() {
	rm -f "$PIN" /sys/fs/bpf/bsdk_test_pinned
	cli_teardown
}

# no_slow_progs: none of cli_slow's programs is loaded any more (the kernel
# frees a program shortly after its last fd closes: wait up to 5 s).
no_slow_progs() {
	local i
	for i in $(seq 50); do
		bpftool prog show | grep -q 'name slow[0-7] ' || return 0
		sleep 0.1
	done
	bpftool prog show | grep 'name slow[0-7] '
	return 1
}

# interrupt SIG DELAY: run cli_slow.bpf.o, send SIG after DELAY seconds;
# sets status from run itself (--preserve-status).
interrupt() {
	run timeout --preserve-status -k 3 -s "$1" "$2" "$BPFSDK" run "$OBJS/cli_slow.bpf.o"
}

@test "signals: SIGINT during a slow load ends run with 130, no pin, no program left" {
	interrupt INT 0.3
	echo "$output"
	expect_eq "$status" 130 "exit status"
	[ ! -e "$PIN" ] || fail "the pin $PIN was left behind"
	no_slow_progs || fail "programs of cli_slow.bpf.o are still loaded"
	refute_output --partial "rejected"
	refute_output --partial "error:"
}

@test "signals: SIGTERM during a slow load ends run with 143, no pin, no program left" {
	interrupt TERM 0.5
	expect_eq "$status" 143 "exit status"
	[ ! -e "$PIN" ] || fail "the pin $PIN was left behind"
	no_slow_progs || fail "programs of cli_slow.bpf.o are still loaded"
}

@test "signals: SIGINT 3 s into the verification of an unbounded loop ends run with 130, no pin, no program left" {
	local pin=/sys/fs/bpf/verifier_unbounded_sum i
	rm -f "$pin"
	# the verifier walks for seconds before it gives up: the signal comes
	# during its first run or the one with a log, and neither goes on
	run timeout --preserve-status -k 3 -s INT 3 "$BPFSDK" run "$OBJS/verifier_unbounded.bpf.o"
	expect_eq "$status" 130 "exit status"
	refute_output --partial "error:"
	[ ! -e "$pin" ] || fail "the pin $pin was left behind"
	for i in $(seq 50); do
		bpftool prog show | grep -q 'name unbounded ' || return 0
		sleep 0.1
	done
	fail "the program 'unbounded' is still loaded"
}

@test "signals: SIGINT at several moments of open, load and attach" {
	for delay in 0.01 0.05 0.2 1 1.5 2.5; do
		interrupt INT "$delay"
		# 0 when it came late enough to stop the streaming
		[ "$status" = 130 ] || [ "$status" = 0 ] ||
			fail "SIGINT after $delay s: status $status, not 130 or 0: $output"
		[ ! -e "$PIN" ] || fail "SIGINT after $delay s: the pin $PIN was left behind"
	done
	no_slow_progs || fail "programs of cli_slow.bpf.o are still loaded"
}

@test "signals: SIGINT while streaming ends run with 0 and removes the pin it made" {
	start_run "$OBJS/cli_slow.bpf.o"
	[ -e "$PIN" ] || fail "run did not pin $PIN"
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# its only map holds results: no stream, so no received/lost line
	! grep -q '^received' "$ERR" || fail "a summary for an object that streams nothing: $(cat "$ERR")"
	[ ! -e "$PIN" ] || fail "the pin $PIN was left behind"
	no_slow_progs || fail "programs of cli_slow.bpf.o are still loaded"
}

@test "signals: a pin run reused stays when it stops" {
	bpftool map create /sys/fs/bpf/bsdk_test_pinned type array key 4 value 8 \
		entries 1 name bsdk_test_pinned
	start_run "$OBJS/obj_pin.bpf.o"
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	grep -q "reusing the map pinned at '/sys/fs/bpf/bsdk_test_pinned'" "$ERR" ||
		fail "no line saying the pin was reused"
	[ -e /sys/fs/bpf/bsdk_test_pinned ] || fail "the pin run reused was removed"
}
