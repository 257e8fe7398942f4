#!/usr/bin/env bats
# samples/opensnoop on the running kernel: a process with a known pid opens
# a file with a unique name, and its line must show that pid, its command
# name, the result and the exact path.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/opensnoop"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/snoop.out"
	ERR="$BATS_TEST_TMPDIR/snoop.err"
	SNOOP=
	OPENERS=()
}

teardown() {
	[ -z "$SNOOP" ] || kill "$SNOOP" 2>/dev/null || true
	for p in "${OPENERS[@]}"; do kill "$p" 2>/dev/null || true; done
}

# Wait up to 10 s for a line matching $1 in file $2.
wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

# opensnoop in the background, once it says it is tracing.
start_snoop() {
	# 3>&-: bats waits for whatever holds its fd 3 open.
	"$BIN" --duration 30 "$@" >"$OUT" 2>"$ERR" 3>&- &
	SNOOP=$!
	wait_for '^opensnoop: tracing openat' "$ERR"
}

# Ctrl-C, then its exit status in $status.
stop_snoop() {
	kill -INT "$SNOOP"
	status=0
	wait "$SNOOP" || status=$?
	SNOOP=
	echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
}

# A python3 process that opens each of its arguments (missing ones too) when
# it gets SIGUSR1, then exits: its pid is known before it opens anything,
# which --pid needs. It blocks the signal before saying "ready", so the
# signal cannot kill it early. Its pid is appended to OPENERS.
start_opener() {
	local ready="$BATS_TEST_TMPDIR/opener.${#OPENERS[@]}"
	python3 -c '
import signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
print("ready", flush=True)
signal.sigwait([signal.SIGUSR1])
for path in sys.argv[1:]:
    try:
        open(path).close()
    except OSError:
        pass
' "$@" >"$ready" 3>&- &
	OPENERS+=($!)
	wait_for '^ready$' "$ready"
}

# The line of the table for pid $1 and path $2 (paths here have no spaces),
# blanks squeezed, the file descriptor - whatever number the process got -
# replaced by "FD".
line_for() {
	awk -v pid="$1" -v path="$2" '$1 == pid && $NF == path' "$OUT" |
		tr -s ' ' | sed 's/^\([0-9]* [^ ]*\) [0-9][0-9]* /\1 FD /'
}

@test "opensnoop shows a known process opening a unique path, and -ENOENT for a missing one" {
	file="$BATS_TEST_TMPDIR/opensnoop-$$-$RANDOM.txt"
	missing="$BATS_TEST_TMPDIR/opensnoop-missing-$$-$RANDOM"
	echo hello >"$file"
	start_snoop
	cat "$file" >/dev/null &
	pid=$!
	wait "$pid"
	cat "$missing" 2>/dev/null &
	pid2=$!
	wait "$pid2" || true
	stop_snoop
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"

	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PID COMM FD/ERR FLAGS PATH"
	assert_equal "$(line_for "$pid" "$file")" "$pid cat FD RDONLY $file"
	assert_equal "$(line_for "$pid2" "$missing")" "$pid2 cat -ENOENT RDONLY $missing"
	# The summary accounts for everything: shown == received, nothing bad.
	grep -Eq '^received ([1-9][0-9]*), shown \1, lost [0-9]+$' "$ERR" ||
		fail "no 'received N, shown N, lost L' line on stderr"
	! grep -q '^error' "$ERR" || fail "an error on stderr"
}

@test "opensnoop --pid shows only that process" {
	mine="$BATS_TEST_TMPDIR/mine-$RANDOM"
	theirs="$BATS_TEST_TMPDIR/theirs-$RANDOM"
	start_opener "$mine"
	target=${OPENERS[0]}
	start_opener "$theirs"
	other=${OPENERS[1]}
	start_snoop --pid "$target"
	kill -USR1 "$target" "$other"
	wait "$target" "$other"
	stop_snoop
	assert_equal "$status" 0

	assert_equal "$(line_for "$target" "$mine")" "$target python3 -ENOENT RDONLY|CLOEXEC $mine"
	grep -q -- "$theirs" "$OUT" && fail "pid $other's path shows despite --pid $target"
	# Every line but the header is the target's.
	others=$(awk -v pid="$target" 'NR > 1 && $1 != pid' "$OUT")
	assert_equal "$others" ""
}

