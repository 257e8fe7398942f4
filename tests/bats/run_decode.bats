#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# run_decode.bats - `bpfsdk run --format json|text` decodes records by the
# object's BTF: fields read back with jq match what really happened (the
# pid that made the call, its argument, a unique file name opened), every
# gallery object's JSON passes a JSON parser, and a record type that does
# not fit gives one error line or a reported excess.

load cli_common

setup() {
	cli_setup
	command -v jq >/dev/null || skip "jq is not installed (tools/setup installs it)"
}

teardown() {
	cli_teardown
}

# build_libbpf_object: tests/bpf-libbpf/decode_event.bpf.c against libbpf's
# headers, into $LIBBPF_OBJ.
build_libbpf_object() {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	LIBBPF_OBJ="$BATS_TEST_TMPDIR/decode_event.bpf.o"
	clang -O2 -g -target bpf -Wall -Werror -idirafter "/usr/include/$(gcc -print-multiarch)" \
		-c tests/bpf-libbpf/decode_event.bpf.c -o "$LIBBPF_OBJ" ||
		fail "tests/bpf-libbpf/decode_event.bpf.c does not build with libbpf's headers"
}

# stop_when_seen TEXT: once a record holding TEXT is out (at most 10 s),
# stop bpfsdk with SIGINT and wait for it.
stop_when_seen() {
	for _ in $(seq 100); do
		grep -q "$1" "$OUT" && break
		sleep 0.1
	done
	kill -INT "$RUN_PID"
	wait_run
}

# check_events: $OUT holds the 3 records of getpgid(1001..1003) by
# $TRIGGER_PID, as JSON Lines. They come ring by ring, in the order of the
# CPUs, not of the calls (the trigger may move to another CPU between
# two), so the checks of each record's fields take them in order of arg.
check_events() {
	local sorted="$BATS_TEST_TMPDIR/sorted.json"
	expect_eq "$(wc -l <"$OUT")" 3 "records"
	while read -r line; do
		jq -e . >/dev/null <<<"$line" || fail "not JSON: $line"
	done <"$OUT"
	jq -c -s 'sort_by(.arg)[]' "$OUT" >"$sorted"
	expect_eq "$(jq -r '.arg' "$sorted" | tr '\n' ' ')" "1001 1002 1003 " "the getpgid() arguments"
	expect_eq "$(jq -r '.who.pid' "$OUT" | sort -u)" "$TRIGGER_PID" "the nested struct's pid"
	expect_eq "$(jq -r '.who.tid' "$OUT" | sort -u)" "$TRIGGER_PID" "the nested struct's tid"
	expect_eq "$(jq -r '.comm' "$OUT" | sort -u)" cli_trigger "the char array"
	expect_eq "$(jq -r '.parity' "$sorted" | tr '\n' ' ')" "PARITY_ODD PARITY_EVEN PARITY_ODD " "the enum"
	expect_eq "$(jq -r '"\(.low4) \(.next12) \(.top)"' "$sorted" | tr '\n' ,)" \
		"9 62 48879,10 62 48879,11 62 48879," "the bitfields"
	expect_eq "$(jq -r '."@map"' "$OUT" | sort -u)" events "@map"
	jq -e '."@cpu" | type == "number"' "$OUT" >/dev/null || fail "@cpu is not a number"
}

@test "a libbpf-style struct event decodes with no annotation: the local the program sends" {
	build_libbpf_object
	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --count 3 "$LIBBPF_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	check_events
	grep -q "map 'events': records decoded as event (40 bytes), from the DWARF local 'e' of on_getpgid" "$ERR" ||
		fail "-v does not say which struct was chosen"
}

@test "without DWARF (llvm-strip -g, as libbpf-tools ship), the only struct of the records' size in BTF" {
	command -v llvm-strip >/dev/null || skip "llvm-strip is not installed"
	build_libbpf_object
	llvm-strip -g "$LIBBPF_OBJ"
	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --count 3 "$LIBBPF_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	check_events
	grep -q "map 'events': records of 44 bytes decoded as event, the only struct of that size" "$ERR" ||
		fail "-v does not say which struct was chosen"
}

