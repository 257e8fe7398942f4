#!/usr/bin/env bats
# One probe, one count (bsdk_obj_attach_prepare() and the twins of
# loader/ext/policy/twins.c): programs that see the same event through different
# kinds of hook are attached once, the best kind this kernel takes; the
# verifier rejecting a program leaves it out and lets its twin stand in;
# --program/--no-program choose programs by name; maps sized 0 get run's
# default or --max-entries. Each object counts a driver's calls, made after
# run streams, in the slots of an array; run stops once the driver is
# done, and its JSON map view gives the counts.

load cli_common
bats_require_minimum_version 1.5.0

setup() {
	cli_setup
}

teardown() {
	cli_teardown
}

# count OBJ STEP... -- RUN_ARGS...: run OBJ with target_pid the driver's,
# the driver doing STEP..., stop run after it; the map entries in $OUT.
count() {
	local obj=$1 steps=()
	shift
	while [ "$1" != -- ]; do steps+=("$1"); shift; done
	shift
	start_trigger "${steps[@]}"
	start_run --format json --set target_pid="$TRIGGER_PID" "$@" "$obj"
	go
	wait "$TRIGGER_PID" || fail "the driver failed"
	DRIVER=$TRIGGER_PID TRIGGER_PID=
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
}

# has_line LINE: LINE is a line of run's messages.
has_line() {
	grep -qxF -- "$1" "$ERR" || fail "no line '$1' in: $(cat "$ERR")"
}

# entries MAP: "KEY=VALUE ..." of MAP's entries in $OUT, sorted by key.
entries() {
	jq -r --arg m "$1" 'select(."@map" == $m) | "\(.key)=\(.value)"' "$OUT" | sort -n | xargs
}

@test "twins: tp_btf, raw_tp and tracepoint on sys_enter: only tp_btf attached, each call counted once" {
	count "$OBJS/twins_tp.bpf.o" getppid 7 --
	expect_eq "$(entries hits)" "0=7" "hits (0: tp_btf, 1: raw_tp, 2: tracepoint)"
	o="'$OBJS/twins_tp.bpf.o'"
	has_line "$o: program 'enter_raw' (section 'raw_tp/sys_enter'): left out: a twin of 'enter_btf' (section 'tp_btf/sys_enter'), which is used (--all-twins attaches every twin)"
	has_line "$o: program 'enter_tp' (section 'tracepoint/raw_syscalls/sys_enter'): left out: a twin of 'enter_btf' (section 'tp_btf/sys_enter'), which is used (--all-twins attaches every twin)"
	grep -q '^streaming: 1 program attached' "$ERR" || fail "not one program attached"
	expect_eq "$(grep -c '^warning:' "$ERR")" 0 "warning lines"
}

@test "twins: --all-twins attaches every one: each counts every call" {
	count "$OBJS/twins_tp.bpf.o" getppid 5 -- --all-twins
	expect_eq "$(entries hits)" "0=5 1=5 2=5" "hits"
	grep -q '^streaming: 3 programs attached' "$ERR" || fail "not three programs attached"
	# (the object's name, twins_tp, is in -v's line about the checks)
	run grep -c 'twin' <(grep -v ': checking which of its' "$ERR")
	expect_eq "$output" 0 "lines about twins"
}

@test "twins: --no-program of the best leaves the next, raw_tp" {
	count "$OBJS/twins_tp.bpf.o" getppid 4 -- --no-program enter_btf
	expect_eq "$(entries hits)" "1=4" "hits"
	grep -qxF "'$OBJS/twins_tp.bpf.o': program 'enter_btf' (section 'tp_btf/sys_enter'): left out: --no-program 'enter_btf'" "$ERR" ||
		fail "no -v line for --no-program"
}

