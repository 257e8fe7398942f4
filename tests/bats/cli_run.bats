#!/usr/bin/env bats
# bpfsdk run on the running kernel: each object of tests/bpf/cli_*.bpf.c is
# loaded and attached, cli_trigger fires its hook from a known pid, and the
# records' bytes are checked: the pid that wrote, the counters, the cookie,
# the argument the kernel saw.

load cli_common

setup() {
	cli_setup
}

teardown() {
	cli_teardown
}

@test "run: .rodata filter set with --set, .data cookie and .bss counter" {
	start_trigger getppid 5
	start_run --set target_pid="$TRIGGER_PID" --count 5 "$OBJS/cli_globals.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# { u32 pid, u32 cookie, u64 hits } = 16 bytes, 20 with the padding
	expect_records 5 20
	hits=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" $((0xc0ffee01)) "the .data cookie in '$line'"
		hits+=("$(field "$line" 8 8)")
	done <"$OUT"
	# .bss starts at zero: the counter ran 1..5 (in any CPU's order)
	expect_eq "$(printf '%s\n' "${hits[@]}" | sort -n | xargs)" "1 2 3 4 5" ".bss hits"
}

@test "run: --set of a .data variable and of the filter, in hex" {
	start_trigger getppid 3
	start_run --set cookie=0x12345678 --set "target_pid=$(printf '0x%x' "$TRIGGER_PID")" \
		--count 3 "$OBJS/cli_globals.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 3 20
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" $((0x12345678)) "cookie set by --set in '$line'"
	done <"$OUT"
}

@test "run: the .rodata filter keeps another process's calls out" {
	# a second driver calls getppid() at the same time; none of its calls
	# may show up, and all of the target's must
	rm -f "$GO"
	"$TRIGGER" --go "$GO" getppid 200 &
	other=$!
	start_trigger getppid 50
	start_run --set target_pid="$TRIGGER_PID" --duration 3 "$OBJS/cli_globals.bpf.o"
	go
	wait "$other"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 50 20
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line' (other driver: $other)"
	done <"$OUT"
}

@test "run: __noinline subprograms, with a map relocation inside one" {
	start_trigger getppid 4
	start_run --set target_pid="$TRIGGER_PID" --count 4 "$OBJS/cli_subprog.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# { u32 pid, u32 mix(pid) } = 8 bytes, 12 with the padding
	expect_records 4 12
	mixed=$(( ((TRIGGER_PID ^ 0x5a5a5a5a) * 3 + 7) & 0xffffffff ))
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" "$mixed" "mix(pid) computed by the subprogram in '$line'"
	done <"$OUT"
}

@test "run: BTF-defined maps: a hash map counts the calls" {
	start_trigger getppid 6
	start_run --set target_pid="$TRIGGER_PID" --count 6 "$OBJS/cli_btfmaps.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 6 20
	counts=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		counts+=("$(field "$line" 8 8)")
	done <"$OUT"
	expect_eq "$(printf '%s\n' "${counts[@]}" | sort -n | xargs)" "1 2 3 4 5 6" "hash map counts"
}

@test "run: legacy maps section: perf event array and array counter" {
	start_trigger getppid 4
	start_run --set target_pid="$TRIGGER_PID" --count 4 "$OBJS/cli_legacy.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 4 20
	counts=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		counts+=("$(field "$line" 8 8)")
	done <"$OUT"
	expect_eq "$(printf '%s\n' "${counts[@]}" | sort -n | xargs)" "1 2 3 4" "legacy array counts"
}

@test "run: tracepoint program reads the syscall argument from its context" {
	start=$((0x7ff00000))	# no such pid: getpgid fails, the event fires
	start_trigger getpgid 5 "$start"
	start_run --set target_pid="$TRIGGER_PID" --count 5 "$OBJS/cli_tracepoint.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 5 20
	nr=$(printf '#include <sys/syscall.h>\nSYS_getpgid\n' | cc -E -P - | tail -1)
	args=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" "$nr" "syscall number in '$line'"
		args+=("$(field "$line" 8 8)")
	done <"$OUT"
	expect_eq "$(printf '%s\n' "${args[@]}" | sort -n | xargs)" \
		"$(seq "$start" $((start + 4)) | xargs)" "getpgid arguments"
}

