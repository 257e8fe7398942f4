#!/usr/bin/env bats
# samples/runqlat on the running kernel: a process of known pid blocks a
# known number of times, and the histogram of its run-queue latencies must
# count every one of those wakeups - and its rows must add up to its total,
# in as many prints as the interval mode was asked for.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/runqlat"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/runqlat.out"
	ERR="$BATS_TEST_TMPDIR/runqlat.err"
	TRACER=
	WORKER=
}

teardown() {
	[ -z "$TRACER" ] || kill "$TRACER" 2>/dev/null || true
	stop_worker
}

stop_worker() {
	[ -z "$WORKER" ] || kill "$WORKER" 2>/dev/null || true
	[ -z "$WORKER" ] || wait "$WORKER" 2>/dev/null || true
	WORKER=
}

wait_for() {
	for _ in $(seq 100); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no '$1' in $2 after 10 s: $(cat "$2" 2>/dev/null)"
}

# A python3 process that blocks in sigwait() until SIGUSR1 - one wakeup -
# then sleeps $1 times for $2 seconds - one wakeup each - says "done", and
# blocks in sigwait() again until teardown kills it. Its pid, in WORKER
# and WPID, is known before it blocks. A wakeup that comes while the
# thread is still on its way off its CPU (a vCPU stalled that long) leaves
# it running with no switch at all, nothing for runqlat - BCC's or ours -
# to time; one switched out is switched back in, and runqlat must time
# each.
start_worker() {
	python3 -c '
import signal, sys, time
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
print("ready", flush=True)
signal.sigwait([signal.SIGUSR1])
for _ in range(int(sys.argv[1])):
    time.sleep(float(sys.argv[2]))
print("done", flush=True)
signal.sigwait([signal.SIGUSR1])
' "$1" "$2" >"$BATS_TEST_TMPDIR/worker" 3>&- &
	WORKER=$!
	WPID=$WORKER
	SIGWAIT_NR=
	wait_for '^ready$' "$BATS_TEST_TMPDIR/worker"
	# Sent before it sleeps, the signal would find itself pending, and
	# wake nothing.
	worker_asleep
}

# Wait until the worker is off its CPU in a system call - in sigwait():
# once "ready" is out it makes no other call that sleeps, and the number
# of that call, in SIGWAIT_NR, is the one to wait for after "done".
# Reading /proc/PID/syscall waits for the task to leave its CPU, and says
# "running" if it did not sleep (or is not asleep yet).
worker_asleep() {
	local nr
	for _ in $(seq 100); do
		nr=$(cut -d' ' -f1 "/proc/$WPID/syscall" 2>/dev/null) || nr=
		if [[ "$nr" == [0-9]* ]] && [ "$nr" = "${SIGWAIT_NR:-$nr}" ]; then
			SIGWAIT_NR=$nr
			return 0
		fi
		sleep 0.1
	done
	fail "the worker $WPID never went to sleep in sigwait() ($(cat "/proc/$WPID/syscall" 2>/dev/null))"
}

# The kernel's count of the worker's switches out, as "VOLUNTARY
# INVOLUNTARY" (its thread's voluntary_ctxt_switches and
# nonvoluntary_ctxt_switches).
switches_now() {
	awk '/^voluntary_ctxt_switches:/ { v = $2 } /^nonvoluntary_ctxt_switches:/ { n = $2 }
	     END { print v, n }' "/proc/$WPID/task/$WPID/status"
}

# Let the worker go: its switch counts before, while it sleeps in its
# first sigwait() (call once the tracer is tracing).
release_worker() {
	SWITCHES0=$(switches_now)
	kill -USR1 "$WPID"
}

# Wait until the worker has slept its sleeps and is off its CPU in its last
# sigwait(); take its switch counts then (it switches no more).
worker_done() {
	wait_for '^done$' "$BATS_TEST_TMPDIR/worker"
	worker_asleep
	SWITCHES1=$(switches_now)
}

# How often the kernel switched the worker out between release_worker and
# worker_done, as "VOLUNTARY INVOLUNTARY". The first switch out, into the
# first sigwait(), came before; its return after SIGUSR1 is in the trace.
# The last, into the last sigwait(), is counted, but has no return while
# traced. So each of these switches is one return runqlat must time.
worker_switches() {
	local v0 n0 v1 n1
	read -r v0 n0 <<<"$SWITCHES0"
	read -r v1 n1 <<<"$SWITCHES1"
	[ -n "$v0" ] && [ -n "$n1" ] || fail "no switch counts of the worker ($SWITCHES0; $SWITCHES1)"
	echo "$((v1 - v0)) $((n1 - n0))"
}

