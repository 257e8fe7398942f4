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
	# inspect sees it without loading: no map of the type the helper takes
	run_bpfsdk inspect "$OBJS/mistake_ringbuf_perf.bpf.o"
	assert_success
	assert_line "warnings: 1"
	assert_line "  program 'reserve_on_perf' calls bpf_ringbuf_reserve(), which takes a BPF_MAP_TYPE_RINGBUF map, and the object has none: the verifier will refuse the call"
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

# ---- names that do not exist: "did you mean", by one matcher

@test "hints: a misspelled SEC() prefix: the section meant" {
	run_bpfsdk run "$OBJS/cli_badsec.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_output --regexp "^error: '.*cli_badsec\.bpf\.o': section 'tracepiont/syscalls/sys_enter_getppid' \(program 'misspelled_section'\): unknown section name; did you mean 'tracepoint/syscalls/sys_enter_getppid'\? accepted prefixes: tracepoint/CAT/NAME, "
}

@test "hints: a tracepoint section without its category: the SEC() meant" {
	[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] ||
		skip "no syscalls/sys_enter_write tracepoint on this kernel"
	run_bpfsdk run --duration 0.3 "$OBJS/mistake_sec_forms.bpf.o"
	assert_line "warning: '$OBJS/mistake_sec_forms.bpf.o': program 'no_category' (section 'tp/sys_enter_write'): left out: tracepoint 'sys_enter_write' is not of the form CATEGORY/NAME; did you mean SEC(\"tp/syscalls/sys_enter_write\")?"
}

@test "hints: an fentry target the kernel does not have: the function meant, from its BTF" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	run_bpfsdk run --duration 0.3 "$OBJS/mistake_fentry_typo.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line "warning: '$OBJS/mistake_fentry_typo.bpf.o': program 'unlink_typo' (section 'fentry/do_unlinkatt'): left out: fentry target 'do_unlinkatt' is not in the kernel's BTF (no function 'do_unlinkatt'); did you mean 'do_unlinkat'?"
}

@test "hints: a CO-RE field the kernel's type lacks: the member meant" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	run_bpfsdk run --duration 0.3 "$OBJS/mistake_co_re_field.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --regexp "^  instruction [0-9]+ is CO-RE relocation 0 \(field_byte_offset task_struct\.start_tme, access '0:0'\) at .*mistake_co_re_field\.bpf\.c:[0-9]+, which the kernel's BTF cannot satisfy: 1 kernel type named 'task_struct', none matches: it has no member 'start_tme'; did you mean 'start_time'\?$"
}

@test "hints: a helper nothing declares: named as such with the helper meant; inspect warns and shows the object" {
	run_bpfsdk run --duration 0.3 "$OBJS/mistake_undeclared_helper.bpf.o"
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "error: program 'mistyped_helper': instruction 0 calls 'bpf_get_current_pid', which is no BPF helper and which nothing declares; did you mean bpf_get_current_pid_tgid()?" "output"
	refute_output --partial "__ksym"
	run_bpfsdk inspect "$OBJS/mistake_undeclared_helper.bpf.o"
	assert_success
	assert_line "  program 'mistyped_helper' calls 'bpf_get_current_pid' (instruction 0), which is no BPF helper and which nothing declares: it will not load; did you mean bpf_get_current_pid_tgid()?"
	assert_line --regexp "^ +0 +undeclared +bpf_get_current_pid +nothing: not loadable$"
	run_bpfsdk inspect --json "$OBJS/mistake_undeclared_helper.bpf.o"
	assert_success
	assert_output --partial '"kind": "undeclared"'
}

@test "hints: fentry refused with EPERM to a user that may load BPF: what the kernel shows, the kinds it takes" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	run_bpfsdk run --duration 0.3 "$OBJS/mistake_fentry_eperm.bpf.o"
	if [ "$status" -eq 0 ]; then
		skip "this kernel attaches fentry programs"
	fi
	assert_line --regexp "^warning: '.*mistake_fentry_eperm\.bpf\.o': program 'unlink_entry' \(section 'fentry/do_unlinkat'\): left out: this kernel refuses fentry programs at 'do_unlinkat': Operation not permitted \(as a user the kernel lets load BPF; what it shows: .*; it takes (tp_btf/ and raw_tp/|raw_tp/) programs instead\)$"
	mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)
	[ -z "$mode" ] || assert_output --partial "lockdown is '$mode'"
}
