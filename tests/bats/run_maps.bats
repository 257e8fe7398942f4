#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# run_maps.bats - `bpfsdk run`'s map views: an object that keeps its results
# in maps (tests/bpf/run_hist.bpf.c: a BCC-style log2 histogram with a
# "slots" array in a hash map, and a per-CPU count per key) shows them when
# the run ends and every --interval, with counts that match the calls the
# driver made; a per-CPU histogram among many integers
# (tests/bpf/run_hist_wide.bpf.c) charts and exports every CPU's counts.

load cli_common
bats_require_minimum_version 1.5.0

setup() {
	cli_setup
	OBJ="$OBJS/run_hist.bpf.o"
}

teardown() {
	cli_teardown
}

# The driver's calls: getpgid(1000..1009) -> slot 9 (512..1023), count keys
# 0..3 get 3,3,2,2; getpgid(5000..5002) -> slot 12, keys 0,1,2 one more;
# getpgid(3) -> slot 1, key 3 one more.
fire_known_calls() {
	start_trigger getpgid 10 1000 getpgid 3 5000 getpgid 1 3
	start_run --set target_pid="$TRIGGER_PID" "$@" "$OBJ"
	go
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
}

# row LOW: the count in the chart's row that starts at LOW.
row() {
	awk -v low="$1" '$1 == low && $2 == "->" { print $5 }' "$OUT"
}