@test "a local sent with bpf_perf_event_output() beside CO-RE reads of task_struct: struct event from DWARF, never the kernel's" {
	obj="$OBJS/decode_local.bpf.o"
	start_trigger getpgid 3 2001
	start_run --set target_pid="$TRIGGER_PID" --format json --count 3 "$obj"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" 3 "records"
	expect_eq "$(jq -r '.arg' "$OUT" | sort | tr '\n' ' ')" "2001 2002 2003 " "the getpgid() arguments"
	expect_eq "$(jq -r '.pid' "$OUT" | sort -u)" "$TRIGGER_PID" "pid (task_struct->pid by CO-RE)"
	expect_eq "$(jq -r '.tgid' "$OUT" | sort -u)" "$TRIGGER_PID" "tgid"
	expect_eq "$(jq -r '.comm' "$OUT" | sort -u)" cli_trigger "comm"
	grep -q "map 'events': records decoded as event (32 bytes), from the DWARF local 'e' of local_getpgid (layout from DWARF)" "$ERR" ||
		fail "-v does not say where struct event came from"

	# Without DWARF, .BTF's only 32-byte struct is the kernel's sched_info:
	# hex and a hint, never its members
	command -v llvm-strip >/dev/null || skip "llvm-strip is not installed"
	llvm-strip -g -o "$BATS_TEST_TMPDIR/nodwarf.bpf.o" "$obj"
	start_trigger getpgid 1 2004
	start_run --set target_pid="$TRIGGER_PID" --format json --count 1 "$BATS_TEST_TMPDIR/nodwarf.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status without DWARF"
	expect_eq "$(jq -r 'has("@hex")' "$OUT")" true "a hex record"
	expect_eq "$(jq -r 'has("pcount") or has("run_delay")' "$OUT")" false "sched_info's members"
	grep -q "hint: map 'events': no struct of the program's own fits its records of 36 bytes" "$ERR" ||
		fail "no hint for the hex records"
}

@test "a record behind bpf_ringbuf_reserve(), filled inline: the filename the test opened" {
	file="$BATS_TEST_TMPDIR/reserve-$$-$RANDOM"
	start_trigger open "$file"
	start_run --set target_pid="$TRIGGER_PID" --format json --duration 30 "$OBJS/decode_reserve.bpf.o"
	go
	stop_when_seen "$file"
	expect_eq "$RUN_STATUS" 0 "exit status"
	rec=$(jq -c --arg f "$file" 'select(.filename == $f)' "$OUT")
	[ -n "$rec" ] || fail "no record with filename $file"
	expect_eq "$(jq -r .pid <<<"$rec")" "$TRIGGER_PID" "pid"
	expect_eq "$(jq -r .comm <<<"$rec")" cli_trigger "comm"
	expect_eq "$(jq -r .dfd <<<"$rec")" -100 "dfd (AT_FDCWD)"
	# one ring for all CPUs: no CPU to show, null in JSON, blank in text
	expect_eq "$(jq -c '."@cpu"' <<<"$rec")" null "@cpu of a ring buffer's record"
	grep -q "map 'opens': records decoded as open_event (88 bytes), from the DWARF local 'e' of reserve_openat (layout from DWARF)" "$ERR" ||
		fail "-v does not say where struct open_event came from"

	file="$BATS_TEST_TMPDIR/reserve-text-$$-$RANDOM"
	start_trigger open "$file"
	start_run --set target_pid="$TRIGGER_PID" --format text --duration 30 "$OBJS/decode_reserve.bpf.o"
	go
	stop_when_seen "$file"
	expect_eq "$RUN_STATUS" 0 "exit status (text)"
	line=$(grep -F -- "$file" "$OUT" | head -1)
	[ -n "$line" ] || fail "no text record with filename $file: $(cat "$OUT")"
	if grep -q '^CPU ' "$OUT"; then
		[[ $line == "   "* ]] || fail "the CPU column is not blank: '$line'"
	else
		[[ $line == "opens  "* ]] || fail "the CPU is not blank: '$line'"
	fi
}

