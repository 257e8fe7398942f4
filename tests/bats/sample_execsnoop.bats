#!/usr/bin/env bats
# samples/execsnoop on the running kernel: processes with known pids exec
# known command lines, and each line must show that pid, its parent, the
# result and the exact arguments.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/execsnoop"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/exec.out"
	ERR="$BATS_TEST_TMPDIR/exec.err"
	SNOOP=
	TAG="x$$-$RANDOM"	# in every argv we check: only ours match
}

teardown() {
	[ -z "$SNOOP" ] || kill "$SNOOP" 2>/dev/null || true
}

wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

start_snoop() {
	"$BIN" --duration 60 "$@" >"$OUT" 2>"$ERR" 3>&- &
	SNOOP=$!
	wait_for '^execsnoop: tracing execve' "$ERR"
}

stop_snoop() {
	kill -INT "$SNOOP"
	status=0
	wait "$SNOOP" || status=$?
	SNOOP=
	echo "--- stdout"; grep -- "$TAG" "$OUT" | head -50; echo "--- stderr"; cat "$ERR"
}

# The line of pid $1 whose arguments hold $TAG, blanks squeezed.
line_of() {
	awk -v pid="$1" -v tag="$TAG" '$2 == pid && index($0, tag)' "$OUT" | tr -s ' '
}

@test "execsnoop shows an exec of a known command line with its pid, parent and exact argv" {
	start_snoop
	/bin/echo "$TAG" "two words" '' last >/dev/null &
	pid=$!
	wait "$pid"
	stop_snoop
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"

	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PCOMM PID PPID RET ARGS"
	line=$(awk -v pid="$pid" '$2 == pid' "$OUT")
	assert_equal "$(echo "$line" | awk '{ print $1, $2, $3, $4 }')" "echo $pid $BASHPID 0"
	# ARGS starts at column 42; spaces join the arguments, so the empty
	# one shows as two blanks.
	assert_equal "$(echo "$line" | cut -c42-)" "/bin/echo $TAG two words  last"
	grep -Eq '^received ([1-9][0-9]*), shown \1, lost [0-9]+$' "$ERR" ||
		fail "no 'received N, shown N, lost L' line on stderr"
}

@test "execsnoop --json gives the argv as an exact array" {
	start_snoop --json
	/bin/echo "$TAG" "two words" '' $'tab\there' 'quote"back\slash' $'\xff' >/dev/null &
	pid=$!
	wait "$pid"
	stop_snoop
	assert_equal "$status" 0
	run python3 - "$OUT" "$pid" "$BASHPID" "$TAG" <<'PY'
import json, os, sys
out, pid, ppid, tag = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
want = [b"/bin/echo", tag.encode(), b"two words", b"", b"tab\there",
        b'quote"back\\slash', b"\xff"]
found = [json.loads(l) for l in open(out, encoding="utf-8") if json.loads(l)["pid"] == pid]
assert len(found) == 1, found
d = found[0]
assert [os.fsencode(a) for a in d["args"]] == want, d["args"]
assert d["ppid"] == ppid and d["ret"] == 0 and d["comm"] == "echo", d
assert d["truncated"] is False, d
print("json ok")
PY
	echo "$output"
	assert_success
	assert_output "json ok"
}

@test "execsnoop -x shows only the failed exec, with its error" {
	start_snoop -x
	/bin/true "$TAG" ok &
	good=$!
	wait "$good"
	"/nonexistent-$TAG/cmd" "$TAG" arg 2>/dev/null &
	bad=$!
	wait "$bad" || true
	stop_snoop
	assert_equal "$status" 0
	assert_equal "$(line_of "$bad" | cut -d' ' -f2-)" \
		"$bad $BASHPID -ENOENT /nonexistent-$TAG/cmd $TAG arg"
	assert_equal "$(line_of "$good")" ""
	# Nothing but failures at all.
	assert_equal "$(awk 'NR > 1 && $4 == "0"' "$OUT")" ""
}

@test "execsnoop shows the first 2560 bytes of a command line that ran, and says it cut" {
	long=$(printf 'L%.0s' $(seq 100))
	start_snoop --json
	/bin/true "$TAG" $(seq 2 30) &
	many=$!
	wait "$many"
	/bin/true "$TAG" $(for i in $(seq 30); do echo "$i$long"; done) &
	cut=$!
	wait "$cut"
	stop_snoop
	assert_equal "$status" 0
	run python3 - "$OUT" "$many" "$cut" "$TAG" "$long" <<'PY'
import json, sys
out, many, cut, tag, long = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rec = {d["pid"]: d for d in map(json.loads, open(out))}
m, c = rec[many], rec[cut]
assert m["args"] == ["/bin/true", tag] + [str(i) for i in range(2, 31)], m["args"]
assert m["truncated"] is False, m
# The kernel's copy, cut at 2560 bytes, its last byte made a NUL.
block = b"\0".join(a.encode() for a in ["/bin/true", tag] + [f"{i}{long}" for i in range(1, 31)]) + b"\0"
want = (block[:2559] + b"\0").split(b"\0")[:-1]
assert [a.encode() for a in c["args"]] == want, c["args"]
assert c["truncated"] is True, c
print("bounds ok")
PY
	echo "$output"
	assert_success
	assert_output "bounds ok"
}