@test "twins: --program chooses by glob, --no-program takes away" {
	count "$OBJS/twins_tp.bpf.o" getppid 3 -- --program enter_tp
	expect_eq "$(entries hits)" "2=3" "hits with --program enter_tp"
	grep -qF "program 'enter_raw' (section 'raw_tp/sys_enter'): left out: no --program names it" "$ERR" ||
		fail "no -v line for a program no --program names"
	count "$OBJS/twins_tp.bpf.o" getppid 2 -- --program 'enter_[rt]*' --no-program '*_raw'
	expect_eq "$(entries hits)" "2=2" "hits with --program 'enter_[rt]*' --no-program '*_raw'"
}

@test "twins: usage errors for --program, --no-program and --max-entries: exit 2, one line" {
	for args in "--program=|--program needs a program name or a glob" \
		    "--program=on_[x|--program 'on_[x': the '[' at 4 has no ']'" \
		    "--no-program=nothing_*|--no-program 'nothing_*': no program of '$OBJS/twins_tp.bpf.o' has a name it matches; its programs: enter_btf enter_raw enter_tp" \
		    "--max-entries=hits|--max-entries 'hits' is not MAP=N" \
		    "--max-entries=hits=0|--max-entries hits: '0' is not a number of entries from 1 to 4294967295" \
		    "--max-entries=hits=4294967296|--max-entries hits: '4294967296' is not a number of entries from 1 to 4294967295" \
		    "--max-entries=nomap=5|--max-entries nomap: '$OBJS/twins_tp.bpf.o' has no map 'nomap'"; do
		run timeout 30 "$BPFSDK" run --duration 1 "${args%%|*}" "$OBJS/twins_tp.bpf.o"
		echo "$output"
		expect_eq "$status" 2 "exit status of ${args%%|*}"
		expect_eq "${#lines[@]}" 1 "lines of ${args%%|*}"
		[[ ${lines[0]} == "error: ${args#*|}"* ]] || fail "got '${lines[0]}', expected 'error: ${args#*|}'"
	done
}

@test "rejected: the program is left out with the verifier's reason and its C line, its twin stands in, the rest run" {
	count "$OBJS/twins_reject.bpf.o" getppid 6 getpgid 2 1 --
	# spare_raw (raw_tp) stood in for bad_btf (tp_btf); plain_tp counted too
	expect_eq "$(entries hits)" "1=6 2=6" "hits (1: spare_raw, 2: plain_tp)"
	o="'$OBJS/twins_reject.bpf.o'"
	src=tests/bpf/twins_reject.bpf.c
	for p in bad_btf:tp_btf/sys_enter bad_tp:tracepoint/syscalls/sys_enter_getpgid; do
		name=${p%%:*}
		grep -qE "^warning: $o: program '$name' \(section '${p#*:}'\): left out: rejected by the verifier: invalid (indirect )?write to stack" "$ERR" ||
			fail "no warning for $name"
		# the C line, as the warning's detail line right after it
		lineno=$(awk -v f="int $name(" 'index($0, f) { on = 1 } on && /sizeof\(comm\) \+ 8/ { print NR; exit }' "$src")
		grep -A1 "program '$name'" "$ERR" | grep -qE "^  the verifier stopped at .*twins_reject\.bpf\.c:$lineno \(instruction [0-9]+\): bpf_get_current_comm\(comm, sizeof\(comm\) \+ 8\);" ||
			fail "no C line $lineno under the warning for $name"
	done
	grep -qxF "$o: program 'spare_raw' (section 'raw_tp/sys_enter'): stands in for its twin 'bad_btf' (section 'tp_btf/sys_enter')" "$ERR" ||
		fail "no -v line for the stand-in"
	expect_eq "$(grep -c '^warning:' "$ERR")" 2 "warning lines"
	expect_eq "$(grep -c '^error:' "$ERR")" 0 "error lines"
	grep -q '^streaming: 2 programs attached' "$ERR" || fail "not two programs attached"
}

