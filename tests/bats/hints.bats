#!/usr/bin/env bats
# A newcomer's mistakes, one BPF source each (tests/bpf/mistake_*.bpf.c):
# each gets the line that explains it and the hint that fixes it, word for
# word.

load cli_common

setup() {
	cli_setup
}

teardown() {
	cli_teardown
}

# run_bpfsdk ARGS...: run bpfsdk with a time limit, merging its output.
run_bpfsdk() {
	run timeout 60 "$BPFSDK" "$@"
	echo "status $status, output:"
	echo "$output"
	[ "$status" -lt 124 ] || fail "status $status: a signal or the time limit ended bpfsdk"
}

# The offer of a loop hint: what this kernel has of bpf_loop() and bpf_for().
LOOP_OFFER='(bpf_loop\(\) or bpf_for\(\), which this kernel has|bpf_loop\(\), which this kernel has \(not bpf_for\(\): Linux 6\.4\+\)|nothing else: this kernel has neither bpf_loop\(\) nor bpf_for\(\)|bpf_loop\(\) \(Linux 5\.17\+\) or bpf_for\(\) \(Linux 6\.4\+\))'

# ---- verifier rejections: the line that explains them, and the fix

@test "hints: bpf_ringbuf_reserve() on a perf event array: both map types by name" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_ringbuf_perf.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 "warning: '$OBJS/mistake_ringbuf_perf.bpf.o': program 'reserve_on_perf' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: cannot pass map_type 4 into func bpf_ringbuf_reserve#131"
	assert_line "  hint: bpf_ringbuf_reserve() needs a BPF_MAP_TYPE_RINGBUF map; the map passed is a BPF_MAP_TYPE_PERF_EVENT_ARRAY (map_type 4): declare it __uint(type, BPF_MAP_TYPE_RINGBUF), or send to it with bpf_perf_event_output()"
}

@test "hints: a lookup's pointer used without a NULL check" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_null_check.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 "warning: '$OBJS/mistake_null_check.bpf.o': program 'no_null_check' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: R0 invalid mem access 'map_value_or_null'"
	assert_line --regexp "^  the verifier stopped at .*mistake_null_check\.bpf\.c:[0-9]+ \(instruction [0-9]+\): \*count \+= 1;$"
	assert_line "  hint: the pointer bpf_map_lookup_elem() returned may be NULL: check it before using it (if (!p) return 0;)"
}

@test "hints: a read past a map value is headlined by the kernel's line that explains it" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_map_oob.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 "warning: '$OBJS/mistake_map_oob.bpf.o': program 'read_past_value' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: invalid access to map value, value_size=4 off=28 size=4"
	refute_output --partial "min value is outside"
}

@test "hints: a branch in every iteration: too many jumps, bpf_loop()/bpf_for() or fewer iterations" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_jumps.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 --regexp "^warning: '.*mistake_jumps\.bpf\.o': program 'many_jumps' \(section '[^']+'\): left out: rejected by the verifier: The sequence of [0-9]+ jumps is too complex\.$"
	assert_line --regexp "^  hint: the verifier keeps a state for every branch it has yet to explore and gives up at 8192; a loop with a branch in each iteration makes one per iteration: use $LOOP_OFFER, or fewer iterations$"
}

@test "hints: a loop with a large constant bound is not told to give it a constant bound" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_big_loop.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 "warning: '$OBJS/mistake_big_loop.bpf.o': program 'big_loop' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: BPF program is too large. Processed 1000001 insn"
	assert_line --regexp "^  hint: the verifier walks a loop one iteration at a time and stopped after 1000000 instructions: this loop's constant bound \(300000\) is too many to walk; use $LOOP_OFFER, or fewer iterations$"
	refute_output --partial "give it a constant bound"
}
