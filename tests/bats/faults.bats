#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The fault walk (tests/faults/): a workflow is run once per failure point,
# with one allocation or system call failing each time, and must end by
# itself with exit 0, or 1 and one error: line, leaving nothing in the
# kernel, no pin, no file descriptor and no child behind. make test-faults
# walks every point; these walk a fixed stride of them, which still fails
# every kind of call (and bpf() command) at its first and last call.

setup() {
	BUILD=${BUILD:-build}
	WALK=$BUILD/tests/faults/walk
	SO=$BUILD/tests/preload/faultinject.so
	[ -x "$WALK" ] && [ -f "$SO" ] || {
		echo "$WALK or $SO is not built (make test-programs)" >&2
		return 1
	}
}

# walk_ok NAME STRIDE: tests/faults/run for workflow NAME, its output shown
# when it fails, its summary line checked.
walk_ok() {
	run tests/faults/run --stride "$2" "$1"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"walk $1: "*" points ("*"), 0 failed"* ]]
}

@test "faults: inspect of an object with subprograms survives every failing allocation (a failed link freed a pointer into the stack)" {
	run "$WALK" --name inspect-subprog "$SO" -- "$BUILD/bin/bpfsdk" inspect \
		"$BUILD/bpf/tests/cli_subprog.bpf.o"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"inspect-subprog: "*"(alloc "*"), 0 failed"* ]]
}

@test "faults: CO-RE object with externs, open to close, every 7th point" {
	walk_ok co_re 7
}

@test "faults: ring buffer object, open to close, every 7th point" {
	walk_ok ring 7
}

@test "faults: skeleton with globals and a pinned map, every 7th point (an unreadable online-CPU list left a CPU without its ring)" {
	walk_ok skel 7
}

@test "faults: bpfsdk run --format json with a map view, every 15th point" {
	walk_ok run 15
}

@test "faults: .data/.bss/.rodata and a map pinned by name, every 7th point (an unreadable online-CPU list left a CPU without its ring)" {
	walk_ok glob 7
}

@test "faults: USDT object on this driver's own probe, every 3rd point (a /sys read or link that failed was told as a kernel without uprobes or cookies)" {
	walk_ok usdt 3
}

@test "faults: bpfsdk inspect of the CO-RE object survives every 3rd point and prints what it printed, or says what failed (a kernel configuration that could not be read was shown as absent; a table that ran out of memory was left out)" {
	walk_ok inspect 3
}

@test "threads: 8 threads open, load, attach, stream, read maps and close their own objects, 5 rounds, each told only its own messages" {
	run "$BUILD/tests/threads/threads" "$BUILD/bpf/tests/threads.bpf.o" 8 5
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "ok: 8 threads x 5 rounds" ]
}

@test "faults: bpfsdk run --maps survives every other failing allocation (a copy of the --maps list that failed was split as if it were there)" {
	run tests/faults/run --kind alloc --stride 2 run
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"walk run: "*" points (alloc "*"), 0 failed"* ]]
}

# walk_kill PROGRAM: tests/faults/run --kill for one program.
walk_kill() {
	run tests/faults/run --kill "$1"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"kill $1: 20 moments ("*"), 0 failed"* ]]
}

@test "SIGKILL: bpfsdk run killed at 20 moments of open, load, attach and streaming leaves only its pin by name, which the next run reuses" {
	walk_kill run
}

@test "SIGKILL: trace_output killed at 20 moments leaves nothing in the kernel and no dd" {
	walk_kill trace_output
}

@test "SIGKILL: syscall_latency killed at 20 moments leaves nothing in the kernel" {
	walk_kill syscall_latency
}
