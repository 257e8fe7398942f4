#!/usr/bin/env bats
# samples/payload on the running kernel: a process with a known pid writes
# known bytes, and each record must carry exactly those bytes with their
# true length - records that wrap the ring end and lengths that are not
# multiples of 8 included.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/payload"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/payload.out"
	ERR="$BATS_TEST_TMPDIR/payload.err"
	TRACER=
	WORKER=
	# Under qemu's emulation (tests/vm/init sets BPFSDK_VM) fewer writes.
	WRITES=200
	[ -z "${BPFSDK_VM:-}" ] || WRITES=40
}

teardown() {
	[ -z "$TRACER" ] || kill "$TRACER" 2>/dev/null || true
	[ -z "$WORKER" ] || kill "$WORKER" 2>/dev/null || true
}

wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

# A python3 process that, on SIGUSR1, runs the statements $1 with fd open
# on /dev/null and pattern(n) giving n known bytes, then exits. Its pid, in
# WORKER, is known before it writes anything.
start_worker() {
	python3 -c '
import os, signal, sys, time
def pattern(n, seed=0):
    return bytes((seed + i * 7) % 251 for i in range(n))
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
fd = os.open("/dev/null", os.O_WRONLY)
print("ready", fd, flush=True)
signal.sigwait([signal.SIGUSR1])
exec(sys.argv[1])
' "$1" >"$BATS_TEST_TMPDIR/worker" 3>&- &
	WORKER=$!
	PID=$WORKER
	wait_for '^ready' "$BATS_TEST_TMPDIR/worker"
	WORKER_FD=$(awk '{ print $2 }' "$BATS_TEST_TMPDIR/worker")
}

start_tracer() {
	"$BIN" --duration 60 "$@" >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^payload: tracing write' "$ERR"
}

run_worker_and_stop() {
	kill -USR1 "$WORKER"
	wait "$WORKER"
	WORKER=
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	echo "--- stdout"; head -c 4000 "$OUT"; echo "--- stderr"; cat "$ERR"
}