@test "rejected: --require-all keeps a rejection fatal; nothing loaded is exit 1" {
	run timeout 30 "$BPFSDK" run --require-all --duration 1 "$OBJS/twins_reject.bpf.o"
	echo "$output"
	expect_eq "$status" 1 "exit status"
	assert_line --index 0 --regexp "^error: program 'bad_btf' \(section 'tp_btf/sys_enter'\): rejected by the verifier; (the end of )?its log:$"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error lines"
	refute_output --partial streaming
	run timeout 30 "$BPFSDK" run --program 'bad_*' --duration 1 "$OBJS/twins_reject.bpf.o"
	echo "$output"
	expect_eq "$status" 1 "exit status"
	expect_eq "$(grep -c '^warning:.*left out: rejected by the verifier' <<<"$output")" 2 "warning lines"
	assert_line "error: '$OBJS/twins_reject.bpf.o': the verifier rejected every program (-vv shows the whole log)"
}

@test "max_entries 0: run's default, said with -v, and the program's updates land" {
	count "$OBJS/maps_zero.bpf.o" getppid 4 --
	expect_eq "$(entries zero_arr)" "5=4" "zero_arr (index 5)"
	expect_eq "$(entries zero_hash)" "$DRIVER=4" "zero_hash (the driver's pid)"
	for m in zero_arr zero_hash zero_stacks; do
		grep -qxF "map '$m': max_entries 0 in the object, left to the tool: 10240 (--max-entries $m=N to choose)" "$ERR" ||
			fail "no -v line for $m"
	done
	has_line "map 'zero_stacks': a stack trace map without a value size: 127 addresses of 8 bytes"
}

@test "max_entries 0: --max-entries MAP=N sizes it: an array of 5 has no index 5" {
	count "$OBJS/maps_zero.bpf.o" getppid 3 -- --max-entries zero_arr=5 --max-entries zero_hash=1
	expect_eq "$(entries zero_arr)" "" "zero_arr"
	expect_eq "$(jq -r 'select(."@map" == "zero_hash") | .value' "$OUT")" 3 "zero_hash's one entry"
	grep -qxF "map 'zero_arr': max_entries 5 (--max-entries)" "$ERR" || fail "no -v line for zero_arr"
	grep -qxF "map 'zero_stacks': max_entries 0 in the object, left to the tool: 10240 (--max-entries zero_stacks=N to choose)" "$ERR" ||
		fail "no -v line for zero_stacks"
}

@test "max_entries 0: the library alone says what to do" {
	run "$BUILD/bin/attach_load" "$OBJS/maps_zero.bpf.o"
	echo "$output"
	expect_eq "$status" 1 "exit status"
	assert_line "error: map 'zero_arr': the kernel refused to create it (array, key 4, value 8, max_entries 0): Invalid argument"
	assert_line "  max_entries is 0: give the map a size (__uint(max_entries, N)), or set it before load (bsdk_map_set_max_entries()) when the tool sizes it"
}

@test "inspect: the groups of twins, best kind first, in text and JSON" {
	run "$BPFSDK" inspect "$OBJS/twins_fn.bpf.o"
	assert_success
	assert_line "twins: 1 group (bpfsdk run attaches the first kind this kernel takes; --all-twins all)"
	assert_line "  getpgid_fentry (fentry/__x64_sys_getpgid) > getpgid_ksyscall (ksyscall/getpgid) > getpgid_kprobe (kprobe/__x64_sys_getpgid)"
	run "$BPFSDK" inspect --json "$OBJS/twins_tp.bpf.o"
	assert_success
	expect_eq "$(jq -c '[.programs[] | [.name, .twin_rank, .twins]]' <<<"$output")" \
		'[["enter_btf",0,["enter_raw","enter_tp"]],["enter_raw",1,["enter_btf","enter_tp"]],["enter_tp",2,["enter_btf","enter_raw"]]]' "programs' twins"
	# an object without twins says nothing of them
	run "$BPFSDK" inspect "$OBJS/maps_zero.bpf.o"
	assert_success
	refute_line --regexp "^twins:"
	run "$BPFSDK" inspect --json "$OBJS/maps_zero.bpf.o"
	expect_eq "$(jq -c '[.programs[] | has("twins")]' <<<"$output")" '[false]' "twins keys"
}