@test "opensnoop --name shows only that command" {
	file="$BATS_TEST_TMPDIR/named-$RANDOM"
	echo hello >"$file"
	start_snoop --name cat
	head -c1 "$file" >/dev/null
	cat "$file" >/dev/null &
	pid=$!
	wait "$pid"
	stop_snoop
	assert_equal "$status" 0

	assert_equal "$(line_for "$pid" "$file")" "$pid cat FD RDONLY $file"
	# head opened the same file: filtered out, like every non-cat line.
	others=$(awk 'NR > 1 && $2 != "cat"' "$OUT")
	assert_equal "$others" ""
	# What --name filtered out was received all the same.
	read -r received shown < <(sed -n 's/^received \([0-9]*\), shown \([0-9]*\), lost [0-9]*$/\1 \2/p' "$ERR")
	[ "$received" -ge "$shown" ] || fail "received $received < shown $shown"
}

@test "opensnoop --json prints one valid object per line with the exact path" {
	# Quotes, a backslash, a tab and a byte that is not UTF-8: all must
	# come out as valid JSON that decodes to the very same bytes.
	file="$BATS_TEST_TMPDIR/"$'j"s\\t\tx\xff'"-$RANDOM"
	echo hello >"$file"
	start_snoop --json
	cat "$file" >/dev/null &
	pid=$!
	wait "$pid"
	stop_snoop
	assert_equal "$status" 0
	run python3 - "$OUT" "$pid" "$file" <<'PY'
import json, os, sys
out, pid, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
found = 0
with open(out, encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        try:
            d = json.loads(line)
        except ValueError as e:
            sys.exit(f"line {n} is not JSON ({e}): {line!r}")
        for key in ("ts_ns", "pid", "tid", "uid", "comm", "ret", "flags", "dfd", "path"):
            if key not in d:
                sys.exit(f"line {n} lacks {key}: {line!r}")
        if d["pid"] == pid and d["path"] is not None and \
           os.fsencode(d["path"]) == os.fsencode(path):
            assert d["comm"] == "cat", d
            assert d["ret"] >= 0, d
            assert d["flags_str"] == "RDONLY", d
            found += 1
if found != 1:
    sys.exit(f"expected 1 record of pid {pid} for {path!r}, found {found}")
print("json ok")
PY
	echo "$output"
	assert_success
	assert_output "json ok"
}

@test "opensnoop --help documents every option and the columns" {
	run "$BIN" --help
	assert_success
	for word in --pid --name --duration --json --object --verbose --help \
		    PID COMM FD/ERR FLAGS PATH lost; do
		assert_output --partial -- "$word"
	done
}

@test "opensnoop rejects bad options with exit 2 and one error line" {
	run "$BIN" --pdi 1
	assert_failure 2
	assert_output "error: unknown option '--pdi' (try 'opensnoop --help')"
	run "$BIN" --pid abc
	assert_failure 2
	assert_output "error: --pid 'abc' is not a process id"
	run "$BIN" --pid 0
	assert_failure 2
	assert_output "error: --pid '0' is not a process id"
	run "$BIN" --name averyveryverylongname
	assert_failure 2
	assert_output "error: --name 'averyveryverylongname' is not a command name of 1 to 15 characters"
	run "$BIN" --duration -1
	assert_failure 2
	assert_output "error: --duration '-1' is not a number of seconds between 0 and 86400"
	run "$BIN" --pid
	assert_failure 2
	assert_output "error: option '--pid' needs a value (try 'opensnoop --help')"
	run "$BIN" extra
	assert_failure 2
	assert_output "error: unexpected argument 'extra' (try 'opensnoop --help')"
}

@test "opensnoop names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/opensnoop.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/opensnoop.bpf.o'"
}

@test "opensnoop's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	src=samples/opensnoop/opensnoop.bpf.c
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/opensnoop -idirafter "/usr/include/$multiarch" \
			-c "$src" -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere: $(cat "$BATS_TEST_TMPDIR/out.d")"
	done
}

@test "opensnoop's events map carries the record type in BTF" {
	command -v bpftool >/dev/null || skip "bpftool is not installed"
	run bpftool btf dump file "$BUILD/bpf/opensnoop.bpf.o"
	assert_success
	assert_output --regexp "DECL_TAG 'bpfsdk.record:opensnoop_event'"
	assert_output --regexp "STRUCT 'opensnoop_event' size=4152"
}
