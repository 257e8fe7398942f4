#!/usr/bin/env bats
# trace_output, the seed's sample, on the running kernel: every record must
# carry dd's pid and the cookie, and the summary must account for all.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/trace_output"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
}

# The number after "recv" in "recv N events per sec".
events_per_sec() {
	sed -n 's/^recv \([0-9]*\) events per sec$/\1/p' <<<"$output"
}

@test "trace_output streams dd's writes with every record intact" {
	run "$BIN" --duration 2 -v
	echo "$output"
	assert_success
	assert_line --regexp '^probe: (tracepoint/syscalls/sys_enter_write|kprobe/.*sys_write)'
	# The pid the sample started dd with is the pid in the records.
	pid=$(sed -n 's/^writer: dd, pid \([0-9]*\), on CPU 0$/\1/p' <<<"$output")
	[ -n "$pid" ] || fail "no 'writer: dd, pid N' line"
	assert_line --regexp "^record: cpu 0 pid $pid cookie 0x12345678 size 20$"
	rate=$(events_per_sec)
	[ -n "$rate" ] || fail "no 'recv N events per sec' line"
	[ "$rate" -gt 0 ] || fail "rate is $rate, expected > 0"
	assert_line --regexp '^received [1-9][0-9]*, lost [0-9]+, bad 0$'
}

@test "trace_output --channel ringbuf streams dd's writes with every record intact" {
	run "$BIN" --channel ringbuf --duration 2 -v
	echo "$output"
	assert_success
	assert_line 'channel: ringbuf (bpf_ringbuf_output)'
	pid=$(sed -n 's/^writer: dd, pid \([0-9]*\), on CPU 0$/\1/p' <<<"$output")
	[ -n "$pid" ] || fail "no 'writer: dd, pid N' line"
	# One ring for all CPUs: cpu -1, and the record exactly as sent.
	assert_line --regexp "^record: cpu -1 pid $pid cookie 0x12345678 size 16$"
	rate=$(events_per_sec)
	[ -n "$rate" ] && [ "$rate" -gt 0 ] || fail "rate is '$rate', expected > 0"
	assert_line --regexp '^received [1-9][0-9]*, lost [0-9]+, bad 0$'
}

@test "trace_output --channel ringbuf with one page still accounts for every record" {
	run "$BIN" --channel ringbuf --duration 1 --pages 1 --json
	echo "$output"
	assert_success
	json=$(grep '^{' <<<"$output")
	python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["channel"] == "ringbuf", d
assert d["received"] > 0 and d["bad"] == 0, d
# What did not fit is counted by the program, not guessed.
assert isinstance(d["lost"], int) and d["lost"] >= 0, d
PY
}

@test "trace_output --json reports the same accounting as one object" {
	# standard output holds the JSON and nothing else, so `| jq .` works
	"$BIN" --duration 1 --json >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" ||
		fail "exit $?: $(cat "$BATS_TEST_TMPDIR/err")"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/out")" -eq 1 ] ||
		fail "stdout is not one line: $(cat "$BATS_TEST_TMPDIR/out")"
	json=$(cat "$BATS_TEST_TMPDIR/out")
	grep -q '^probe: ' "$BATS_TEST_TMPDIR/err" || fail "the probe line is not on stderr"
	python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["received"] > 0, d
assert d["bad"] == 0, d
assert d["events_per_sec"] > 0, d
assert d["writer_pid"] > 0, d
print("json ok:", d)
PY
}

@test "trace_output chooses the probe the kernel supports and says which" {
	if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
		run "$BIN" --duration 1 --probe kprobe
		assert_success
		assert_line --regexp '^probe: kprobe/'
	else
		# No kprobes here: asking for one is a clear error, not a crash.
		run "$BIN" --duration 1 --probe kprobe
		assert_failure 1
		assert_output --partial "no kprobe support"
		run "$BIN" --duration 1
		assert_success
		assert_line 'probe: tracepoint/syscalls/sys_enter_write (this kernel has no kprobes)'
	fi
}

@test "trace_output with one page per CPU still accounts for every record" {
	run "$BIN" --duration 1 --pages 1
	assert_success
	assert_line --regexp '^received [1-9][0-9]*, lost [0-9]+, bad 0$'
}

@test "trace_output --help documents every option" {
	run "$BIN" --help
	assert_success
	for opt in --duration --channel --pages --probe --cpu --object --json --verbose --help; do
		assert_output --partial -- "$opt"
	done
}

@test "trace_output rejects mistyped options with exit 2 and one error line" {
	run "$BIN" --duraton 1
	assert_failure 2
	assert_output "error: unknown option '--duraton' (try 'trace_output --help')"
	run "$BIN" --pages 3
	assert_failure 2
	assert_output "error: --pages '3' is not a power of two"
	run "$BIN" --channel pipe
	assert_failure 2
	assert_output "error: --channel 'pipe' is not perf or ringbuf"
	run "$BIN" --duration
	assert_failure 2
	assert_output --partial "needs a value"
}

@test "trace_output names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/trace_output.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/trace_output.bpf.o'"
}

@test "trace_output stops cleanly on Ctrl-C and leaves no dd behind" {
	# -v says on stderr when the program is attached: Ctrl-C comes half a
	# second after that, when records stream (a signal during the load
	# would stop it with EINTR, which is another test's matter).
	"$BIN" -v --duration 30 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	for _ in $(seq 300); do
		grep -q "^program '.*': attached to " "$BATS_TEST_TMPDIR/err" && break
		sleep 0.1
	done
	grep -q "^program '.*': attached to " "$BATS_TEST_TMPDIR/err" ||
		fail "not attached after 30 s: $(cat "$BATS_TEST_TMPDIR/err")"
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	status=$?
	cat "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ] || fail "exit status $status after SIGINT, expected 0"
	grep -q '^received [1-9][0-9]*, lost [0-9]*, bad 0$' "$BATS_TEST_TMPDIR/out" ||
		fail "no summary after SIGINT"
	dd_pid=$(sed -n 's/^writer: dd, pid \([0-9]*\),.*/\1/p' "$BATS_TEST_TMPDIR/out")
	! kill -0 "$dd_pid" 2>/dev/null || fail "dd ($dd_pid) still running"
}

@test "trace_output's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	src=samples/trace_output/trace_output.bpf.c
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/trace_output -idirafter "/usr/include/$multiarch" \
			-c "$src" -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		# The helpers header really came from $inc, not from the other.
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere: $(cat "$BATS_TEST_TMPDIR/out.d")"
	done
}

@test "trace_output's map carries the record type in BTF" {
	command -v bpftool >/dev/null || skip "bpftool is not installed"
	run bpftool btf dump file "$BUILD/bpf/trace_output.bpf.o"
	assert_success
	assert_output --regexp "DECL_TAG 'bpfsdk.record:trace_output_event'"
	assert_output --regexp "STRUCT 'trace_output_event' size=16"
}
