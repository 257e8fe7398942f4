#!/usr/bin/env bats
# samples/syscall_latency on the running kernel: a process with a known pid
# makes a known number of calls of known length, and the histogram must
# hold exactly those calls, in the right bucket.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/syscall_latency"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/lat.out"
	ERR="$BATS_TEST_TMPDIR/lat.err"
	TRACER=
	WORKER=
}

teardown() {
	[ -z "$TRACER" ] || kill "$TRACER" 2>/dev/null || true
	[ -z "$WORKER" ] || kill "$WORKER" 2>/dev/null || true
}

# Wait up to 10 s for a line matching $1 in file $2.
wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

# A python3 process that runs the Python statements $1 when it gets SIGUSR1,
# then exits; its pid, in WORKER, is known before it makes a single call of
# interest, which --pid needs. The signal is blocked before it says "ready",
# so it cannot kill it early; everything it imports is imported before.
# nap(s) sleeps s seconds with libc's nanosleep(), a relative
# clock_nanosleep: the kernel arms its timer after the call is entered, so
# the call lasts s at least. (time.sleep() since Python 3.11 sleeps to an
# absolute deadline taken before the call, so the call itself can be
# shorter by however long Python took to make it: 3.6 ms once in the
# emulated arm64 guest.)
start_worker() {
	python3 -c '
import ctypes, os, signal, sys, time
class timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]
libc = ctypes.CDLL(None, use_errno=True)
def nap(s):
    t = timespec(int(s), round(s % 1 * 1e9))
    if libc.nanosleep(ctypes.byref(t), None) != 0:
        raise OSError(ctypes.get_errno(), "nanosleep")
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
print("ready", flush=True)
signal.sigwait([signal.SIGUSR1])
exec(sys.argv[1])
' "$1" >"$BATS_TEST_TMPDIR/worker" 3>&- &
	WORKER=$!
	wait_for '^ready$' "$BATS_TEST_TMPDIR/worker"
}

# syscall_latency in the background, once it says it is timing.
start_tracer() {
	"$BIN" --duration 60 "$@" >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^syscall_latency: timing ' "$ERR"
}

# Let the worker go, wait for it, then Ctrl-C the tracer: its exit status
# in $status.
run_worker_and_stop() {
	kill -USR1 "$WORKER"
	wait "$WORKER"
	WORKER=
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
}

@test "syscall_latency puts five 20 ms sleeps of a known pid in the 16-32 ms bucket or above" {
	start_worker 'for _ in range(5): nap(0.02)'
	start_tracer --syscall clock_nanosleep --pid "$WORKER"
	run_worker_and_stop
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"

	assert_equal "$(grep '^clock_nanosleep:' "$OUT")" \
		"clock_nanosleep: 5 calls, 0 errors, 0 lost"
	# A relative 20 ms sleep never ends early: every call is in the
	# 16384..32767 us bucket or, on a loaded machine or under qemu's
	# emulation, a later one; the rows add up to the five calls.
	rows=$(grep -- ' -> ' "$OUT" | tr -s ' ')
	awk '$1 < 16384 { bad = 1 } { n += $5 } END { exit bad || n != 5 }' <<<"$rows" ||
		fail "not five calls from the 16384 us bucket on: $rows"
	grep -Eq '^p50 [0-9.]+ ms, p90 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms$' "$OUT" ||
		fail "no 'p50 x ms, ... max x ms' line"
	p50=$(sed -n 's/^p50 \([0-9.]*\) ms,.*/\1/p' "$OUT")
	awk -v p="$p50" 'BEGIN { exit !(p >= 20) }' || fail "p50 $p50 ms: below the 20 ms slept"
}

@test "syscall_latency counts every read of a known pid, and its errors" {
	# 100 reads that succeed, 3 on a closed fd that fail with EBADF.
	start_worker '
fd = os.open("/dev/zero", os.O_RDONLY)
for _ in range(100): os.read(fd, 1)
for _ in range(3):
    try: os.read(987, 1)
    except OSError: pass'
	# read is the default.
	start_tracer --pid "$WORKER"
	run_worker_and_stop
	assert_equal "$status" 0
	assert_equal "$(grep '^read:' "$OUT")" "read: 103 calls, 3 errors, 0 lost"
	# The rows add up to the calls.
	total=$(grep -- ' -> ' "$OUT" | awk '{ n += $5 } END { print n }')
	assert_equal "$total" 103
}