# Check $1 wakeups + $2 preemptions that runqlat counted against the
# worker's switches (worker_switches): each time the kernel switched it
# out while traced, runqlat must have timed one return to the CPU - after
# a wakeup when it left to sleep, after a preemption when it left
# runnable. And most of the $3 sleeps it was made to take must have been
# real, or the test proved little. A count short of the switches sets
# SHORT, for retry_short; any other mismatch fails.
check_switches() {
	local wakeups=$1 preempted=$2 caused=$3 vol inv
	read -r vol inv < <(worker_switches)
	local timed="runqlat timed $wakeups + $preempted returns to the CPU, the kernel switched the worker out $vol + $inv times"
	echo "runqlat: $wakeups wakeups + $preempted preemptions; kernel: $vol + $inv switches; $caused sleeps caused"
	if [ "$((wakeups + preempted))" -lt "$((vol + inv))" ]; then
		echo "short: $timed"
		SHORT=1
	fi
	[ "$((wakeups + preempted))" -le "$((vol + inv))" ] || fail "$timed"
	[ "$wakeups" -le "$vol" ] ||
		fail "$wakeups wakeups counted for $vol times the worker went to sleep"
	[ "$((vol * 2))" -ge "$caused" ] || fail "only $vol of $caused sleeps switched the worker out"
}

# Run the measurement $@ until its counts are not short, three times at
# most. A host's kernel may leave a switch unreported to every tracer: on
# one test machine, no sched_switch event - to ftrace or to BPF - ever
# shows a thread of its own agent leaving a CPU. A worker that gets the
# CPU from it is invisible to runqlat, ours or BCC's, and its count falls
# one short of the kernel's now and then. A runqlat that drops wakeups
# drops them each time.
retry_short() {
	local attempt
	for attempt in 1 2 3; do
		SHORT=
		"$@"
		[ -n "$SHORT" ] || return 0
		echo "attempt $attempt of 3 fell short of the kernel's switches"
		stop_worker
	done
	fail "runqlat's counts fell short of the kernel's switches in 3 runs"
}