@test "payload shows a 1000-byte pattern and a 5-byte string exactly, with their true lengths" {
	start_worker 'os.write(fd, pattern(1000)); os.write(fd, b"hello")'
	start_tracer --pid "$WORKER" --snap 4096
	run_worker_and_stop
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"

	assert_equal "$(head -1 "$OUT" | tr -s ' ')" "PID COMM FD LEN SHOWN"
	assert_equal "$(grep -v '^ ' "$OUT" | sed 1d | tr -s ' ')" \
		"$PID python3 $WORKER_FD 1000 1000
$PID python3 $WORKER_FD 5 5"
	# The dump is hexdump -C's, row for row: compare with the dump of the
	# same bytes that python makes here.
	expected=$(python3 -c '
import sys
def pattern(n, seed=0):
    return bytes((seed + i * 7) % 251 for i in range(n))
for data in (pattern(1000), b"hello"):
    for off in range(0, len(data), 16):
        row = data[off:off + 16]
        hx = " ".join("%02x" % b for b in row[:8])
        if len(row) > 8:
            hx += "  " + " ".join("%02x" % b for b in row[8:])
        asc = "".join(chr(b) if 0x20 <= b < 0x7f else "." for b in row)
        print("%08x  %-49s |%s|" % (off, hx, asc))
')
	assert_equal "$(grep '^    ' "$OUT" | sed 's/^    //')" "$expected"
	assert_equal "$(grep '^received' "$ERR")" "received 2, shown 2, lost 0, wrapped 0"
}

@test "payload --snap keeps the first N bytes and still reports the true length" {
	start_worker 'os.write(fd, pattern(1000))'
	start_tracer --pid "$PID" --snap 20
	run_worker_and_stop
	assert_equal "$status" 0
	assert_equal "$(sed -n 2p "$OUT" | tr -s ' ')" "$PID python3 $WORKER_FD 1000 20"
	assert_equal "$(sed -n '3,$p' "$OUT")" \
"    00000000  00 07 0e 15 1c 23 2a 31  38 3f 46 4d 54 5b 62 69  |.....#*18?FMT[bi|
    00000010  70 77 7e 85                                       |pw~.|"
}

@test "payload --json: every record of many sizes arrives whole, also across the ring end" {
	# Sizes 1 to 1500, none a multiple of 8 more often than chance, each
	# with its own content; two-page rings, so records cross the end.
	start_worker "
for i in range($WRITES):
    os.write(fd, pattern(1 + (i * 389) % 1500, i))
    time.sleep(0.002)
"
	start_tracer --pid "$PID" --snap 4096 --pages 2 --json
	run_worker_and_stop
	assert_equal "$status" 0
	run python3 - "$OUT" "$ERR" "$PID" "$WRITES" <<'PY'
import json, re, sys
out, err, pid, writes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def pattern(n, seed=0):
    return bytes((seed + i * 7) % 251 for i in range(n))
expected = {}
for i in range(writes):
    data = pattern(1 + (i * 389) % 1500, i)
    expected[data] = i
seen = set()
head = 56
with open(out) as f:
    for n, line in enumerate(f, 1):
        d = json.loads(line)
        assert d["pid"] == pid, line
        data = bytes.fromhex(d["data"])
        assert d["len"] == len(data) == d["shown"], (n, d["len"], len(data))
        # The ring's size: head + data + the kernel's 4-byte size header,
        # padded to 8, minus that header.
        assert d["size"] == (head + len(data) + 4 + 7) // 8 * 8 - 4, (n, d["size"])
        i = expected.get(data)
        assert i is not None, f"line {n}: {len(data)} bytes that no write had"
        assert i not in seen, f"write {i} shown twice"
        seen.add(i)
m = re.search(r"^received (\d+), shown (\d+), lost (\d+), wrapped (\d+)$", open(err).read(), re.M)
received, shown, lost, wrapped = map(int, m.groups())
assert shown == received == len(seen), (shown, received, len(seen))
assert len(seen) + lost == writes, (len(seen), lost, writes)
assert wrapped > 0, "no record crossed the end of a ring"
odd = sum(1 for i in seen if (1 + (i * 389) % 1500) % 8)
print(f"ok: {len(seen)} exact, {lost} lost, {wrapped} wrapped, {odd} of odd sizes")
PY
	echo "$output"
	assert_success
	assert_output --regexp '^ok: '
}

@test "payload --comm shows only that command" {
	start_tracer --comm dd --snap 8
	printf 'abcdefghij' | dd of=/dev/null bs=10 2>/dev/null
	printf 'xyz' | cat >/dev/null
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	cat "$OUT"
	assert_equal "$status" 0
	# Every record is dd's; one of them is the 10 bytes, 8 shown.
	assert_equal "$(grep -v '^ ' "$OUT" | sed 1d | awk '$2 != "dd"')" ""
	grep -q '  |abcdefgh|$' "$OUT" || fail "no dump of dd's write"
	! grep -q 'xyz' "$OUT" || fail "cat's write shows despite --comm dd"
}

@test "payload in a pipe: head ends it quietly with status 0" {
	start_worker 'for i in range(2000): os.write(fd, b"0123456789"); time.sleep(0.005)'
	kill -USR1 "$PID"
	run bash -c "set -o pipefail; '$BIN' --pid $PID --duration 30 2>'$ERR' | head -3"
	assert_success
	assert_equal "${#lines[@]}" 3
	! grep -q '^error' "$ERR" || fail "an error on stderr: $(cat "$ERR")"
	grep -q '^received' "$ERR" || fail "no summary on stderr"
}

@test "payload --help documents every option and the columns" {
	run "$BIN" --help
	assert_success
	for word in --pid --comm --snap --pages --duration --json --object --verbose --help \
		    PID COMM FD LEN SHOWN SIZE lost wrapped; do
		assert_output --partial -- "$word"
	done
}

@test "payload rejects bad options with exit 2 and one error line" {
	run "$BIN" --snap 4097
	assert_failure 2
	assert_output "error: --snap '4097' is not a number of bytes from 0 to 4096"
	run "$BIN" --pages 3
	assert_failure 2
	assert_output "error: --pages '3' is not a power of two up to 65536"
	run "$BIN" --pid x
	assert_failure 2
	assert_output "error: --pid 'x' is not a process id"
	run "$BIN" --comm averyveryverylongname
	assert_failure 2
	assert_output "error: --comm 'averyveryverylongname' is not a command name of 1 to 15 characters"
	run "$BIN" extra
	assert_failure 2
	assert_output "error: unexpected argument 'extra' (try 'payload --help')"
}

@test "payload names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/payload.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/payload.bpf.o'"
}

@test "payload --object loads that file instead of the object built in" {
	run "$BIN" --object "$BUILD/bpf/payload.bpf.o" --duration 0.5
	assert_success
	# Not an object at all: the error names the file, so it was read.
	printf 'not ELF' >"$BATS_TEST_TMPDIR/bad.o"
	run "$BIN" --object "$BATS_TEST_TMPDIR/bad.o" --duration 0.5
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.o"
}

@test "payload's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/payload -idirafter "/usr/include/$multiarch" \
			-c samples/payload/payload.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