@test "inspect: a function's entry and exit group sharing a map are a pair, attached as one kind" {
	local f=fentry/__x64_sys_getpgid x=fexit/__x64_sys_getpgid
	local k=kprobe/__x64_sys_getpgid r=kretprobe/__x64_sys_getpgid
	[ "$(uname -m)" = aarch64 ] && f=${f/__x64/__arm64} x=${x/__x64/__arm64} k=${k/__x64/__arm64} r=${r/__x64/__arm64}
	run "$BPFSDK" inspect "$OBJS/twins_pair.bpf.o"
	assert_success
	expect_eq "$(sed -n '/^twins:/,/^maps:/p' <<<"$output" | sed '/^$/d;/^maps:/d')" "twins: 2 groups (bpfsdk run attaches the first kind this kernel takes; --all-twins all)
  pair_fentry ($f) > pair_kprobe ($k)
  pair_fexit ($x) > pair_kretprobe ($r)
entry and exit: 2 pairs sharing a map (bpfsdk run attaches both ends as one kind, the best the kernel takes for both)
  pair_fentry ($f) + pair_fexit ($x): map 'hits'
  pair_kprobe ($k) + pair_kretprobe ($r): map 'starts'" "twins and pairs"
	run "$BPFSDK" inspect --json "$OBJS/twins_pair.bpf.o"
	assert_success
	expect_eq "$(jq -c '[.programs[] | [.name, .twin_partner, .twin_partner_map]]' <<<"$output")" \
		'[["pair_fentry","pair_fexit","hits"],["pair_fexit","pair_fentry","hits"],["pair_kprobe","pair_kretprobe","starts"],["pair_kretprobe","pair_kprobe","starts"]]' \
		"partners"
	# an exit group with no entry beside it, and groups of entries alone, are no pairs
	run "$BPFSDK" inspect "$OBJS/twins_names.bpf.o"
	refute_line --partial "entry and exit:"
	run "$BPFSDK" inspect "$OBJS/twins_fn.bpf.o"
	refute_line --partial "entry and exit:"
}

@test "inspect: a pair found through subprograms (the map used only in functions the programs call), and a uprobe with its uretprobe" {
	local f=fentry/__x64_sys_getpgid x=fexit/__x64_sys_getpgid
	local k=kprobe/__x64_sys_getpgid r=kretprobe/__x64_sys_getpgid
	local u=uprobe/cli_trigger:cli_uprobe_hit ur=uretprobe/cli_trigger:cli_uprobe_hit
	[ "$(uname -m)" = aarch64 ] && f=${f/__x64/__arm64} x=${x/__x64/__arm64} k=${k/__x64/__arm64} r=${r/__x64/__arm64}
	run "$BPFSDK" inspect "$OBJS/twins_subprog.bpf.o"
	assert_success
	expect_eq "$(sed -n '/^entry and exit:/,/^$/p' <<<"$output" | sed '/^$/d')" \
		"entry and exit: 3 pairs sharing a map (bpfsdk run attaches both ends as one kind, the best the kernel takes for both)
  sub_fentry ($f) + sub_fexit ($x): map 'starts'
  sub_kprobe ($k) + sub_kretprobe ($r): map 'starts'
  sub_uprobe ($u) + sub_uretprobe ($ur): map 'starts'" "pairs"
	# a uprobe and its uretprobe are one kind each: a pair, never twins
	refute_line --partial "sub_uprobe ($u) >"
	run "$BPFSDK" inspect --json "$OBJS/twins_subprog.bpf.o"
	assert_success
	expect_eq "$(jq -c '[.programs[] | [.name, .twin_partner, .twin_partner_map]]' <<<"$output")" \
		'[["sub_fentry","sub_fexit","starts"],["sub_fexit","sub_fentry","starts"],["sub_kprobe","sub_kretprobe","starts"],["sub_kretprobe","sub_kprobe","starts"],["sub_uprobe","sub_uretprobe","starts"],["sub_uretprobe","sub_uprobe","starts"]]' \
		"partners"
}

