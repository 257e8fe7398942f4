#!/usr/bin/env bats
# One probe, one count on a kernel function: fentry, ksyscall and kprobe on
# getpgid()'s entry symbol (tests/bpf/twins_fn.bpf.c) are twins; run
# attaches fentry where the kernel takes it, the next kind when it is not
# there, and each call is counted once. Runs in the VM (tests/vm/suites),
# whose kernel has kprobes and fentry; on a kernel with neither (this
# host) all three are left out, each with its reason.

load cli_common
bats_require_minimum_version 1.5.0

setup() {
	cli_setup
	OBJ=$OBJS/twins_fn.bpf.o
	# getpgid()'s entry symbol, which twins_fn.bpf.c names by architecture
	case $(uname -m) in
	aarch64) SYS=__arm64_sys_getpgid ;;
	*) SYS=__x64_sys_getpgid ;;
	esac
}

teardown() {
	cli_teardown
}

# can_attach: the kernel takes both fentry and kprobes here (else skip,
# after the host's check of what it says).
can_attach() {
	run timeout 120 "$BPFSDK" inspect "$OBJ"
	if grep -q "will leave it out" <<<"$output"; then
		skip "this kernel cannot attach all three kinds: $(grep -m1 'will leave it out' <<<"$output")"
	fi
}

# count N RUN_ARGS...: run with target_pid the driver's, which makes N
# getpgid() calls once run streams; the slots of 'hits' as "KEY=VALUE ...".
count() {
	local n=$1
	shift
	start_trigger getpgid "$n" 1
	"$BPFSDK" run -v --format json --set target_pid="$TRIGGER_PID" "$@" "$OBJ" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	# TCG is slow: loading and attaching take a while in the VM
	wait_streaming "$ERR" "$RUN_PID" || true
	grep -q '^streaming:' "$ERR" || { cat "$ERR"; fail "bpfsdk run did not start streaming"; }
	go
	wait "$TRIGGER_PID" || fail "the driver failed"
	TRIGGER_PID=
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	HITS=$(jq -r 'select(."@map" == "hits") | "\(.key)=\(.value)"' "$OUT" | sort -n | xargs)
}

# fentry_refused: the kernel loaded the fentry program but refused to
# attach it (arm64 before 6.4 has no ftrace direct calls: ENOTSUPP), which
# inspect cannot foresee; the reason, or nothing.
fentry_refused() {
	grep -m1 "program '[a-z_]*fentry' (section 'fentry/$SYS'): left out: cannot attach" "$ERR"
}

@test "twins on a kernel function: fentry attached, ksyscall and kprobe left out, each call counted once" {
	can_attach
	count 9
	if why=$(fentry_refused); then
		# then its twin stands in, and still counts each call once
		expect_eq "$HITS" "1=9" "hits (0: fentry, 1: ksyscall, 2: kprobe) with fentry refused"
		grep -qF "program 'getpgid_ksyscall' (section 'ksyscall/getpgid'): stands in for its twin 'getpgid_fentry'" "$ERR" ||
			fail "no line saying ksyscall stands in for fentry"
		skip "this kernel cannot run it: $why (ksyscall stood in: checked)"
	fi
	expect_eq "$HITS" "0=9" "hits (0: fentry, 1: ksyscall, 2: kprobe)"
	for p in getpgid_ksyscall:ksyscall/getpgid getpgid_kprobe:kprobe/$SYS; do
		grep -qxF "'$OBJ': program '${p%%:*}' (section '${p#*:}'): left out: a twin of 'getpgid_fentry' (section 'fentry/$SYS'), which is used (--all-twins attaches every twin)" "$ERR" ||
			fail "no -v line for ${p%%:*}"
	done
	grep -q '^streaming: 1 program attached' "$ERR" || fail "not one program attached"
}

@test "twins on a kernel function: without fentry, ksyscall; without both, kprobe" {
	can_attach
	count 5 --no-program getpgid_fentry
	expect_eq "$HITS" "1=5" "hits without fentry"
	count 4 --no-program getpgid_fentry --no-program 'getpgid_k[s]*'
	expect_eq "$HITS" "2=4" "hits without fentry and ksyscall"
}

@test "twins on a kernel function: --all-twins counts every call three times, once per kind" {
	can_attach
	count 3 --all-twins
	if why=$(fentry_refused); then
		expect_eq "$HITS" "1=3 2=3" "hits with fentry refused"
		skip "this kernel cannot run it: $why (the two others counted: checked)"
	fi
	expect_eq "$HITS" "0=3 1=3 2=3" "hits"
}

@test "twins on a kernel function: a kernel with neither fentry nor kprobes leaves all three out, each with its reason" {
	run timeout 60 "$BPFSDK" run --duration 1 "$OBJ"
	echo "$output"
	[ "$status" -eq 1 ] || skip "this kernel attaches one of them (the tests above check which)"
	o="'$OBJ'"
	assert_line --regexp "^warning: $o: program 'getpgid_fentry' \(section 'fentry/$SYS'\): left out: "
	assert_line "warning: $o: program 'getpgid_ksyscall' (section 'ksyscall/getpgid'): left out: this kernel cannot attach ksyscall programs (no kprobe PMU)"
	assert_line "warning: $o: program 'getpgid_kprobe' (section 'kprobe/$SYS'): left out: this kernel cannot attach kprobe programs (no kprobe PMU)"
	assert_line "error: $o: no program this kernel can attach"
	expect_eq "${#lines[@]}" 4 "lines"
}

@test "entry and exit pairs: fentry with fexit; without fexit, kprobe with kretprobe - never kprobe with fexit" {
	OBJ=$OBJS/twins_pair.bpf.o
	can_attach
	count 4
	if why=$(fentry_refused); then
		skip "this kernel cannot run it: $why"
	fi
	expect_eq "$HITS" "0=4 1=4" "hits (0: fentry, 1: fexit, 2: kprobe, 3: kretprobe)"
	count 5 --no-program pair_fexit
	expect_eq "$HITS" "2=5 3=5" "hits without fexit: the kprobe goes with its kretprobe"
	grep -q "program 'pair_kprobe' (section 'kprobe/$SYS') goes with 'pair_kretprobe' (section 'kretprobe/$SYS'): entry and exit of one function sharing map 'starts', attached as one kind" "$ERR" ||
		fail "-v does not say why the kprobe was chosen over fentry: $(cat "$ERR")"
}
