#!/usr/bin/env bats
# samples/uprobe on the running kernel: the test program calls a function
# with known arguments, bash reads known lines, and the sample must show
# exactly those calls, return values and lines.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/uprobe"
	TARGET="$BUILD/bin/uprobe_target"
	[ -x "$BIN" ] && [ -x "$TARGET" ] || fail "$BIN or $TARGET is not built (run make)"
	FUNC="$TARGET:uprobe_target_mix"
	OUT="$BATS_TEST_TMPDIR/uprobe.out"
	ERR="$BATS_TEST_TMPDIR/uprobe.err"
	TRACER=
}

teardown() {
	[ -z "$TRACER" ] || kill "$TRACER" 2>/dev/null || true
}

wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

start_tracer() {
	"$BIN" --duration 60 "$@" >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^uprobe: tracing ' "$ERR"
}

stop_tracer() {
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
}

# The lines of pid $1 without their latency column, blanks squeezed.
calls_of() {
	awk -v pid="$1" '$1 == pid { $3 = ""; print }' "$OUT" | tr -s ' '
}

@test "uprobe --func shows each call's arguments and return value" {
	start_tracer --func "$FUNC"
	"$TARGET" 3 4 5 2 >/dev/null &
	one=$!
	wait "$one"
	"$TARGET" -7 6 -1 >/dev/null &
	two=$!
	wait "$two"
	stop_tracer
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"

	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PID COMM LAT(us) CALL"
	assert_equal "$(calls_of "$one")" \
"$one uprobe_target uprobe_target_mix(3, 4, 5) = 17
$one uprobe_target uprobe_target_mix(4, 4, 5) = 21"
	assert_equal "$(calls_of "$two")" "$two uprobe_target uprobe_target_mix(-7, 6, -1) = -43"
	# The latency is a number of microseconds.
	awk -v pid="$one" '$1 == pid && $3 !~ /^[0-9]+\.[0-9]+$/ { exit 1 }' "$OUT" ||
		fail "a LAT(us) that is not a number"
	grep -Eq '^received 3, shown 3, lost 0$' "$ERR" || fail "not 3 records in the summary"
}

@test "uprobe --func --json --args 2: as many calls as the program made, exact" {
	start_tracer --func "$FUNC" --json --args 2
	"$TARGET" 100 -3 1 50 >/dev/null &
	pid=$!
	wait "$pid"
	stop_tracer
	assert_equal "$status" 0
	run python3 - "$OUT" "$pid" <<'PY'
import json, sys
out, pid = sys.argv[1], int(sys.argv[2])
calls = [d for d in map(json.loads, open(out)) if d["pid"] == pid]
assert len(calls) == 50, len(calls)
for i, d in enumerate(calls):
    assert d["func"] == "uprobe_target_mix" and d["comm"] == "uprobe_target", d
    assert d["args"] == [100 + i, -3], (i, d["args"])
    assert d["ret"] == (100 + i) * -3 + 1, (i, d["ret"])
    assert d["duration_ns"] > 0, d
print("calls ok")
PY
	echo "$output"
	assert_success
	assert_output "calls ok"
}

@test "uprobe shows the lines an interactive bash reads" {
	command -v bash >/dev/null || skip "no bash"
	tag="line-$$-$RANDOM"
	start_tracer
	# bash uses readline only on a terminal: give it a pseudo-terminal
	# and type three lines into it.
	run python3 - "$tag" <<'PY'
import os, pty, select, sys, time
tag = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
def drain(t):
    end = time.time() + t
    while time.time() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                os.read(fd, 4096)
            except OSError:
                return
for line in ["echo " + tag, "true '" + tag + "  two spaces'", "exit"]:
    drain(0.5)
    os.write(fd, (line + "\n").encode())
drain(1)
os.waitpid(pid, 0)
print(pid)
PY
	assert_success
	bash_pid=$output
	stop_tracer
	assert_equal "$status" 0
	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PID COMM LINE"
	assert_equal "$(awk -v pid="$bash_pid" '$1 == pid' "$OUT" | cut -c26-)" \
"echo $tag
true '$tag  two spaces'
exit"
	assert_equal "$(awk -v pid="$bash_pid" '$1 == pid { print $2 }' "$OUT" | sort -u)" "bash"
}

@test "uprobe --pid shows only that process's calls" {
	fifo="$BATS_TEST_TMPDIR/go"
	mkfifo "$fifo"
	bash -c 'read -r _ <"$1"; exec "$2" 11 2 0' _ "$fifo" "$TARGET" >/dev/null &
	target=$!
	start_tracer --func "$FUNC" --pid "$target"
	"$TARGET" 22 2 0 >/dev/null
	echo go >"$fifo"
	wait "$target"
	stop_tracer
	assert_equal "$status" 0
	assert_equal "$(sed 1d "$OUT" | awk '{ $3 = ""; print }' | tr -s ' ')" \
		"$target uprobe_target uprobe_target_mix(11, 2, 0) = 22"
}

@test "uprobe names a function that is not in the binary and exits 1" {
	run "$BIN" --func "$TARGET:no_such_function" --duration 1
	assert_failure 1
	assert_output --partial "cannot find function 'no_such_function' in '$TARGET'"
	run "$BIN" --func "/nonexistent/prog:main" --duration 1
	assert_failure 1
	assert_output --partial "/nonexistent/prog"
}

@test "uprobe in a pipe: head ends it quietly with status 0" {
	( for _ in $(seq 300); do "$TARGET" 1 1 1 >/dev/null; sleep 0.1; done ) &
	loop=$!
	run bash -c "set -o pipefail; '$BIN' --func '$FUNC' --duration 30 2>'$ERR' | head -3"
	kill "$loop" 2>/dev/null || true
	assert_success
	assert_equal "${#lines[@]}" 3
	! grep -q '^error' "$ERR" || fail "an error on stderr: $(cat "$ERR")"
}

@test "uprobe --help documents every option and the columns" {
	run "$BIN" --help
	assert_success
	for word in --func --args --bash --pid --comm --duration --json --object --verbose \
		    --help PID COMM LINE 'LAT(us)' CALL lost; do
		assert_output --partial -- "$word"
	done
}

@test "uprobe rejects bad options with exit 2 and one error line" {
	run "$BIN" --func nocolon
	assert_failure 2
	assert_output "error: --func 'nocolon' is not PATH:SYMBOL"
	run "$BIN" --args 6
	assert_failure 2
	assert_output "error: --args '6' is not a number from 0 to 5"
	run "$BIN" --pid -3
	assert_failure 2
	assert_output "error: --pid '-3' is not a process id"
	run "$BIN" extra
	assert_failure 2
	assert_output "error: unexpected argument 'extra' (try 'uprobe --help')"
}

@test "uprobe names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/uprobe.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/uprobe.bpf.o'"
}

@test "uprobe --object loads that file instead of the object built in" {
	run "$BIN" --object "$BUILD/bpf/uprobe.bpf.o" --duration 0.5
	assert_success
	# Not an object at all: the error names the file, so it was read.
	printf 'not ELF' >"$BATS_TEST_TMPDIR/bad.o"
	run "$BIN" --object "$BATS_TEST_TMPDIR/bad.o" --duration 0.5
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.o"
}

@test "uprobe's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/uprobe -idirafter "/usr/include/$multiarch" \
			-c samples/uprobe/uprobe.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
