#!/usr/bin/env bats
# bpfsdk run when something is wrong with the object or the kernel says no:
# exit status 1, one "error:" line that names what and where, never a
# signal; and the verifier's reason with the C source line when the kernel
# rejects a program.

load cli_common

setup() {
	cli_setup
}

teardown() {
	cli_teardown
}

# run_bpfsdk ARGS...: run bpfsdk with a time limit, merging its output.
run_bpfsdk() {
	run timeout 30 "$BPFSDK" "$@"
	echo "status $status, output:"
	echo "$output"
	[ "$status" -lt 124 ] || fail "status $status: a signal or the time limit ended bpfsdk"
}

# expect_one_error STATUS REGEXP: exactly that status, and the whole
# output one line, the error, matching REGEXP.
expect_one_error() {
	expect_eq "$status" "$1" "exit status"
	expect_eq "${#lines[@]}" 1 "lines of output"
	[[ ${lines[0]} =~ ^error:\  ]] || fail "'${lines[0]}' does not start with 'error: '"
	[[ ${lines[0]} =~ $2 ]] || fail "'${lines[0]}' does not match '$2'"
}

@test "errors: a missing file" {
	run_bpfsdk run "$BATS_TEST_TMPDIR/no-such.bpf.o"
	expect_one_error 1 "'$BATS_TEST_TMPDIR/no-such.bpf.o'.*No such file"
}

@test "errors: a file that is not ELF" {
	printf 'not an object\n' >"$BATS_TEST_TMPDIR/text.o"
	run_bpfsdk run "$BATS_TEST_TMPDIR/text.o"
	expect_one_error 1 "'$BATS_TEST_TMPDIR/text.o'"
}

@test "errors: an empty file" {
	: >"$BATS_TEST_TMPDIR/empty.o"
	run_bpfsdk run "$BATS_TEST_TMPDIR/empty.o"
	expect_one_error 1 "'$BATS_TEST_TMPDIR/empty.o'"
}

@test "errors: an object cut short" {
	head -c 300 "$OBJS/cli_globals.bpf.o" >"$BATS_TEST_TMPDIR/cut.o"
	run_bpfsdk run "$BATS_TEST_TMPDIR/cut.o"
	expect_one_error 1 "'$BATS_TEST_TMPDIR/cut.o'"
	run_bpfsdk inspect "$BATS_TEST_TMPDIR/cut.o"
	expect_one_error 1 "'$BATS_TEST_TMPDIR/cut.o'"
}

@test "errors: a directory" {
	run_bpfsdk run "$BATS_TEST_TMPDIR"
	expect_one_error 1 "'$BATS_TEST_TMPDIR'"
}

@test "errors: a section name no loader knows names the section and the prefixes" {
	run_bpfsdk run "$OBJS/cli_badsec.bpf.o"
	expect_one_error 1 "section 'tracepiont/syscalls/sys_enter_getppid'.*tracepoint/"
	run_bpfsdk inspect "$OBJS/cli_badsec.bpf.o"
	expect_one_error 1 "section 'tracepiont/syscalls/sys_enter_getppid'"
}

@test "errors: --require-all takes a perf_event program: run attaches it to the CPU clock" {
	run_bpfsdk run -v --require-all --freq 99 --duration 0.3 "$OBJS/cli_perf_event.bpf.o"
	expect_eq "$status" 0 "exit status"
	assert_output --regexp "program 'on_sample': sampling at 99 Hz on [0-9]+ CPUs? \(CPU clock\)"
	refute_output --partial "error:"
}

@test "errors: the verifier's reason and the C source line of a rejected program" {
	run_bpfsdk run --duration 1 "$OBJS/cli_reject.bpf.o"
	expect_eq "$status" 1 "exit status"
	src=tests/bpf/cli_reject.bpf.c
	lineno=$(grep -n 'sizeof(buf) + 8' "$src" | cut -d: -f1)
	[ -n "$lineno" ] || fail "no 'sizeof(buf) + 8' line in $src"
	# the program is left out with one warning: the kernel's words for
	# reading stack the program never wrote, then the C line as its detail;
	# nothing else loaded is the one error
	assert_line --index 0 --regexp "^warning: '.*cli_reject\.bpf\.o': program 'read_past_buffer' \(section '[^']+'\): left out: rejected by the verifier: invalid (indirect )?read from stack"
	assert_line --index 1 --regexp "^  the verifier stopped at .*cli_reject\.bpf\.c:$lineno \(instruction [0-9]+\): bpf_perf_event_output\(ctx, &events, BPF_F_CURRENT_CPU, buf, sizeof\(buf\) \+ 8\);$"
	assert_line --index 2 --regexp "^error: '.*cli_reject\.bpf\.o': the verifier rejected every program"
	expect_eq "${#lines[@]}" 3 "lines"
	refute_output --partial 'received'
}

