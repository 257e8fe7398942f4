#!/usr/bin/env bats
# bpf_printk() is a result too: `bpfsdk run` relays the trace pipe's lines
# when a program of the object calls bpf_trace_printk(), as for an object
# with no record map at all (tests/bpf/printk_only.bpf.c, libbpf-bootstrap's
# minimal); --no-trace-pipe leaves the pipe alone. The pipe is the whole
# system's: the test counts only its own writer's lines, and its writer
# writes 50 times so that a reader elsewhere that takes a few cannot make
# it fail.

load cli_common

setup() {
	cli_setup
	PIPE=/sys/kernel/tracing/trace_pipe
	[ -r "$PIPE" ] || PIPE=/sys/kernel/debug/tracing/trace_pipe
	[ -r "$PIPE" ] || skip "no readable trace pipe (tracefs not mounted)"
	[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] ||
		[ -d /sys/kernel/debug/tracing/events/syscalls/sys_enter_write ] ||
		skip "no syscalls/sys_enter_write tracepoint"
}

teardown() {
	cli_teardown
}

# start_writer: a shell that waits for "$GO", then writes to /dev/null 50
# times (echo is a builtin: the write is its own). Sets TRIGGER_PID.
start_writer() {
	rm -f "$GO"
	bash -c 'for _ in $(seq 1200); do [ -e "$1" ] && break; sleep 0.1; done
		for _ in $(seq 50); do echo w >/dev/null; sleep 0.02; done' _ "$GO" &
	TRIGGER_PID=$!
}

@test "trace pipe: run relays bpf_printk()'s lines of an object with no record map, and says the pipe is shared" {
	start_writer
	start_run --set target_pid=$TRIGGER_PID --duration 60 "$OBJS/printk_only.bpf.o"
	go
	wait_lines 3 "printk_write: pid $TRIGGER_PID wrote"
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# the kernel's line: the task, its CPU and time, the event, the message (a task
	# whose name the kernel no longer keeps is '<...>', the kernel's own word)
	grep "printk_write: pid $TRIGGER_PID wrote" "$OUT" | head -3 | while read -r line; do
		[[ $line =~ ^trace_pipe:\ (bash|\<\.\.\.\>)-$TRIGGER_PID\ +\[[0-9]+\]\ .*[0-9]+\.[0-9]+:\ bpf_trace_printk:\ printk_write:\ pid\ $TRIGGER_PID\ wrote$ ]] ||
			fail "not a relayed bpf_printk line: '$line'"
	done
	grep -q "^note: relaying $PIPE, where bpf_printk() writes (--no-trace-pipe leaves it): the whole system shares it, so other BPF programs' lines show too, and another reader of it takes lines from this one$" "$ERR" ||
		fail "no note that the pipe is shared"
	grep -Eq "^trace_pipe: [0-9]+ lines? relayed" "$ERR" || fail "no count of the lines relayed"
	! grep -q "no records to print" "$ERR" || fail "said there is nothing to print"
}

@test "trace pipe: --format json gives each line as an object" {
	start_writer
	start_run --set target_pid=$TRIGGER_PID --duration 60 --format json "$OBJS/printk_only.bpf.o"
	go
	wait_lines 3 "printk_write: pid $TRIGGER_PID wrote"
	kill -INT "$RUN_PID"
	wait_run
	grep "printk_write: pid $TRIGGER_PID wrote" "$OUT" | head -1 |
		grep -Eq "^\{\"@trace_pipe\":\"(bash|<\.\.\.>)-$TRIGGER_PID +\[[0-9]+\] .*: bpf_trace_printk: printk_write: pid $TRIGGER_PID wrote\",\"@bpf_printk\":true\}$" ||
		fail "not a JSON line of the pipe"
}

@test "trace pipe: --no-trace-pipe leaves the pipe alone, and run says it has nothing to print" {
	start_writer
	start_run --no-trace-pipe --set target_pid=$TRIGGER_PID --duration 60 "$OBJS/printk_only.bpf.o"
	go
	# the writer's 50 writes, then a moment for lines to arrive if read
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	sleep 0.3
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -c <"$OUT")" 0 "bytes on stdout"
	grep -q "has no perf_event_array or ringbuf map: no records to print" "$ERR" ||
		fail "no word that nothing is printed"
	! grep -q "relaying" "$ERR" || fail "said it relays"
}

@test "trace pipe: inspect says where bpf_printk()'s lines go" {
	run "$BPFSDK" inspect "$OBJS/printk_only.bpf.o"
	assert_success
	assert_line "  bpf_printk: its lines go to $PIPE, which the whole system shares; 'bpfsdk run' relays them (--no-trace-pipe leaves them)"
	refute_output --partial "no records to print"
	run "$BPFSDK" inspect --json "$OBJS/printk_only.bpf.o"
	assert_success
	assert_output --partial "\"trace_pipe\": \"$PIPE\""
}
