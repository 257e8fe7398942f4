#!/usr/bin/env bats
# The attach policy of `bpfsdk run` (bsdk_obj_attach_all): every program
# that can be attached is, each one that cannot is left out with one
# warning line naming the object, the program and why; exit 1 only when
# nothing could be attached; --require-all makes any miss fatal. Load-only
# kinds (perf_event, socket, tc, classifier, xdp) load and are left out.

load cli_common
bats_require_minimum_version 1.5.0

setup() {
	cli_setup
	OBJ="$OBJS/attach_policy.bpf.o"
}

teardown() {
	cli_teardown
}

@test "policy: run attaches what it can, one warning per program left out, and streams" {
	start_trigger getppid 3
	start_run --set target_pid="$TRIGGER_PID" --count 3 "$OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 3 4
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
	done <"$OUT"
	o="'$OBJ'"
	for w in "on_missing' (section 'tracepoint/bpfsdk_no_such/tracepoint_here'): left out: tracepoint 'bpfsdk_no_such/tracepoint_here' does not exist on this kernel" \
		 "sock_all' (section 'socket'): left out: socket_filter programs have no attach point of their own: attach it to a socket" \
		 "tc_pass' (section 'tc'): left out: sched_cls programs have no attach point of their own" \
		 "cls_pass' (section 'classifier'): left out: sched_cls programs have no attach point of their own" \
		 "xdp_pass' (section 'xdp'): left out: xdp programs have no attach point of their own: attach it to a network interface" \
		 "on_readline' (section 'uretprobe/readline'): left out: the section names no binary" \
		 "on_any_uprobe' (section 'uprobe'): left out: the section names no binary"; do
		expect_eq "$(grep -cF "warning: $o: program '$w" "$ERR")" 1 "warning lines for '$w'"
	done
	# run gives a perf_event program a CPU-clock event of its own
	grep -q "program 'on_sample': sampling at 49 Hz on [0-9]* CPU" "$ERR" ||
		fail "the perf_event program was not attached to the CPU clock"
	expect_eq "$(grep -c '^warning:' "$ERR")" 7 "warning lines"
	expect_eq "$(grep -c '^error:' "$ERR")" 0 "error lines"
	grep -q '^streaming: 2 programs attached' "$ERR" || fail "not two programs attached"
}

@test "policy: --require-all makes the first miss fatal, before anything loads" {
	run timeout 30 "$BPFSDK" run -v --require-all --duration 1 "$OBJ"
	echo "$output"
	expect_eq "$status" 1 "exit status"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error lines"
	assert_line "error: '$OBJ': program 'on_missing' (section 'tracepoint/bpfsdk_no_such/tracepoint_here'): cannot attach: tracepoint 'bpfsdk_no_such/tracepoint_here' does not exist on this kernel"
	refute_output --partial "loaded ("
}

@test "policy: load-only programs are loaded, not attached" {
	# -v says what is loaded: the load-only kinds go through the verifier
	# when nothing leaves them out, as an API user's bsdk_obj_load() does
	run timeout 30 "$BUILD/bin/attach_load" "$OBJ"
	echo "$output"
	expect_eq "$status" 0 "exit status"
	for p in sock_all:socket_filter tc_pass:sched_cls cls_pass:sched_cls xdp_pass:xdp on_sample:perf_event; do
		assert_line "loaded ${p%%:*} ${p#*:}"
	done
}

@test "policy: exit 1 when no program could be attached" {
	run timeout 30 "$BPFSDK" run --duration 1 "$OBJS/attach_loadonly.bpf.o"
	echo "$output"
	expect_eq "$status" 1 "exit status"
	expect_eq "$(grep -c '^error:' <<<"$output")" 1 "error lines"
	assert_line "error: '$OBJS/attach_loadonly.bpf.o': no program this kernel can attach"
	assert_line --regexp "^warning: '.*attach_loadonly\.bpf\.o': program 'xdp_drop' \(section 'xdp'\): left out: "
}

@test "policy: inspect warns about what run will leave out, before anything loads" {
	run "$BPFSDK" inspect "$OBJ"
	assert_success
	assert_line "warnings: 7"
	assert_line "  program 'on_missing' (section 'tracepoint/bpfsdk_no_such/tracepoint_here'): 'bpfsdk run' will leave it out: tracepoint 'bpfsdk_no_such/tracepoint_here' does not exist on this kernel"
	assert_line --regexp "^  program 'on_readline' \(section 'uretprobe/readline'\): 'bpfsdk run' will leave it out: the section names no binary"
	assert_line --regexp "^  program 'xdp_pass' \(section 'xdp'\): 'bpfsdk run' will leave it out: xdp programs have no attach point of their own"
	refute_line --regexp "^  program 'on_getppid' .*will leave it out"
	# run samples a perf_event program with a CPU-clock event of its own
	refute_line --regexp "^  program 'on_sample' .*will leave it out"
}

@test "policy: inspect --json reports a failure as a JSON object on stdout" {
	run --separate-stderr "$BPFSDK" inspect --json "$OBJS/cli_badsec.bpf.o"
	expect_eq "$status" 1 "exit status"
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert set(d) == {"object", "error"}, d
assert d["object"].endswith("cli_badsec.bpf.o"), d
assert "unknown section name" in d["error"] and "tracepiont/" in d["error"], d
' "$output" || fail "stdout is not the error document: $output"
	expect_eq "$(grep -c '^error:' <<<"$stderr")" 1 "error lines on stderr"
}
