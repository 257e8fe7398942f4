#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# metrics_attack.bats - `bpfsdk run --metrics` against hostile clients, each
# test with the limit it checks (docs/metrics.md, "Limits"): slowloris,
# idle floods that reconnect, oversized headers, NUL and traversal paths,
# pipelining and keep-alive, a missing Host:. The attackers
# (http_attack.py) target 127.0.0.1 only, on the port bpfsdk took (port 0:
# a free one), and every one of them ends by itself within its seconds;
# teardown kills whatever is left.
#
# The acceptance limits are a scrape served in 2 s and a stop in 0.5 s; a
# starved server took 30 to 60 s to serve and 6 to 10 s to stop. Measured
# on a two-CPU machine with both CPUs kept busy by two shell loops beside
# its other work (the suite run three times): a scrape under 32 slowloris
# clients took at most 0.05 s, under 150 0.26 s, under the idle flood
# 0.40 s (2.2 s while the listen backlog was 64: a dropped SYN waits a
# second), a stop 0.16 to 0.30 s. The scrapes are held to the acceptance's
# 2 s; the stop to 1 s, not 0.5, as the slowest of those stops was 0.3 s
# and a CI machine may be busier still; both fail a server starved as before.
# Most of a stop is the kernel's (strace: the server is down in 30 ms, then
# closing each of the programs' descriptors waits 20 to 60 ms).

load cli_common

ATTACK="$BATS_TEST_DIRNAME/http_attack.py"

setup() {
	cli_setup
	OBJ="$OBJS/metrics_count.bpf.o"
	SLEEPER=$(existing "$BUILD/bin/metrics_sleeper") || fail "metrics_sleeper is not built (run make)"
	for t in curl python3 bpftool; do
		command -v "$t" >/dev/null || fail "$t is not installed (run tools/setup)"
	done
	ATTACK_PID= WATCHDOG_PID=
}

teardown() {
	[ -n "$ATTACK_PID" ] && kill "$ATTACK_PID" 2>/dev/null
	[ -n "$WATCHDOG_PID" ] && kill "$WATCHDOG_PID" 2>/dev/null
	cli_teardown
}