@test "argv packed NUL-separated, the record cut after it: every argument, JSON an array, a text column bare" {
	rm -f "$GO"
	"$TRIGGER" --go "$GO" exec /bin/true alpha "beta gamma" delta &
	TRIGGER_PID=$!
	start_run --format json --duration 30 "$BUILD/bpf/execsnoop.bpf.o"
	go
	stop_when_seen 'beta[ ]gamma'	# a pattern grep's own exec record does not hold
	expect_eq "$RUN_STATUS" 0 "exit status"
	rec=$(jq -c --argjson p "$TRIGGER_PID" 'select(.pid == $p)' "$OUT")
	[ -n "$rec" ] || fail "no record of pid $TRIGGER_PID"
	expect_eq "$(jq -c .args <<<"$rec")" '["/bin/true","alpha","beta gamma","delta"]' "args"
	expect_eq "$(jq -r .comm <<<"$rec")" true "comm, a plain string"

	rm -f "$GO"
	"$TRIGGER" --go "$GO" exec /bin/true one two &
	TRIGGER_PID=$!
	start_run --format text --duration 30 "$BUILD/bpf/execsnoop.bpf.o"
	go
	stop_when_seen '/bin/true[ ]one'
	# one flat stream: columns, the arguments bare
	line=$(grep -a " $TRIGGER_PID .*/bin/true[ ]one" "$OUT")
	[[ "$line" == *" true "*" /bin/true one two" ]] || fail "text: $line"
}

@test "a command line of one argument is a list too: one JSON shape per member" {
	rm -f "$GO"
	"$TRIGGER" --go "$GO" exec /bin/true &
	TRIGGER_PID=$!
	start_run --format json --duration 30 "$BUILD/bpf/execsnoop.bpf.o"
	go
	stop_when_seen "\"pid\":$TRIGGER_PID,"
	expect_eq "$RUN_STATUS" 0 "exit status"
	rec=$(jq -c --argjson p "$TRIGGER_PID" 'select(.pid == $p)' "$OUT")
	[ -n "$rec" ] || fail "no record of pid $TRIGGER_PID"
	expect_eq "$(jq -c .args <<<"$rec")" '["/bin/true"]' "args"
	expect_eq "$(jq -r '[.[] | .args | type] | unique | join(" ")' -s "$OUT")" array \
		"the type of args in every record"
}

@test "two programs send two structs into one map: hex, one line naming both, inspect says so; --type chooses" {
	obj="$OBJS/decode_ambiguous.bpf.o"
	start_trigger getpgid 1 3001 getppid 1
	start_run --set target_pid="$TRIGGER_PID" --format json --count 2 "$obj"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(jq -r 'has("@hex")' "$OUT" | sort -u)" true "hex records"
	expect_eq "$(grep -c '^hint: ' "$ERR")" 1 "hint lines"
	grep -q "^hint: map 'events': the programs send records of several structs (pgid_event, ppid_event): printed as hex; --type events=NAME chooses one" "$ERR" ||
		fail "no hint naming the candidates"
	run "$BPFSDK" inspect --json "$obj"
	expect_eq "$status" 0 "inspect's exit status"
	expect_eq "$(jq -c '.maps[] | select(.name == "events") | .record | [.type, .source, .candidates]' <<<"$output")" \
		'[null,"ambiguous","pgid_event, ppid_event"]' "inspect's record"

	start_trigger getpgid 1 3002
	start_run --set target_pid="$TRIGGER_PID" --format json --count 1 --type events=pgid_event "$obj"
	go
	wait_run
	expect_eq "$(jq -r '"\(.pid) \(.arg)"' "$OUT")" "$TRIGGER_PID 3002" "decoded by --type"
}

@test "--type event and --type events=event decode the same records" {
	build_libbpf_object
	for t in event events=event; do
		start_trigger getpgid 3 1001
		start_run --set target_pid="$TRIGGER_PID" --format json --type "$t" --count 3 "$LIBBPF_OBJ"
		go
		wait_run
		expect_eq "$RUN_STATUS" 0 "exit status with --type $t"
		check_events
		grep -q "records decoded as event (40 bytes), from --type" "$ERR" ||
			fail "-v does not say --type chose the struct"
	done
}