# Check the JSON lines of $OUT: each histogram's rows add up to its total,
# total = wakeups + preempted, and over all lines they match the worker's
# switches (check_switches) for the $1 sleeps caused. $2: the number of
# lines expected.
check_counts() {
	run python3 - "$OUT" "$2" <<'PY'
import json, sys
out, lines = sys.argv[1], int(sys.argv[2])
hists = [json.loads(l) for l in open(out)]
assert len(hists) == lines, f"{len(hists)} histograms, expected {lines}"
wakeups = preempted = 0
for h in hists:
    assert h["unit"] == "usecs", h
    rows = sum(c for lo, hi, c in h["hist"])
    assert rows == h["total"] == h["wakeups"] + h["preempted"], h
    for lo, hi, c in h["hist"]:
        assert lo == 0 and hi == 1 or hi == 2 * lo - 1, h
    assert h["untracked"] == 0, h
    wakeups += h["wakeups"]
    preempted += h["preempted"]
print(f"ok: {wakeups} {preempted}")
PY
	echo "$output"
	assert_success
	assert_output --regexp '^ok: '
	check_switches ${output#ok: } "$1"
}

# Trace the worker until Ctrl-C: one histogram at the end.
measure_sigint() {
	start_worker 20 0.05
	"$BIN" --pid "$WPID" --json >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^runqlat: tracing' "$ERR"
	release_worker
	worker_done
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	cat "$OUT" "$ERR"
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"
	check_counts 21 1
}

@test "runqlat counts every wakeup of a known process, once, in the kernel's histogram" {
	retry_short measure_sigint
}

# Trace the worker in three 2 s intervals: runqlat ends by itself after
# the third print. The worker's second of sleeps must end inside the 6 s,
# or the count would fall short for another reason than a lost wakeup.
measure_intervals() {
	start_worker 20 0.05
	"$BIN" --pid "$WPID" --json 2 3 >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^runqlat: tracing' "$ERR"
	release_worker
	worker_done
	kill -0 "$TRACER" 2>/dev/null ||
		fail "runqlat's three 2 s intervals ended before the worker's 20 sleeps of 50 ms"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	cat "$OUT" "$ERR"
	assert_equal "$status" 0
	check_counts 21 3
}

@test "runqlat INTERVAL COUNT prints COUNT histograms that add up to the wakeups caused" {
	retry_short measure_intervals
}

# Draw the worker's chart in milliseconds, with the time of day.
measure_chart() {
	start_worker 10 0.05
	"$BIN" -m -T --pid "$WPID" >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^runqlat: tracing' "$ERR"
	release_worker
	worker_done
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	cat "$OUT"
	assert_equal "$status" 0
	grep -Eq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$' "$OUT" || fail "no HH:MM:SS line"
	assert_equal "$(grep -c 'msecs *: count *distribution' "$OUT")" 1
	# The rows' counts add up to the total line's.
	rows=$(awk -F: '/ -> / { split($2, a, " "); s += a[1] } END { print s }' "$OUT")
	read -r total wakeups preempted < <(sed -n 's/^total \([0-9]*\): \([0-9]*\) after a wakeup, \([0-9]*\) after a preemption$/\1 \2 \3/p' "$OUT")
	assert_equal "$rows" "$total"
	assert_equal "$((wakeups + preempted))" "$total"
	check_switches "$wakeups" "$preempted" 11
}

@test "runqlat draws the chart: rows, the total line, -m and -T" {
	retry_short measure_chart
}

# Serve the worker's histogram on /metrics; read it once the worker is done.
measure_metrics() {
	start_worker 20 0.05
	"$BIN" --pid "$WPID" --json --metrics 127.0.0.1:0 >"$OUT" 2>"$ERR" 3>&- &
	TRACER=$!
	wait_for '^runqlat: serving metrics on port ' "$ERR"
	port=$(sed -n 's/^runqlat: serving metrics on port \([0-9]*\)$/\1/p' "$ERR")
	release_worker
	worker_done
	curl -s "http://127.0.0.1:$port/metrics" >"$BATS_TEST_TMPDIR/metrics"
	kill -INT "$TRACER"
	status=0
	wait "$TRACER" || status=$?
	TRACER=
	cat "$BATS_TEST_TMPDIR/metrics" "$OUT" "$ERR"
	assert_equal "$status" 0
	m="$BATS_TEST_TMPDIR/metrics"
	promtool check metrics <"$m" || fail "promtool check metrics"
	count=$(sed -n 's/^bpfsdk_hist_seconds_count{object="runqlat"} \([0-9]*\)$/\1/p' "$m")
	inf=$(sed -n 's/^bpfsdk_hist_seconds_bucket{object="runqlat",le="+Inf"} \([0-9]*\)$/\1/p' "$m")
	wakeups=$(sed -n 's/^bpfsdk_hist_wakeups_total{object="runqlat"} \([0-9]*\)$/\1/p' "$m")
	preempted=$(sed -n 's/^bpfsdk_hist_preempted_total{object="runqlat"} \([0-9]*\)$/\1/p' "$m")
	assert_equal "$inf" "$count"
	assert_equal "$((wakeups + preempted))" "$count"
	check_switches "$wakeups" "$preempted" 21
	# slot 0 (0 and 1 us) ends at 1 us, slot 1 at 3 us: le in seconds
	grep -q '^bpfsdk_hist_seconds_bucket{object="runqlat",le="0.000001"} ' "$m" || fail "no le of 1 us"
	grep -q '^bpfsdk_hist_seconds_bucket{object="runqlat",le="0.000003"} ' "$m" || fail "no le of 3 us"
}

@test "runqlat --metrics serves the histogram Prometheus reads: the worker's wakeups, the JSON's counts" {
	# tests/vm/init sets BPFSDK_VM: the test VM has neither curl nor promtool; metrics.bats
	# covers the server on the host
	[ -z "${BPFSDK_VM:-}" ] || skip "the test VM has no curl and no promtool"
	retry_short measure_metrics
}

@test "runqlat in a pipe: head ends it quietly with status 0" {
	run bash -c "set -o pipefail; '$BIN' 0.2 2>'$ERR' | head -3"
	assert_success
	assert_equal "${#lines[@]}" 3
	! grep -q '^error' "$ERR" || fail "an error on stderr: $(cat "$ERR")"
}

@test "runqlat --help documents every option and the output" {
	run "$BIN" --help
	assert_success
	for word in --msecs --pid --time --duration --json --object --verbose --help \
		    INTERVAL COUNT usecs msecs total wakeup preemption untracked; do
		assert_output --partial -- "$word"
	done
}

@test "runqlat rejects bad options and arguments with exit 2 and one error line" {
	run "$BIN" 0
	assert_failure 2
	assert_output "error: INTERVAL '0' is not a number of seconds between 0 and 3600"
	run "$BIN" 1 x
	assert_failure 2
	assert_output "error: COUNT 'x' is not a positive number"
	run "$BIN" 1 2 3
	assert_failure 2
	assert_output "error: unexpected argument '3' (try 'runqlat --help')"
	run "$BIN" -d 5 1
	assert_failure 2
	assert_output "error: --duration and INTERVAL do not go together: use COUNT"
	run "$BIN" --pid x
	assert_failure 2
	assert_output "error: --pid 'x' is not a process id"
}

@test "runqlat names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/runqlat.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/runqlat.bpf.o'"
}

@test "runqlat --object loads that file instead of the object built in" {
	run "$BIN" --object "$BUILD/bpf/runqlat.bpf.o" --duration 0.5
	assert_success
	# Not an object at all: the error names the file, so it was read.
	printf 'not ELF' >"$BATS_TEST_TMPDIR/bad.o"
	run "$BIN" --object "$BATS_TEST_TMPDIR/bad.o" --duration 0.5
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.o"
}

@test "runqlat's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/runqlat -idirafter "/usr/include/$multiarch" \
			-c samples/runqlat/runqlat.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