@test "syscall_latency --json -v: one object per call, then a summary that agrees with them" {
	start_worker 'for _ in range(4): nap(0.02)'
	pid=$WORKER
	start_tracer --syscall clock_nanosleep --pid "$pid" --json -v
	run_worker_and_stop
	assert_equal "$status" 0
	run python3 - "$OUT" "$pid" <<'PY'
import json, math, sys
out, pid = sys.argv[1], int(sys.argv[2])
lines = [json.loads(l) for l in open(out) if l.startswith("{")]
calls, summary = lines[:-1], lines[-1]
assert len(calls) == 4, f"expected 4 per-call objects, got {len(calls)}: {calls}"
for c in calls:
    assert c["pid"] == pid and c["tid"] == pid, c
    assert c["ret"] == 0, c
    # nap() is a relative sleep: never shorter than 20 ms. How late it
    # ends depends on the machine (a loaded one, or qemu's emulation, can
    # pass 32 ms).
    assert c["latency_ns"] >= 20000000, c
lat = sorted(c["latency_ns"] for c in calls)
s = summary
assert s["syscall"] == "clock_nanosleep" and s["pid"] == pid, s
assert s["count"] == 4 and s["errors"] == 0 and s["lost"] == 0, s
# the histogram counts the same calls, each in its log2 bucket of usecs
rows = {}
for ns in lat:
    low = 1 << ((ns // 1000).bit_length() - 1)
    rows[low] = rows.get(low, 0) + 1
want = [{"low": low, "high": 2 * low - 1, "count": n} for low, n in sorted(rows.items())]
assert s["histogram_us"] == want, (s["histogram_us"], want)
assert s["min_ns"] == lat[0] and s["max_ns"] == lat[-1], (s, lat)
# Nearest rank, reported at most 1/256 above the exact value.
for p in (50, 90, 99):
    exact = lat[max(1, math.ceil(p / 100 * len(lat))) - 1]
    got = s[f"p{p}_ns"]
    assert exact <= got <= exact + exact / 256 + 1, (p, got, exact)
print("json ok")
PY
	echo "$output"
	assert_success
	assert_output "json ok"
}

@test "syscall_latency --json with no calls is valid JSON with null percentiles" {
	run "$BIN" --syscall clock_nanosleep --pid 999999999 --duration 0.5 --json
	assert_success
	run python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["count"] == 0 and d["p50_ns"] is None and d["histogram_us"] == [], d
print("ok")' "$(grep '^{' <<<"$output")"
	assert_output "ok"
}

@test "syscall_latency --list names the calls with this architecture's numbers" {
	run "$BIN" --list
	assert_success
	assert_line --regexp '^read +[0-9]+$'
	assert_line --regexp '^clock_nanosleep +[0-9]+$'
	if [ "$(uname -m)" = x86_64 ]; then
		assert_line --regexp '^read +0$'
		assert_line --regexp '^write +1$'
		assert_line --regexp '^clock_nanosleep +230$'
	elif [ "$(uname -m)" = aarch64 ]; then
		# the generic table (asm-generic/unistd.h) arm64 uses
		assert_line --regexp '^read +63$'
		assert_line --regexp '^write +64$'
		assert_line --regexp '^clock_nanosleep +115$'
	fi
}

@test "syscall_latency --help documents every option and the output" {
	run "$BIN" --help
	assert_success
	for word in --syscall --pid --duration --json --list --object --verbose \
		    --help usecs p50 p90 p99 max lost; do
		assert_output --partial -- "$word"
	done
}

@test "syscall_latency rejects bad options with exit 2 and one error line" {
	run "$BIN" --syscall nosuchcall
	assert_failure 2
	assert_output "error: --syscall 'nosuchcall' is not a system call of $(uname -m) (try 'syscall_latency --list')"
	run "$BIN" --syscall exit_group
	assert_failure 2
	assert_output "error: --syscall 'exit_group' never returns: it has no latency"
	run "$BIN" --pid -3
	assert_failure 2
	assert_output "error: --pid '-3' is not a process id"
	run "$BIN" --duration 0
	assert_failure 2
	assert_output "error: --duration '0' is not a number of seconds between 0 and 86400"
	run "$BIN" --sycall read
	assert_failure 2
	assert_output "error: unknown option '--sycall' (try 'syscall_latency --help')"
	run "$BIN" --syscall
	assert_failure 2
	assert_output "error: option '--syscall' needs a value (try 'syscall_latency --help')"
	run "$BIN" read
	assert_failure 2
	assert_output "error: unexpected argument 'read' (try 'syscall_latency --help')"
}

@test "syscall_latency names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/syscall_latency.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/syscall_latency.bpf.o'"
}

@test "syscall_latency's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	src=samples/syscall_latency/syscall_latency.bpf.c
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/syscall_latency -idirafter "/usr/include/$multiarch" \
			-c "$src" -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere: $(cat "$BATS_TEST_TMPDIR/out.d")"
	done
}

@test "syscall_latency's events map carries the record type in BTF" {
	command -v bpftool >/dev/null || skip "bpftool is not installed"
	run bpftool btf dump file "$BUILD/bpf/syscall_latency.bpf.o"
	assert_success
	assert_output --regexp "DECL_TAG 'bpfsdk.record:syscall_latency_event'"
	assert_output --regexp "STRUCT 'syscall_latency_event' size=24"
}