@test "execsnoop keeps 20 arguments of 127 bytes of an exec that failed" {
	long=$(printf 'L%.0s' $(seq 200))
	start_snoop --json -x
	"/nonexistent-$TAG/cmd" $(seq 2 30) 2>/dev/null &
	many=$!
	wait "$many" || true
	"/nonexistent-$TAG/cmd" "$long" 2>/dev/null &
	cut=$!
	wait "$cut" || true
	stop_snoop
	assert_equal "$status" 0
	run python3 - "$OUT" "$many" "$cut" "$TAG" <<'PY'
import json, sys
out, many, cut, tag = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rec = {d["pid"]: d for d in map(json.loads, open(out))}
m, c = rec[many], rec[cut]
assert m["ret"] == -2 and c["ret"] == -2, (m, c)
assert m["args"] == [f"/nonexistent-{tag}/cmd"] + [str(i) for i in range(2, 21)], m["args"]
assert m["truncated"] is True, m
assert c["args"] == [f"/nonexistent-{tag}/cmd", "L" * 127], c["args"]
assert c["truncated"] is True, c
print("bounds ok")
PY
	echo "$output"
	assert_success
	assert_output "bounds ok"
}

@test "execsnoop --pid shows that process and its children only" {
	fifo="$BATS_TEST_TMPDIR/go"
	mkfifo "$fifo"
	bash -c 'read -r _ <"$1"; /bin/true "$2" child; exec /bin/true "$2" self' _ "$fifo" "$TAG" &
	target=$!
	start_snoop --pid "$target"
	/bin/true "$TAG" outsider &
	wait $!
	echo go >"$fifo"
	wait "$target"
	stop_snoop
	assert_equal "$status" 0
	assert_equal "$(grep -c -- "$TAG" "$OUT")" 2
	grep -q -- "$TAG child" "$OUT" || fail "the child's exec is missing"
	assert_equal "$(line_of "$target")" "true $target $BASHPID 0 /bin/true $TAG self"
	! grep -q outsider "$OUT" || fail "an exec outside --pid $target shows"
}

@test "execsnoop -T adds the wall clock" {
	start_snoop -T
	/bin/true "$TAG" &
	wait $!
	stop_snoop
	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "TIME PCOMM PID PPID RET ARGS"
	grep -- "$TAG" "$OUT" | grep -Eq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] +true ' ||
		fail "no HH:MM:SS true line"
}

@test "execsnoop in a pipe: head ends it quietly with status 0" {
	( for _ in $(seq 300); do /bin/true "$TAG"; sleep 0.02; done ) &
	loop=$!
	run bash -c "set -o pipefail; '$BIN' --duration 30 2>'$ERR' | head -3"
	kill "$loop" 2>/dev/null || true
	assert_success
	assert_equal "${#lines[@]}" 3
	! grep -q '^error' "$ERR" || fail "an error on stderr: $(cat "$ERR")"
}

@test "execsnoop --help documents every option and the columns" {
	run "$BIN" --help
	assert_success
	for word in --pid --comm --fails --time --duration --json --object --verbose --help \
		    PCOMM PID PPID RET ARGS lost; do
		assert_output --partial -- "$word"
	done
}

@test "execsnoop rejects bad options with exit 2 and one error line" {
	run "$BIN" --pid 0
	assert_failure 2
	assert_output "error: --pid '0' is not a process id"
	run "$BIN" --comm averyveryverylongname
	assert_failure 2
	assert_output "error: --comm 'averyveryverylongname' is not a command name of 1 to 15 characters"
	run "$BIN" -q
	assert_failure 2
	assert_output "error: unknown option '-q' (try 'execsnoop --help')"
	run "$BIN" --duration
	assert_failure 2
	assert_output "error: option '--duration' needs a value (try 'execsnoop --help')"
}

@test "execsnoop names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/execsnoop.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/execsnoop.bpf.o'"
}

@test "execsnoop --object loads that file instead of the object built in" {
	run "$BIN" --object "$BUILD/bpf/execsnoop.bpf.o" --duration 0.5
	assert_success
	# Not an object at all: the error names the file, so it was read.
	printf 'not ELF' >"$BATS_TEST_TMPDIR/bad.o"
	run "$BIN" --object "$BATS_TEST_TMPDIR/bad.o" --duration 0.5
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.o"
}

@test "execsnoop's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/execsnoop -idirafter "/usr/include/$multiarch" \
			-c samples/execsnoop/execsnoop.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