@test "a slots histogram prints as a log2 chart at exit, with the counts of the calls made" {
	fire_known_calls
	grep -qx 'latency_us 0:' "$OUT" || fail "no chart heading for latency_us"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT" || fail "no 'usecs' header (unit from the map's name)"
	expect_eq "$(row 2)" 1 "slot 2 -> 3"
	expect_eq "$(row 512)" 10 "slot 512 -> 1023"
	expect_eq "$(row 4096)" 3 "slot 4096 -> 8191"
	expect_eq "$(row 1024)" 0 "slot 1024 -> 2047"
	# the same chart as the gallery draws: 40 stars for the largest count
	grep -Eq '^ +512 -> 1023 +: 10 +\|\*{40}\|$' "$OUT" || fail "the bar of the largest count is not 40 stars"
}

# The value of run_hist_wide.bpf.c holds more integers than the views sum
# (41, and its slots): its chart must still hold every CPU's counts, and
# --metrics export the same histogram. The calls run on a CPU other than 0.
@test "a per-CPU slots histogram among 41 integers: the chart and --metrics count every CPU's calls alike" {
	local cpu prom="$BATS_TEST_TMPDIR/wide.prom"
	cpu=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' | tail -1 | sed 's/.*-//')
	[ -n "$cpu" ] && [ "$cpu" != 0 ] || skip "this shell runs on CPU 0 only"
	rm -f "$GO"
	taskset -c "$cpu" "$TRIGGER" --go "$GO" getpgid 10 1000 getpgid 3 5000 &
	TRIGGER_PID=$!
	start_run --set target_pid="$TRIGGER_PID" --metrics-file "$prom" "$OBJS/run_hist_wide.bpf.o"
	go
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	grep -qx 'wide_us 0:' "$OUT" || fail "no chart of wide_us"
	expect_eq "$(row 512)" 10 "chart: slot 512 -> 1023"
	expect_eq "$(row 4096)" 3 "chart: slot 4096 -> 8191"
	cat "$prom"
	expect_eq "$(sed -n 's/^bpfsdk_wide_seconds_count{object="run_hist_wide",key="0"} //p' "$prom")" 13 \
		"--metrics-file: the histogram's count"
	expect_eq "$(sed -n 's/^bpfsdk_wide_seconds_bucket{object="run_hist_wide",key="0",le="0.001023"} //p' "$prom")" 10 \
		"--metrics-file: the bucket of slot 512 -> 1023"
	expect_eq "$(sed -n 's/^bpfsdk_wide_calls_total{object="run_hist_wide",key="0"} //p' "$prom")" 13 \
		"--metrics-file: the calls counted"
}

@test "a per-CPU count map prints as a table sorted by value, summed over CPUs" {
	fire_known_calls
	table=$(sed -n '/^counts:$/,$p' "$OUT" | sed 1d | grep -v '^received')
	expect_eq "$(head -1 <<<"$table" | tr -s ' ')" " KEY VALUE" "table header"
	expect_eq "$(sed 1d <<<"$table" | awk '{ print $1 "=" $2 }' | sort | tr '\n' ' ')" "0=4 1=4 2=3 3=3 " "counts"
	expect_eq "$(sed 1d <<<"$table" | awk '{ print $2 }' | tr '\n' ' ')" "4 4 3 3 " "largest first"
}

@test "--top 2 shows the two largest and says how many more; --per-cpu shows CPUs apart" {
	fire_known_calls --top 2 --maps counts
	! grep -q latency_us "$OUT" || fail "--maps counts showed latency_us"
	expect_eq "$(sed -n '/^counts:$/,$p' "$OUT" | grep -Ec '^  [0-9]')" 2 "rows with --top 2"
	grep -qx '  (2 more; --top shows 2)' "$OUT" || fail "no '(2 more ...)' line"

	fire_known_calls --per-cpu --maps counts
	expect_eq "$(grep -A1 '^counts:$' "$OUT" | tail -1 | tr -s ' ')" " CPU KEY VALUE" "header with --per-cpu"
	total=$(sed -n '/^counts:$/,$p' "$OUT" | awk '$1 ~ /^[0-9]+$/ { s += $3 } END { print s }')
	expect_eq "$total" 14 "the per-CPU counts add up to the calls"
}

@test "--format json: one object per map entry, slots and counts as numbers" {
	fire_known_calls --format json
	while read -r line; do
		jq -e . >/dev/null <<<"$line" || fail "not JSON: $line"
	done <"$OUT"
	expect_eq "$(jq -c 'select(."@map" == "latency_us") | .value.slots | [.[1], .[9], .[12]]' "$OUT")" \
		"[1,10,3]" "histogram slots"
	expect_eq "$(jq -r 'select(."@map" == "counts") | "\(.key)=\(.value)"' "$OUT" | sort | tr '\n' ' ')" \
		"0=4 1=4 2=3 3=3 " "counts"
}

@test "--interval 1 --clear prints a chart per interval with that interval's calls" {
	rm -f "$GO.2" "$GO.3"
	start_trigger getpgid 2 1000 --go "$GO.2" getpgid 3 5000 --go "$GO.3" getpgid 1 3
	start_run --set target_pid="$TRIGGER_PID" --interval 1 --clear --maps latency_us "$OBJ"
	# each round fires once the chart of the one before is out, so no two
	# share an interval however late a chart comes (at most 10 s each)
	go
	wait_lines 1 '^latency_us 0:$'; touch "$GO.2"
	wait_lines 2 '^latency_us 0:$'; touch "$GO.3"
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	wait_lines 3 '^latency_us 0:$'
	sleep 1.5	# an interval more: a fourth chart would be one too many
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(grep -c '^latency_us 0:$' "$OUT")" 3 "charts, one per round"
	# each chart holds one round only: the map was emptied after each
	expect_eq "$(awk '$2 == "->" && $5 > 0 { print $1 ":" $5 }' "$OUT" | tr '\n' ' ')" \
		"512:2 4096:3 2:1 " "the rounds' slots, in order"
}

@test "--interval 1 --duration 3: three tables, no nearly empty fourth at the end; no received/lost line" {
	run --separate-stderr "$BPFSDK" run --interval 1 --duration 3 --clear --maps hist "$OBJS/../runqlat.bpf.o"
	expect_eq "$status" 0 "exit status"
	expect_eq "$(grep -c '^hist:$' <<<"$output")" 3 "tables"
	[[ $stderr != *received* ]] || fail "a received/lost line for an object whose maps stream nothing: $stderr"
}

@test "global variables: .bss and .data by name at exit, .rodata not, with the counts of the calls made" {
	OBJ="$OBJS/run_globals.bpf.o"
	fire_known_calls
	expect_eq "$(sed -n '/^\.bss:$/{n;p}' "$OUT")" "  calls=14 by_mod=[4, 4, 3, 3]" ".bss"
	expect_eq "$(sed -n '/^\.data:$/{n;p}' "$OUT")" "  last_arg=3" ".data"
	refute grep -q rodata "$OUT"
}

@test "global variables in JSON: one object per section, the variables by name" {
	OBJ="$OBJS/run_globals.bpf.o"
	fire_known_calls --format json
	grep -qx '{"@map":".bss","key":0,"value":{"calls":14,"by_mod":\[4,4,3,3\]}}' "$OUT" ||
		fail "no .bss line with the counts: $(cat "$OUT")"
	grep -qx '{"@map":".data","key":0,"value":{"last_arg":3}}' "$OUT" ||
		fail "no .data line: $(cat "$OUT")"
}

@test "--unit names the values; --maps refuses what is not a result map" {
	fire_known_calls --unit msecs --maps latency_us
	grep -Eq '^ +msecs +: count +distribution$' "$OUT" || fail "--unit msecs not in the header"

	run "$BPFSDK" run --maps nope "$OBJ"
	expect_eq "$status" 2 "exit status for an unknown map"
	expect_eq "$output" "error: --maps nope: '$OBJ' has no map 'nope' (its maps: .rodata, latency_us, counts)" "message"
	run "$BPFSDK" run --maps events "$OBJS/cli_tracepoint.bpf.o"
	expect_eq "$status" 2 "exit status for a perf map"
	expect_eq "$output" "error: --maps events: map 'events' is a perf_event_array, not a hash or array map of results" "message"
	run "$BPFSDK" run --interval 1 "$OBJS/cli_tracepoint.bpf.o"
	expect_eq "$status" 2 "exit status for --interval without maps"
	expect_eq "$output" "error: --interval: '$OBJS/cli_tracepoint.bpf.o' has no maps to show (--maps NAME,... names them)" "message"
}

# ---- an object that streams records keeps a histogram too
# (tests/bpf/stream_hist.bpf.c: a ring buffer of the calls' arguments, a
# one-entry array of log2 "slots" of them, a hash map of working state)

@test "a streaming object's slots histogram is shown at the end; the map left out is named once, with --maps" {
	start_trigger getpgid 10 1000 getpgid 3 5000 getpgid 1 3
	start_run --format hex --set target_tgid="$TRIGGER_PID" "$OBJS/stream_hist.bpf.o"
	go
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	wait_lines 14 '^stream_hist_events '
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	grep -qx 'stream_hist_args:' "$OUT" || fail "no chart of stream_hist_args"
	expect_eq "$(row 2)" 1 "slot 2 -> 3"
	expect_eq "$(row 512)" 10 "slot 512 -> 1023"
	expect_eq "$(row 4096)" 3 "slot 4096 -> 8191"
	! grep -q stream_hist_last "$OUT" || fail "the working map was shown"
	expect_eq "$(grep -c 'stream_hist_last' "$ERR")" 1 "lines naming the map left out"
	grep -qx "note: not shown at the end: map 'stream_hist_last', taken for the working state of an object that streams records (--maps NAME,... shows it)" "$ERR" ||
		fail "no note naming the map left out"
}

@test "--metrics serves a streaming object's slots histogram beside its record count" {
	command -v curl >/dev/null || skip "curl is not installed (run tools/setup)"
	start_trigger getpgid 10 1000 getpgid 3 5000 getpgid 1 3
	"$BPFSDK" run --set target_tgid="$TRIGGER_PID" --metrics 127.0.0.1:0 \
		"$OBJS/stream_hist.bpf.o" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	url=
	for _ in $(seq 300); do
		url=$(sed -n 's|^metrics: serving \(http://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
		[ -n "$url" ] && break
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$url" ] || fail "bpfsdk run did not say where it serves metrics: $(cat "$ERR")"
	go
	wait "$TRIGGER_PID"
	TRIGGER_PID=
	body=
	for _ in $(seq 100); do
		body=$(curl -s "$url")
		grep -q '^bpfsdk_records_total{object="stream_hist",map="stream_hist_events"} 14$' <<<"$body" && break
		sleep 0.1
	done
	grep -q '^bpfsdk_records_total{object="stream_hist",map="stream_hist_events"} 14$' <<<"$body" ||
		fail "no record count of 14: $body"
	grep -q '^bpfsdk_stream_hist_args_bucket{object="stream_hist",le="1023"} 11$' <<<"$body" ||
		fail "no histogram bucket le=1023 of 11: $body"
	grep -q '^bpfsdk_stream_hist_args_count{object="stream_hist"} 14$' <<<"$body" ||
		fail "no histogram count of 14: $body"
	! grep -q 'stream_hist_last' <<<"$body" || fail "the working map was served"
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	grep -qx "note: not shown at the end nor served by --metrics: map 'stream_hist_last', taken for the working state of an object that streams records (--maps NAME,... shows it)" "$ERR" ||
		fail "no note naming the map left out"
}