@test "run: uprobe and uretprobe on a function of the test driver" {
	start_trigger uprobe 3 1000
	# the sections say uprobe/cli_trigger:cli_uprobe_hit, relative to the
	# current directory
	cd "$(dirname "$TRIGGER")"
	start_run --count 6 "$OBJS/cli_uprobe.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 6 20
	entries=() returns=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		case $(field "$line" 4 4) in
		1) entries+=("$(field "$line" 8 8)") ;;
		2) returns+=("$(field "$line" 8 8)") ;;
		*) fail "kind is neither 1 (entry) nor 2 (return) in '$line'" ;;
		esac
	done <"$OUT"
	expect_eq "$(printf '%s\n' "${entries[@]}" | sort -n | xargs)" "1000 1001 1002" "arguments at entry"
	expect_eq "$(printf '%s\n' "${returns[@]}" | sort -n | xargs)" "2001 2003 2005" "return values (2x+1)"
}

@test "run: a ringbuf map is read too, records unpadded, CPU -1" {
	start_trigger getppid 4
	start_run --set target_pid="$TRIGGER_PID" --count 4 "$OBJS/cli_ringbuf.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" 4 "records printed"
	seqs=()
	while read -r line; do
		read -r map cpu size _ <<<"$line"
		expect_eq "$map $cpu $size" "ring -1 8" "map, CPU and size in '$line'"
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		seqs+=("$(field "$line" 4 4)")
	done <"$OUT"
	# one ring for all CPUs: the records come in the order they were made
	expect_eq "${seqs[*]}" "1 2 3 4" "sequence numbers"
	grep -qx "received 4, lost 0" "$ERR" || fail "no 'received 4, lost 0' in: $(cat "$ERR")"
}

@test "run: records of a ringbuf producer that never wakes the reader arrive too" {
	# BPF_RB_NO_WAKEUP: only a drain on a timer finds these records
	start_trigger getppid 2
	start_run --set target_pid="$TRIGGER_PID" --set output_flags=1 --count 2 "$OBJS/cli_ringbuf.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" 2 "records printed"
	grep -qx "received 2, lost 0" "$ERR" || fail "no 'received 2, lost 0' in: $(cat "$ERR")"
}

@test "run: --count N stops after exactly N records" {
	start_trigger getppid 40
	start_run --set target_pid="$TRIGGER_PID" --count 7 "$OBJS/cli_globals.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 7 20
}

@test "run: SIGINT ends the stream cleanly with the summary" {
	start_trigger getppid 3
	start_run --set target_pid="$TRIGGER_PID" "$OBJS/cli_globals.bpf.o"
	go
	wait_lines 3
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status after SIGINT"
	expect_records 3 20
}

@test "run: SIGTERM ends the stream cleanly too" {
	start_trigger getppid 2
	start_run --set target_pid="$TRIGGER_PID" "$OBJS/cli_globals.bpf.o"
	go
	wait_lines 2
	kill -TERM "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status after SIGTERM"
	expect_records 2 20
}

@test "run: --duration stops on time with the summary" {
	start_trigger getppid 1
	SECONDS=0
	start_run --set target_pid="$TRIGGER_PID" --duration 1.5 "$OBJS/cli_globals.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	[ "$SECONDS" -le 5 ] || fail "--duration 1.5 took ${SECONDS} s"
	expect_records 1 20
}

@test "run: a reader that goes away (| head) ends run with status 0" {
	rm -f "$GO" "$GO.2"
	"$TRIGGER" --go "$GO" getppid 5 --go "$GO.2" getppid 5 &
	TRIGGER_PID=$!
	head_out="$BATS_TEST_TMPDIR/head"
	( "$BPFSDK" run -v --set target_pid="$TRIGGER_PID" --duration 20 \
		"$OBJS/cli_globals.bpf.o" 2>"$ERR" | head -n 2 >"$head_out"
	  echo "${PIPESTATUS[0]}" >"$BATS_TEST_TMPDIR/status" ) &
	pipeline=$!
	for _ in $(seq 300); do
		grep -q '^streaming:' "$ERR" 2>/dev/null && break
		sleep 0.1
	done
	SECONDS=0
	go
	# head has its two lines and exits; the next batch meets a closed pipe
	for _ in $(seq 100); do
		[ "$(wc -l <"$head_out")" -ge 2 ] && break
		sleep 0.1
	done
	sleep 0.5
	touch "$GO.2"
	wait "$pipeline"
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	cat "$ERR"
	expect_eq "$(wc -l <"$head_out")" 2 "lines head printed"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/status")" 0 "bpfsdk's exit status"
	[ "$SECONDS" -lt 15 ] || fail "bpfsdk ran ${SECONDS} s: it did not notice the closed pipe"
	grep -q '^received [0-9]*, lost 0$' "$ERR" || fail "no summary line"
	run grep -c '^error:' "$ERR"
	expect_eq "$output" 0 "error lines"
}