@test "--format text: name=value for a nested record, with the map and the CPU first" {
	build_libbpf_object
	start_trigger getpgid 1 1001
	start_run --set target_pid="$TRIGGER_PID" --format text --count 1 "$LIBBPF_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	line=$(cat "$OUT")
	[[ $line =~ ^events\ [0-9]+\ who=\{pid=$TRIGGER_PID\ tid=$TRIGGER_PID\}\ comm=\"cli_trigger\"\ parity=PARITY_ODD\ low4=9\ next12=62\ top=48879\ arg=1001$ ]] ||
		fail "unexpected text record: $line"
}

@test "a record type larger than the records is one error line; a smaller one reports the excess" {
	build_libbpf_object
	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --type too_big --count 3 "$LIBBPF_OBJ"
	go
	RUN_STATUS=0
	wait "$RUN_PID" || RUN_STATUS=$?
	RUN_PID=
	wait "$TRIGGER_PID"
	cat "$ERR"
	expect_eq "$RUN_STATUS" 1 "exit status with a type larger than the records"
	expect_eq "$(grep -c '^error' "$ERR")" 1 "error lines"
	grep -qx "error: map 'events': a record of 44 bytes is shorter than too_big (64 bytes)" "$ERR" ||
		fail "no error naming the sizes"

	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --type who --count 3 "$LIBBPF_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status with a type smaller than the records"
	expect_eq "$(jq -r '.pid' "$OUT" | sort -u)" "$TRIGGER_PID" "the first bytes decoded as struct who"
	grep -qx "warning: map 'events': 3 records longer than who (8 bytes), up to 44 bytes: the bytes past it are not shown" "$ERR" ||
		fail "the excess is not reported"
}

@test "--type errors: a type or a map the object does not have" {
	build_libbpf_object
	run "$BPFSDK" run --format json --type nope "$LIBBPF_OBJ"
	expect_eq "$status" 2 "exit status"
	expect_eq "$output" "error: --type nope: '$LIBBPF_OBJ' has no type 'nope'" "message"
	run "$BPFSDK" run --format json --type nomap=event "$LIBBPF_OBJ"
	expect_eq "$status" 2 "exit status"
	expect_eq "$output" "error: --type nomap=event: '$LIBBPF_OBJ' has no map 'nomap' (its maps: .rodata, events, .bss)" "message"
}

@test "opensnoop's records as JSON: the unique path and the pid that opened it" {
	file="$BATS_TEST_TMPDIR/decode-$$-$RANDOM.txt"
	echo hello >"$file"
	rm -f "$GO"
	# exec: the pid that opens is the one $! gives
	bash -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec cat "$2"' _ "$GO" "$file" >/dev/null &
	opener=$!
	start_run --set target_tgid="$opener" --format json --duration 30 "$BUILD/bpf/opensnoop.bpf.o"
	go
	wait "$opener"
	stop_when_seen "$file"
	expect_eq "$RUN_STATUS" 0 "exit status"
	rec=$(jq -c --arg f "$file" 'select(.path == $f)' "$OUT")
	[ -n "$rec" ] || fail "no record with path $file"
	expect_eq "$(jq -r .pid <<<"$rec")" "$opener" "pid"
	expect_eq "$(jq -r .comm <<<"$rec")" cat "comm"
	jq -e '.ret >= 0' <<<"$rec" >/dev/null || fail "the open failed: $rec"
}

@test "every gallery object that streams records prints valid JSON Lines" {
	local n=0
	for obj in "$BUILD"/bpf/*.bpf.o; do
		name=$(basename "$obj" .bpf.o)
		"$BPFSDK" inspect --json "$obj" | jq -e '.maps[] | select(.type == "perf_event_array" or .type == "ringbuf")' >/dev/null 2>&1 || continue
		# something for every kind of program to see
		( for _ in $(seq 40); do cat /etc/hostname >/dev/null; echo x >/dev/null; /bin/true; sleep 0.05; done ) &
		busy=$!
		run timeout 20 "$BPFSDK" run --format json --count 5 --duration 3 "$obj"
		kill "$busy" 2>/dev/null || true
		wait "$busy" 2>/dev/null || true
		# kinds this host cannot attach (fentry, kprobes) run in the VM suite
		if [ "$status" -eq 1 ] && [[ $output == *"no program this kernel can attach"* ]]; then
			continue
		fi
		[ "$status" -eq 0 ] || fail "$name: exit status $status: $output"
		while IFS= read -r line; do
			[[ $line == "{"* ]] || continue
			python3 -c 'import json, sys; json.loads(sys.argv[1])' "$line" ||
				fail "$name: not JSON: $line"
			jq -e '."@map" and (."@cpu" | type == "number")' <<<"$line" >/dev/null ||
				fail "$name: no @map or @cpu: $line"
			n=$((n + 1))
		done <<<"$output"
	done
	[ "$n" -gt 0 ] || fail "no gallery object printed a record"
}

@test "opensnoop's own --json and bpfsdk run --format json agree on the same open" {
	file="$BATS_TEST_TMPDIR/agree-$$-$RANDOM.txt"
	echo hello >"$file"
	rm -f "$GO"
	bash -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec cat "$2"' _ "$GO" "$file" >/dev/null &
	opener=$!
	"$BUILD/bin/opensnoop" --json --pid "$opener" >"$BATS_TEST_TMPDIR/sample" \
		2>"$BATS_TEST_TMPDIR/sample.err" &
	sample=$!
	start_run --set target_tgid="$opener" --format json "$BUILD/bpf/opensnoop.bpf.o"
	# the sample says so on stderr once it is attached
	for _ in $(seq 300); do
		grep -q '^opensnoop: tracing ' "$BATS_TEST_TMPDIR/sample.err" && break
		sleep 0.1
	done
	grep -q '^opensnoop: tracing ' "$BATS_TEST_TMPDIR/sample.err" ||
		fail "opensnoop did not start tracing: $(cat "$BATS_TEST_TMPDIR/sample.err")"
	go
	wait "$opener"
	for _ in $(seq 100); do
		grep -q "$file" "$OUT" && grep -q "$file" "$BATS_TEST_TMPDIR/sample" && break
		sleep 0.1
	done
	kill -INT "$RUN_PID" "$sample"
	wait "$sample" || true
	wait_run
	# each tool loaded its own copy of the program: the timestamps differ
	fields='select(.path == $f) | [.pid, .tid, .uid, .comm, .ret, .flags, .dfd, .path] | @json'
	ours=$(jq -r --arg f "$file" "$fields" "$OUT")
	theirs=$(jq -r --arg f "$file" "$fields" "$BATS_TEST_TMPDIR/sample")
	[ -n "$ours" ] || fail "bpfsdk run printed no record of $file"
	expect_eq "$ours" "$theirs" "the fields of the two tools"
}

@test "--sort-by merges by a u64 member; its errors; --timestamp adds @time" {
	build_libbpf_object
	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --type event --sort-by arg \
		--timestamp --count 3 "$LIBBPF_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(jq -r '.arg' "$OUT" | tr '\n' ' ')" "1001 1002 1003 " "records in order of arg"
	now=$(date +%s)
	jq -e --argjson now "$now" '."@time" | type == "number" and . > $now - 600 and . <= $now + 1' \
		"$OUT" >/dev/null || fail "@time is not the time of reading"

	llvm-strip -g -o "$BATS_TEST_TMPDIR/nodwarf.bpf.o" "$LIBBPF_OBJ" ||
		fail "llvm-strip -g failed"
	run "$BPFSDK" run --format json --sort-by arg "$BATS_TEST_TMPDIR/nodwarf.bpf.o"
	expect_eq "$status" 2 "exit status without a type"
	assert_output --partial "error: --sort-by arg: map 'events' has no record type yet"
	run "$BPFSDK" run --format json --type event --sort-by comm "$LIBBPF_OBJ"
	expect_eq "$status" 2 "exit status for a char array"
	assert_output --partial "error: --sort-by comm: the member is not a 64-bit integer"
	run "$BPFSDK" run --format json --type event --sort-by nope "$LIBBPF_OBJ"
	expect_eq "$status" 2 "exit status for no such member"
	assert_output --partial "error: --sort-by nope: event has no member 'nope'"
}

# A copy of $LIBBPF_OBJ whose struct event holds itself (its first member's
# type is the struct): BTF that parses, and that no compiler writes.
hostile_object() {
	command -v llvm-objcopy >/dev/null || skip "llvm-objcopy is not installed"
	HOSTILE_OBJ="$BATS_TEST_TMPDIR/hostile.bpf.o"
	llvm-objcopy --dump-section .BTF="$BATS_TEST_TMPDIR/btf" "$LIBBPF_OBJ" "$BATS_TEST_TMPDIR/tmp.o"
	python3 - "$BATS_TEST_TMPDIR/btf" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
hdr_len, type_off, type_len, str_off = struct.unpack_from('<IIII', b, 4)
t0, s0 = hdr_len + type_off, hdr_len + str_off
fixed = {1: 4, 3: 12, 14: 4, 17: 4}               # INT, ARRAY, VAR, DECL_TAG
each = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}  # per vlen entry
off, tid = t0, 1
while off < t0 + type_len:
    name_off, info = struct.unpack_from('<II', b, off)
    kind, vlen = (info >> 24) & 0x1f, info & 0xffff
    name = b[s0 + name_off:b.index(0, s0 + name_off)]
    if kind == 4 and name == b'event':
        struct.pack_into('<I', b, off + 16, tid)   # member 0's type: itself
    off += 12 + fixed.get(kind, 0) + vlen * each.get(kind, 0)
    tid += 1
open(sys.argv[1], 'wb').write(b)
PY
	llvm-objcopy --update-section .BTF="$BATS_TEST_TMPDIR/btf" "$LIBBPF_OBJ" "$HOSTILE_OBJ"
}

@test "a struct that holds itself: valid JSON, and one warning that it was not shown whole" {
	build_libbpf_object
	hostile_object
	start_trigger getpgid 3 1001
	start_run --set target_pid="$TRIGGER_PID" --format json --type event --count 3 "$HOSTILE_OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" 3 "records"
	while read -r line; do
		python3 -c 'import json, sys; json.loads(sys.argv[1])' "$line" || fail "not JSON: $line"
	done <"$OUT"
	expect_eq "$(grep -c "^warning: map 'events': 3 records not shown whole as event: malformed BTF$" "$ERR")" 1 \
		"the warning"
	expect_eq "$(grep -c '^error' "$ERR")" 0 "error lines"
}

@test "without --format: text when every stream's record type is known, hex when one is not" {
	file="$BATS_TEST_TMPDIR/default-$$-$RANDOM"
	start_trigger open "$file"
	"$BPFSDK" run -v --set target_pid="$TRIGGER_PID" --duration 30 "$OBJS/decode_reserve.bpf.o" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	wait_streaming "$ERR" "$RUN_PID" || fail "bpfsdk run did not start: $(cat "$ERR")"
	go
	stop_when_seen "$file"
	expect_eq "$RUN_STATUS" 0 "exit status (text)"
	grep -q '^CPU  *pid  *dfd  *comm  *filename$' "$OUT" || fail "no text header: $(cat "$OUT")"
	grep -q -- "  cli_trigger  *$file\$" "$OUT" || fail "no decoded record: $(cat "$OUT")"

	# without DWARF the struct behind bpf_ringbuf_reserve() is unknown until a record comes
	command -v llvm-strip >/dev/null || skip "llvm-strip is not installed"
	llvm-strip -g -o "$BATS_TEST_TMPDIR/nodwarf.bpf.o" "$OBJS/decode_reserve.bpf.o"
	file="$BATS_TEST_TMPDIR/default-hex-$$-$RANDOM"
	start_trigger open "$file"
	"$BPFSDK" run -v --set target_pid="$TRIGGER_PID" --duration 30 "$BATS_TEST_TMPDIR/nodwarf.bpf.o" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	wait_streaming "$ERR" "$RUN_PID" || fail "bpfsdk run did not start: $(cat "$ERR")"
	go
	for _ in $(seq 100); do [ -s "$OUT" ] && break; sleep 0.1; done
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status (hex)"
	grep -Eq "^opens -1 88 [0-9a-f]{176}\$" "$OUT" || fail "not a hex record: $(cat "$OUT")"
}