@test "errors: with --require-all a rejection is the error: the end of the verifier's log and the C line" {
	run_bpfsdk run --require-all --duration 1 "$OBJS/cli_reject.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_output --regexp 'invalid (indirect )?read from stack'
	# one error, told in lines: the first names the program, the rest are
	# indented (the end of the verifier's log, then where it stopped)
	assert_line --index 0 --regexp "^error: program 'read_past_buffer' \(section '[^']+'\): rejected by the verifier; (the end of )?its log:$"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error: lines"
	refute_output --regexp $'(^|\n)[^ e]'
	src=tests/bpf/cli_reject.bpf.c
	lineno=$(grep -n 'sizeof(buf) + 8' "$src" | cut -d: -f1)
	assert_line --index $((${#lines[@]} - 1)) --regexp "^  the verifier stopped at .*cli_reject\.bpf\.c:$lineno \(instruction [0-9]+\): bpf_perf_event_output\(ctx, &events, BPF_F_CURRENT_CPU, buf, sizeof\(buf\) \+ 8\);$"
	refute_output --partial 'received'
}

@test "errors: a loop the verifier cannot bound: one run with a log, its end, the C line and the hint" {
	command -v strace >/dev/null || skip "strace is not installed (make setup)"
	# LeakSanitizer cannot run under ptrace: under make test-asan-cli the
	# leak check stays off for this one traced run (ASan's other checks stay)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	run strace -f -qq -e trace=bpf -e signal=none -o "$BATS_TEST_TMPDIR/trace" \
		"$BPFSDK" run --require-all --duration 1 "$OBJS/verifier_unbounded.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 "error: program 'unbounded' (section 'tracepoint/syscalls/sys_enter_getppid'): rejected by the verifier; the end of its log:"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error: lines"
	assert_output --partial "BPF program is too large. Processed 1000001 insn"
	# where it stopped: inside the loop, the header or the body
	assert_line --regexp "^  the verifier stopped at .*verifier_unbounded\.bpf\.c:3[01] \(instruction [0-9]+\): (for \(__u32 i = 0; i < n; i\+\+\)|sum \+= i \* 3;)$"
	# the hint names what this kernel has instead
	assert_line --regexp "^  hint: a loop the verifier cannot bound \(it stopped after 1000000 instructions\): give it a constant bound, or use (bpf_loop\(\) or bpf_for\(\), which this kernel has|bpf_loop\(\), which this kernel has \(not bpf_for\(\): Linux 6\.4\+\)|nothing else: this kernel has neither bpf_loop\(\) nor bpf_for\(\)|bpf_loop\(\) \(Linux 5\.17\+\) or bpf_for\(\) \(Linux 6\.4\+\))$"
	# no tab reaches the log (a terminal-safe log shows one as '?')
	refute_output --partial "?sum"
	refute_output --partial "?for"
	# the verifier ran twice: once without a log, once with one
	runs=$(grep -c 'BPF_PROG_LOAD, {prog_type=BPF_PROG_TYPE_TRACEPOINT' "$BATS_TEST_TMPDIR/trace")
	logged=$(grep 'BPF_PROG_LOAD, {prog_type=BPF_PROG_TYPE_TRACEPOINT' "$BATS_TEST_TMPDIR/trace" | grep -c 'log_level=1')
	expect_eq "$runs $logged" "2 1" "verifier runs, of which with a log"
}

@test "errors: the library's own stderr log tells a rejection as one error: line and its detail" {
	# attach_load leaves the library's default log in place, as samples do
	run "$BUILD/bin/attach_load" "$OBJS/cli_reject.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 --regexp "^error: program 'read_past_buffer' \(section '[^']+'\): rejected by the verifier"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error: lines"
	assert_line --regexp '^  the verifier stopped at .*cli_reject\.bpf\.c:[0-9]+ \(instruction [0-9]+\): '
}

@test "errors: a GPL-only helper under a proprietary license: the kernel's reason" {
	run_bpfsdk run --duration 1 "$OBJS/cli_proprietary.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_output --partial 'GPL'
	assert_line --regexp "^warning: '.*': program 'gpl_helper_without_gpl' \(section '[^']+'\): left out: rejected by the verifier: .*GPL"
	assert_line "  fix: declare char LICENSE[] SEC(\"license\") = \"GPL\"; ('Proprietary' is not GPL-compatible, and bpf_perf_event_output() is GPL-only)"
}

@test "errors: no license and a GPL-only helper: run prints the line that fixes it" {
	run_bpfsdk run --duration 1 "$OBJS/mistake_no_license.bpf.o"
	expect_eq "$status" 1 "exit status"
	# left out with the verifier's reason, the fix among its detail lines
	assert_line --index 0 "warning: '$OBJS/mistake_no_license.bpf.o': program 'send_pid' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: cannot call GPL-restricted function from non-GPL compatible program"
	assert_line "  fix: declare char LICENSE[] SEC(\"license\") = \"GPL\"; (the object has no license section, and bpf_perf_event_output() is GPL-only)"
	# with --require-all, the error with the end of the log
	run_bpfsdk run --require-all --duration 1 "$OBJS/mistake_no_license.bpf.o"
	expect_eq "$status" 1 "exit status"
	# all of a short log, the end of a longer one (older kernels say more)
	assert_line --index 0 --regexp "^error: program 'send_pid' \(section 'tracepoint/syscalls/sys_enter_getppid'\): rejected by the verifier; (the end of )?its log:$"
	assert_line "  cannot call GPL-restricted function from non-GPL compatible program"
	assert_line --index $((${#lines[@]} - 1)) "  fix: declare char LICENSE[] SEC(\"license\") = \"GPL\"; (the object has no license section, and bpf_perf_event_output() is GPL-only)"
}

@test "errors: --set of a variable the object does not have" {
	run_bpfsdk run --set no_such_var=1 "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "no global variable 'no_such_var'"
}

@test "errors: --set values are range-checked against the variable's size" {
	# target_pid is a __u32: 0 .. 2^32-1, or -2^31 .. -1 as a signed view
	run_bpfsdk run --set target_pid=4294967296 "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "4294967296 does not fit into the variable's 4 bytes"
	run_bpfsdk run --set target_pid=0x1ffffffff "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "0x1ffffffff does not fit"
	run_bpfsdk run --set target_pid=-2147483649 "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "-2147483649 does not fit"
	# the bounds themselves are fine: the run starts and ends on time
	for v in 4294967295 0xffffffff -2147483648 -1 0; do
		run_bpfsdk run --set target_pid=$v --duration 0.2 "$OBJS/cli_globals.bpf.o"
		expect_eq "$status" 0 "exit status for --set target_pid=$v"
		assert_line "received 0, lost 0"
	done
}

@test "errors: a --set that is not NAME=VALUE or not a number" {
	run_bpfsdk run --set target_pid "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "--set 'target_pid' is not NAME=VALUE"
	run_bpfsdk run --set target_pid=12abc "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "'12abc' is not a decimal or 0x hexadecimal integer"
	run_bpfsdk run --set =5 "$OBJS/cli_globals.bpf.o"
	expect_one_error 2 "is not NAME=VALUE"
}

# ---- a newcomer's maps: the error names the map type and the kernel's rule

@test "errors: a ring buffer of 100000 bytes: the type by name, the rule, a size that would do" {
	# the test VM has no getconf
	pagesize=$(getconf PAGESIZE 2>/dev/null || python3 -c 'import resource; print(resource.getpagesize())')
	run_bpfsdk run --duration 1 "$OBJS/mistake_ringbuf_size.bpf.o"
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "error: map 'mistake_events': the kernel refused to create it (ringbuf, key 0, value 0, max_entries 100000): Invalid argument
  a ring buffer's size (max_entries) is a power of two and a multiple of the page size ($pagesize bytes): 100000 is not; 131072 would do" "output"
}

@test "errors: an array keyed by 8 bytes: an array's key is its 4-byte index" {
	run_bpfsdk run --duration 1 "$OBJS/mistake_array_key.bpf.o"
	expect_eq "$status" 1 "exit status"
	expect_eq "$output" "error: map 'mistake_counts': the kernel refused to create it (array, key 8, value 8, max_entries 64): Invalid argument
  an array's key is its index, 4 bytes (__u32): this key is 8 bytes" "output"
}

@test "errors: the library loading a map of max_entries 0 says to give it a size" {
	run "$BUILD/bin/attach_load" "$OBJS/mistake_no_max_entries.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line "error: map 'mistake_by_pid': the kernel refused to create it (hash, key 4, value 8, max_entries 0): Invalid argument"
	assert_line "  max_entries is 0: give the map a size (__uint(max_entries, N)), or set it before load (bsdk_map_set_max_entries()) when the tool sizes it"
}

@test "errors: an object built at -O0 is named as such, with the flag that fixes it" {
	run_bpfsdk run --duration 1 "$OBJS/mistake_O0.bpf.o"
	expect_eq "$status" 1 "exit status"
	# left out with the verifier's reason, the fix under it
	assert_line "warning: '$OBJS/mistake_O0.bpf.o': program 'unoptimised' (section 'tracepoint/syscalls/sys_enter_getppid'): left out: rejected by the verifier: unknown opcode 8d"
	assert_line --regexp "^  fix: instruction [0-9]+ is an indirect call \(callx, opcode 0x8d\), which clang writes for helper calls in an object built without optimisation \(-O0\): build with -O2$"
	# with --require-all, the error: the end of the log, the fix last
	run_bpfsdk run --require-all --duration 1 "$OBJS/mistake_O0.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line "error: program 'unoptimised' (section 'tracepoint/syscalls/sys_enter_getppid'): rejected by the verifier; its log:"
	assert_line "  unknown opcode 8d"
	assert_line --index $((${#lines[@]} - 1)) --regexp "^  fix: instruction [0-9]+ is an indirect call \(callx, opcode 0x8d\), which clang writes for helper calls in an object built without optimisation \(-O0\): build with -O2$"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error: lines"
}

@test "errors: a knob declared const, not const volatile: inspect warns, --set on it is an error" {
	run_bpfsdk inspect "$OBJS/mistake_const_knob.bpf.o"
	assert_success
	assert_line "  global 'target_tgid' in .rodata: no instruction reads it, so --set and a skeleton change nothing: the compiler folded a \`const\` into the code; declare it \`const volatile\`"
	refute_output --partial "global 'min_tgid'"
	run_bpfsdk run --set target_tgid=1 --duration 0.5 "$OBJS/mistake_const_knob.bpf.o"
	expect_eq "$status" 2 "exit status"
	expect_eq "$output" "error: --set target_tgid: no instruction reads 'target_tgid', so setting it changes nothing: the compiler folded a \`const\` into the code; declare it \`const volatile\`" "output"
	# the const volatile knob beside it takes --set
	run_bpfsdk run --set min_tgid=1 --duration 0.5 "$OBJS/mistake_const_knob.bpf.o"
	expect_eq "$status" 0 "exit status of --set min_tgid=1"
}

# ---- names that do not exist: "did you mean"

@test "errors: a typo in a tracepoint's category or name: left out, with the tracepoint meant" {
	[ -d /sys/kernel/tracing/events/syscalls ] || [ -d /sys/kernel/debug/tracing/events/syscalls ] ||
		skip "no syscalls tracepoints on this kernel"
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_tracepoint_typo.bpf.o"
	expect_eq "$status" 0 "exit status"
	assert_line "warning: '$OBJS/mistake_tracepoint_typo.bpf.o': program 'typo_category' (section 'tracepoint/syscall/sys_enter_getppid'): left out: tracepoint 'syscall/sys_enter_getppid' does not exist on this kernel; did you mean 'syscalls/sys_enter_getppid'?"
	assert_line "warning: '$OBJS/mistake_tracepoint_typo.bpf.o': program 'typo_name' (section 'tracepoint/syscalls/sys_enter_getppdi'): left out: tracepoint 'syscalls/sys_enter_getppdi' does not exist on this kernel; did you mean 'syscalls/sys_enter_getppid'?"
}

@test "errors: --maps, --set and --type names the object lacks: did you mean, and the maps there are" {
	run_bpfsdk run --duration 0.5 --maps call "$OBJS/cli_btfmaps.bpf.o"
	expect_eq "$status" 2 "exit status of --maps call"
	expect_eq "$output" "error: --maps call: '$OBJS/cli_btfmaps.bpf.o' has no map 'call'; did you mean 'calls'? (its maps: .rodata, calls, events)" "--maps"
	run_bpfsdk run --duration 0.5 --set target_pi=1 "$OBJS/cli_globals.bpf.o"
	expect_eq "$status" 2 "exit status of --set"
	expect_eq "$output" "error: --set target_pi: '$OBJS/cli_globals.bpf.o' has no global variable 'target_pi' in .rodata, .data or .bss; did you mean 'target_pid'?" "--set"
	run_bpfsdk run --duration 0.5 --format json --type trace_output_evnt "$OBJS/../trace_output.bpf.o"
	expect_eq "$status" 2 "exit status of --type"
	assert_line --partial "has no type 'trace_output_evnt'; did you mean 'trace_output_event'?"
}

@test "errors: the C line a rejection quotes shows its tabs as spaces, not '?'" {
	run_bpfsdk run --duration 0.5 "$OBJS/mistake_tab_line.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --regexp "^  the verifier stopped at .*mistake_tab_line\.bpf\.c:24 \(instruction [0-9]+\): bpf_perf_event_output\(ctx, &mistake_tab_events, 0, +buf, sizeof\(buf\) \+ 8\); +/\* 8 too many \*/$"
	refute_output --partial "?"
}