# start_metrics: the sleeper and `bpfsdk run --metrics 127.0.0.1:0` on it, once the sleeper
# has made its calls (the counter a scrape must show); sets RUN_PID, URL, PORT and SLEEPER_PID.
start_metrics() {
	rm -f "$GO"
	"$SLEEPER" "$GO" 20 10000 attacked &
	TRIGGER_PID=$!
	SLEEPER_PID=$TRIGGER_PID
	"$BPFSDK" run --set target_tgid="$TRIGGER_PID" --maps calls,sleep_us \
		--metrics 127.0.0.1:0 "$OBJ" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	for _ in $(seq 300); do
		URL=$(sed -n 's|^metrics: serving \(http://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
		if [ -n "$URL" ]; then
			PORT=${URL#http://127.0.0.1:}
			PORT=${PORT%/metrics}
			touch "$GO"
			wait "$TRIGGER_PID"
			TRIGGER_PID=
			return 0
		fi
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$ERR" >&2
	fail "bpfsdk run did not say where it serves metrics"
}

# attack MODE ARGS...: http_attack.py MODE PORT ARGS in the background, until it says it
# holds its connections; sets ATTACK_PID.
attack() {
	local mode=$1
	shift
	python3 "$ATTACK" "$mode" "$PORT" "$@" >"$BATS_TEST_TMPDIR/attack" 2>&1 &
	ATTACK_PID=$!
	for _ in $(seq 200); do
		grep -q '^ready' "$BATS_TEST_TMPDIR/attack" && return 0
		kill -0 "$ATTACK_PID" 2>/dev/null || break
		sleep 0.05
	done
	cat "$BATS_TEST_TMPDIR/attack" >&2
	fail "the attackers did not connect"
}

# scrape_within LIMIT: three scrapes with curl (10 s at most each), each a 200 with the
# workload's counter, within LIMIT seconds.
scrape_within() {
	local i t
	for i in 1 2 3; do
		run curl -s -o "$BATS_TEST_TMPDIR/scrape" -w '%{http_code} %{time_total}' --max-time 10 "$URL"
		echo "scrape $i: $output"
		t=${output#* }
		[ "${output%% *}" = 200 ] || fail "scrape $i under attack: '$output', not 200"
		awk -v t="$t" -v l="$1" 'BEGIN { exit !(t <= l) }' ||
			fail "scrape $i under attack took $t s, more than $1 s"
		grep -q "^bpfsdk_calls_total{object=\"metrics_count\",pid=\"$SLEEPER_PID\",comm=\"attacked\"} 20$" \
			"$BATS_TEST_TMPDIR/scrape" || fail "scrape $i has no counter of the workload"
	done
}

# kernel_ids: the ids of the programs, maps and links bpfsdk holds open, as "prog 12" lines.
kernel_ids() {
	grep -h -E '^(prog|map|link)_id:' /proc/"$RUN_PID"/fdinfo/* 2>/dev/null |
		sed 's/_id:[[:space:]]*/ /' | sort -u
}

# threads_block_stop: every thread of bpfsdk but its main one (the server's: libmicrohttpd's
# and the guard's) blocks SIGINT and SIGTERM. A signal the kernel gave one of them ran the
# handler there and left the main thread asleep in its wait for records: a run under an idle
# flood did not stop in ten minutes, and the stop tests passed or not by the luck of which
# thread the kernel chose.
threads_block_stop() {
	local t blk n=0
	for t in /proc/"$RUN_PID"/task/*; do
		[ "${t##*/}" = "$RUN_PID" ] && continue
		blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' "$t/status" 2>/dev/null)
		[ -n "$blk" ] || continue	# the thread ended meanwhile
		(((16#$blk & 0x4002) == 0x4002)) ||
			fail "thread ${t##*/} ($(cat "$t/comm")) takes SIGINT or SIGTERM (SigBlk $blk)"
		n=$((n + 1))
	done
	[ "$n" -ge 2 ] || fail "bpfsdk runs $n threads besides its main one, not the server's two"
}

# stop_within LIMIT: SIGTERM to bpfsdk, which must exit 0 within LIMIT seconds, and leave
# none of the programs, maps and links it held in the kernel.
stop_within() {
	local ids t0 t1 status kind id left
	ids=$(kernel_ids)
	[ -n "$ids" ] || fail "bpfsdk holds no program: nothing to check"
	threads_block_stop
	(sleep 30; kill -KILL "$RUN_PID") 2>/dev/null &
	WATCHDOG_PID=$!
	t0=$EPOCHREALTIME
	kill -TERM "$RUN_PID"
	wait "$RUN_PID"
	status=$?
	t1=$EPOCHREALTIME
	kill "$WATCHDOG_PID" 2>/dev/null
	WATCHDOG_PID=
	RUN_PID=
	t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	echo "stopped in $t s, status $status"
	expect_eq "$status" 0 "bpfsdk run's exit status after SIGTERM"
	awk -v t="$t" -v l="$1" 'BEGIN { exit !(t <= l) }' ||
		fail "bpfsdk run took $t s to stop, more than $1 s"
	# ids are released as the descriptors close; allow the kernel 2 s to let them go
	for _ in $(seq 40); do
		left=
		while read -r kind id; do
			bpftool "$kind" show id "$id" >/dev/null 2>&1 && left="$left $kind $id"
		done <<<"$ids"
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	fail "left in the kernel after the run:$left"
}

# code ARGS...: the HTTP status curl gets for ARGS (10 s at most).
code() {
	curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@"
}

@test "with 32 slowloris clients (a header byte every 2 s, reconnecting) a real scrape is served in 2 s" {
	start_metrics
	attack slowloris 32 2 60
	scrape_within 2
}

@test "with 150 slowloris clients, more than libmicrohttpd's 128 slots, a real scrape is served in 2 s" {
	start_metrics
	attack slowloris 150 2 60
	scrape_within 2
}

@test "SIGTERM during a slowloris attack ends the run in 1 s, nothing left in the kernel" {
	start_metrics
	attack slowloris 32 2 60
	stop_within 1
}

@test "with 200 idle clients reconnecting at once when closed a real scrape is served in 2 s" {
	start_metrics
	attack idle 200 60
	scrape_within 2
}

@test "SIGTERM during an idle flood of 200 clients ends the run in 1 s, nothing left in the kernel" {
	start_metrics
	attack idle 200 60
	stop_within 1
}

@test "a request trickled a byte a second is closed 5 s after its first byte (within 5 to 8 s)" {
	start_metrics
	run python3 "$ATTACK" trickle "$PORT" 1 20
	echo "closed after: $output"
	[ "$output" != open ] || fail "a trickling client was never closed"
	awk -v t="$output" 'BEGIN { exit !(t >= 4.5 && t <= 8) }' ||
		fail "a trickling client was closed after $output s, not 5 s (+3 s of slack)"
}

@test "oversized headers are refused (431), an oversized URL too (414), and the server answers on" {
	start_metrics
	big=$(head -c 40000 /dev/zero | tr '\0' a)
	expect_eq "$(code -H "X-Big: $big" "$URL")" 431 "a 40 KB header"
	expect_eq "$(code "$URL?$big")" 414 "a 40 KB URL"
	expect_eq "$(code "$URL")" 200 "a scrape after them"
}

@test "only /metrics itself is served: NUL, traversal and near paths are 404, a query is fine" {
	start_metrics
	for path in '/metrics%00.txt' '/metrics%00' '/metrics/../metrics' '/../metrics' \
		'/metrics/' '/%2e%2e/metrics' '/metrics%2F' '/metricsx' '/Metrics' '//metrics'; do
		expect_eq "$(code --path-as-is "http://127.0.0.1:$PORT$path")" 404 "GET $path"
	done
	expect_eq "$(code "$URL?name=x")" 200 "GET /metrics?name=x"
	expect_eq "$(code -X POST "$URL")" 405 "POST /metrics"
}

@test "keep-alive: two scrapes on one connection, and no Connection: close" {
	start_metrics
	run curl -s -D "$BATS_TEST_TMPDIR/headers" -o /dev/null -o /dev/null \
		-w '%{http_code} %{num_connects}\n' --max-time 10 "$URL" "$URL"
	echo "$output"
	expect_eq "$(echo "$output" | tr '\n' ' ')" "200 1 200 0 " "status and new connections of each"
	! grep -qi '^Connection: close' "$BATS_TEST_TMPDIR/headers" ||
		fail "an answer says Connection: close"
}

@test "pipelining: three requests in one write get three answers" {
	start_metrics
	run python3 "$ATTACK" pipeline "$PORT" 3
	expect_eq "$output" "200 200 200" "the answers' status"
}

@test "HTTP/1.1 without Host: is 400, HTTP/1.0 without it is served" {
	start_metrics
	expect_eq "$(code -H 'Host:' "$URL")" 400 "HTTP/1.1 without Host:"
	expect_eq "$(code --http1.0 -H 'Host:' "$URL")" 200 "HTTP/1.0 without Host:"
}

@test "gzip when the client takes it: the same series, compressed" {
	start_metrics
	run curl -s --compressed -D "$BATS_TEST_TMPDIR/headers" -o "$BATS_TEST_TMPDIR/gz" \
		-w '%{http_code} %{size_download}' --max-time 10 "$URL"
	echo "$output"
	expect_eq "${output%% *}" 200 "a gzip scrape"
	grep -qi '^Content-Encoding: gzip' "$BATS_TEST_TMPDIR/headers" || fail "no Content-Encoding: gzip"
	curl -s -o "$BATS_TEST_TMPDIR/plain" --max-time 10 "$URL"
	! grep -qi '^Content-Encoding' <(curl -s -D - -o /dev/null --max-time 10 "$URL") ||
		fail "a client that takes no gzip got it"
	diff <(sed 's/ [0-9]*$//' "$BATS_TEST_TMPDIR/gz") <(sed 's/ [0-9]*$//' "$BATS_TEST_TMPDIR/plain") ||
		fail "the gzip and plain answers have different series"
	[ "${output#* }" -lt "$(wc -c <"$BATS_TEST_TMPDIR/plain")" ] || fail "the gzip is not smaller"
}