@test "run: a uprobe and its uretprobe attach together, the pair's map filled at entry and emptied at return" {
	# the sections name the driver relative to the current directory
	cd "$(dirname "$TRIGGER")"
	count "$OBJS/twins_subprog.bpf.o" uprobe 3 1000 --
	expect_eq "$(entries done)" "0=3 1=3" "returns and entries seen"
	expect_eq "$(entries starts)" "" "entries left in 'starts'"
	grep -q '^streaming: 2 programs attached' "$ERR" || fail "not the two uprobes attached: $(cat "$ERR")"
}

@test "inspect: which section names are twins (a system call whatever its prefix; not a kprobe inside a function; one kind goes together)" {
	run "$BPFSDK" inspect "$OBJS/twins_names.bpf.o"
	assert_success
	expect_eq "$(sed -n '/^twins:/,/^$/p' <<<"$output" | sed '/^$/d')" "twins: 4 groups (bpfsdk run attaches the first kind this kernel takes; --all-twins all)
  open_fentry (fentry/__arm64_sys_openat) > open_ksyscall (ksyscall/openat) > open_kprobe (kprobe/__x64_sys_openat)
  write_fexit (fexit/vfs_write) > write_kretprobe (kretprobe/vfs_write)
  switch_btf (tp_btf/sched_switch) > switch_tp (tp/sched/sched_switch)
  wakeup_one (tp_btf/sched_wakeup) + wakeup_two (tp_btf/sched_wakeup) > wakeup_raw (raw_tp/sched_wakeup)" "twins section"
	run "$BPFSDK" inspect --json "$OBJS/twins_names.bpf.o"
	expect_eq "$(jq -c '[.programs[] | select(has("twins") | not) | .name]' <<<"$output")" \
		'["read_inside","read_fentry","enter_openat","enter_raw"]' "programs without twins"
}

@test "a kind this kernel refuses is learned once: one program load for six fentry programs, each named with its own function" {
	local obj="$OBJS/attach_refused.bpf.o" trace="$BATS_TEST_TMPDIR/trace" o
	command -v strace >/dev/null || skip "strace is not installed (make setup)"
	# LeakSanitizer cannot run under ptrace (make test-asan-cli): leak checks off here
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	run strace -f -qq -e trace=bpf -e signal=none -o "$trace" "$BPFSDK" run -v --duration 0.1 "$obj"
	grep -q "this kernel refuses fentry programs" <<<"$output" ||
		skip "this kernel does not refuse fentry as a kind: $(grep -m1 'left out' <<<"$output")"
	o="'$obj'"
	assert_failure 1
	assert_line "$o: this kernel refuses fentry programs (Operation not permitted): the object's others are not tried"
	for f in vfs_read vfs_write vfs_open do_unlinkat vfs_fsync vfs_getattr; do
		assert_line --regexp "^warning: $o: program 'on_[a-z]+' \(section 'fentry/$f'\): left out: this kernel refuses fentry programs at '$f': Operation not permitted( \(as a user the kernel lets load BPF; .*\))?$"
	done
	# the refusal's explanation (hints.bats) tries tp_btf and raw_tp once: only fentry loads count
	expect_eq "$(grep -c 'BPF_PROG_LOAD.*BPF_TRACE_FENTRY' "$trace")" 1 "fentry program loads (the one that learns the refusal)"
}

@test "-v: checks that take seconds say how far they are, and say nothing when they are quick" {
	local obj="$OBJS/twins_subprog.bpf.o"
	command -v strace >/dev/null || skip "strace is not installed (make setup)"
	run "$BPFSDK" run -v --duration 0.1 "$obj"
	refute_line --partial "programs checked"
	# the first six bpf() calls (kernel BTF read for the first program's check) held 0.3 s each
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	run strace -f -qq -o /dev/null -e trace=bpf -e signal=none -e inject=bpf:delay_exit=300000:when=1..6 \
		"$BPFSDK" run -v --duration 0.1 "$obj"
	assert_line --regexp "^'$obj': [1-6] of 6 programs checked$"
}
