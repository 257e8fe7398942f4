#!/usr/bin/env bats
# samples/kfunc: on a kernel with kprobes or fentry (the test VM), a file
# with a unique name is removed by a process of known pid, and each mode
# must show that pid, its command, the result and the exact name. On a
# kernel that allows neither (this project's host), the sample must say
# so in one line and exit 1.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/kfunc"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/kfunc.out"
	ERR="$BATS_TEST_TMPDIR/kfunc.err"
	TRACER=
}

teardown() {
	[ -z "$TRACER" ] || kill "$TRACER" 2>/dev/null || true
}

wait_for() {
	for _ in $(seq 150); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 15 s: $(cat "$2" 2>/dev/null)"
}

# Skip unless kfunc can trace with mode $1 here; the reason is its own
# error line.
need_mode() {
	run "$BIN" --mode "$1" --duration 0.1
	[ "$status" -eq 0 ] || skip "--mode $1 is not available on this kernel: $output"
}

start_tracer() {
	"$BIN" --duration 60 "$@" >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^kfunc: tracing do_unlinkat' "$ERR"
}

stop_tracer() {
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
}

# Remove a unique file with rm, and unlink a name that does not exist,
# and check both lines, in mode $1 (traced with $2).
check_unlink() {
	file="$BATS_TEST_TMPDIR/kfunc-$$-$RANDOM"
	missing="$BATS_TEST_TMPDIR/kfunc-missing-$$-$RANDOM"
	touch "$file"
	start_tracer --mode "$1"
	grep -q "with $2" "$ERR" || fail "not traced with $2"
	rm "$file" &
	pid=$!
	wait "$pid"
	# unlink(2) itself: rm -f may not even try a name that is not there.
	python3 -c 'import os, sys
try:
    os.unlink(sys.argv[1])
except FileNotFoundError:
    pass' "$missing" &
	pid2=$!
	wait "$pid2"
	stop_tracer
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"
	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PID COMM RET FILE"
	assert_equal "$(awk -v pid="$pid" '$1 == pid' "$OUT" | tr -s ' ')" "$pid rm 0 $file"
	assert_equal "$(awk -v pid="$pid2" '$1 == pid' "$OUT" | tr -s ' ')" "$pid2 python3 -ENOENT $missing"
	grep -Eq '^received ([1-9][0-9]*), shown \1, lost 0$' "$ERR" || fail "no summary"
}

@test "kfunc on a kernel that allows neither kprobes nor fentry: one line, exit 1" {
	run "$BIN" --duration 1
	[ "$status" -ne 0 ] || skip "this kernel allows kprobes or fentry: $(sed -n 's/^kfunc: tracing do_unlinkat with \([^,]*\).*/\1/p' <<<"$output")"
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^error: this kernel allows neither fentry \(.+\) nor kprobes \(.+\)$'
}

@test "kfunc --mode kprobe shows the file rm removed, its pid and the result" {
	need_mode kprobe
	check_unlink kprobe kprobe/kretprobe
}

@test "kfunc --mode fentry shows the file rm removed, its pid and the result" {
	need_mode fentry
	check_unlink fentry fentry/fexit
}

@test "kfunc --json --pid: only that process, the exact name" {
	need_mode auto
	file="$BATS_TEST_TMPDIR/"$'k"j\\son\t'"-$RANDOM"
	touch "$file"
	fifo="$BATS_TEST_TMPDIR/go"
	mkfifo "$fifo"
	bash -c 'read -r _ <"$1"; exec rm "$2"' _ "$fifo" "$file" &
	target=$!
	start_tracer --json --pid "$target"
	rm -f "$BATS_TEST_TMPDIR/other-$RANDOM"
	echo go >"$fifo"
	wait "$target"
	stop_tracer
	assert_equal "$status" 0
	run python3 - "$OUT" "$target" "$file" <<'PY'
import json, sys
out, pid, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = [json.loads(l) for l in open(out)]
assert len(recs) == 1, recs
r = recs[0]
assert r["pid"] == pid and r["comm"] == "rm" and r["ret"] == 0 and r["file"] == name, r
print("json ok")
PY
	echo "$output"
	assert_success
	assert_output "json ok"
}

@test "kfunc --help documents every option and the columns" {
	run "$BIN" --help
	assert_success
	for word in --mode kprobe fentry auto --pid --comm --duration --json --object --verbose \
		    --help PID COMM RET FILE lost; do
		assert_output --partial -- "$word"
	done
}

@test "kfunc rejects bad options with exit 2 and one error line" {
	run "$BIN" --mode kretprobe
	assert_failure 2
	assert_output "error: --mode 'kretprobe' is not kprobe, fentry or auto"
	run "$BIN" --pid 0
	assert_failure 2
	assert_output "error: --pid '0' is not a process id"
	run "$BIN" extra
	assert_failure 2
	assert_output "error: unexpected argument 'extra' (try 'kfunc --help')"
}

@test "kfunc names a missing object and exits 1, in any mode" {
	for mode in auto kprobe fentry; do
		run "$BIN" --object /nonexistent/kfunc.bpf.o --mode $mode --duration 1
		assert_failure 1
		assert_output "error: cannot open '/nonexistent/kfunc.bpf.o': No such file or directory"
	done
}

@test "kfunc's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/kfunc -idirafter "/usr/include/$multiarch" \
			-c samples/kfunc/kfunc.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
