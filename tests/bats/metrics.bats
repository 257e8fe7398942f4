#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# metrics.bats - `bpfsdk run --metrics` and `--metrics-file` with the real
# engines, each started here on 127.0.0.1 with ports of its own: Debian's
# Prometheus scrapes bpfsdk every second and is asked, through its HTTP API,
# for the counter of the workload's pid and the median of its latency
# histogram; node_exporter's textfile collector serves the file bpfsdk
# writes; promtool lints every text format 0.0.4 output (Prometheus itself
# parses the OpenMetrics it asks for). The workload (metrics_sleeper) makes
# 20 clock_nanosleep() calls of 10 ms that tests/bpf/metrics_count.bpf.c
# counts by {pid, comm} and times into a log2 histogram of microseconds.

load cli_common

setup() {
	cli_setup
	OBJ="$OBJS/metrics_count.bpf.o"
	SLEEPER=$(existing "$BUILD/bin/metrics_sleeper") || fail "metrics_sleeper is not built (run make)"
	for t in prometheus prometheus-node-exporter promtool curl jq; do
		command -v "$t" >/dev/null || fail "$t is not installed (run tools/setup)"
	done
	D=$BATS_TEST_TMPDIR
	PROM_PID= NODE_PID=
}

teardown() {
	[ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null && wait "$PROM_PID"
	[ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID"
	cli_teardown
}

# free_port: a port nothing listens on now, on 127.0.0.1.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The sleeper's name: a quote, a backslash, a newline and a byte that is not UTF-8, which
# the label must escape (and the U+FFFD it becomes).
COMM=$'q"b\\s\nx\xff'
COMM_LABEL=$'q"b\\s\nx\xef\xbf\xbd'

# start_metrics ARGS...: the sleeper waiting for $GO, then `bpfsdk run
# --metrics 127.0.0.1:0 ARGS` on it; sets SLEEPER_PID, RUN_PID and URL.
start_metrics() {
	rm -f "$GO"
	"$SLEEPER" "$GO" 20 10000 "$COMM" &
	SLEEPER_PID=$!
	TRIGGER_PID=$SLEEPER_PID
	"$BPFSDK" run --set target_tgid="$SLEEPER_PID" --maps calls,sleep_us \
		--metrics 127.0.0.1:0 "$@" "$OBJ" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	for _ in $(seq 300); do
		URL=$(sed -n 's|^metrics: serving \(http://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
		[ -n "$URL" ] && return 0
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$ERR" >&2
	fail "bpfsdk run did not say where it serves metrics"
}

# stop_metrics: Ctrl-C to bpfsdk, which must exit 0.
stop_metrics() {
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "bpfsdk run's exit status after Ctrl-C"
}

# wait_http URL: until URL answers 200 (at most 30 s).
wait_http() {
	for _ in $(seq 300); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ] && return 0
		sleep 0.1
	done
	fail "$1 did not answer 200 in 30 s"
}

# query EXPR: the value of the instant query EXPR at Prometheus, "" when none.
query() {
	curl -s --get --data-urlencode "query=$1" "http://127.0.0.1:$PROM_PORT/api/v1/query" |
		jq -r '.data.result[0].value[1] // empty'
}

# quantile Q KEY FILE: histogram_quantile(Q) of bpfsdk_sleep_seconds{key=KEY} from a scrape,
# computed as Prometheus does: linear within the bucket that holds rank Q * count.
quantile() {
	grep "^bpfsdk_sleep_seconds_bucket{object=\"metrics_count\",key=\"$2\",le=" "$3" |
		sed 's/.*le="\([^"]*\)"} \([0-9]*\)$/\1 \2/' |
		awk -v q="$1" '{ le[NR] = $1; c[NR] = $2; n = NR }
			END {
				rank = q * c[n]
				for (i = 1; i <= n; i++) if (c[i] >= rank) break
				if (le[i] == "+Inf") { printf "%.17g\n", le[n - 1]; exit }
				start = i > 1 ? le[i - 1] : 0; below = i > 1 ? c[i - 1] : 0
				printf "%.17g\n", start + (le[i] - start) * (rank - below) / (c[i] - below)
			}'
}

@test "Prometheus scrapes bpfsdk run --metrics: the workload's counter and its median latency" {
	start_metrics
	PROM_PORT=$(free_port)
	target=${URL#http://}
	target=${target%/metrics}
	cat >"$D/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	scrape_configs:
	  - job_name: bpfsdk
	    static_configs:
	      - targets: ['$target']
	EOF
	prometheus --config.file="$D/prometheus.yml" --storage.tsdb.path="$D/data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn 2>"$D/prometheus.log" &
	PROM_PID=$!
	wait_http "http://127.0.0.1:$PROM_PORT/-/ready"
	go
	wait "$SLEEPER_PID"
	TRIGGER_PID=
	# until a scrape after the last sleep: 20 calls counted, 20 in the
	# histogram (both read from the maps at the scrape), 20 records read
	# (counted by the loop as it reads them, a moment later)
	for _ in $(seq 200); do
		[ "$(query "bpfsdk_calls_total{pid=\"$SLEEPER_PID\"}")" = 20 ] &&
			[ "$(query "bpfsdk_sleep_seconds_count{key=\"$SLEEPER_PID\"}")" = 20 ] &&
			[ "$(query 'bpfsdk_records_total{map="events"}')" = 20 ] && break
		sleep 0.1
	done
	expect_eq "$(query "bpfsdk_calls_total{object=\"metrics_count\",pid=\"$SLEEPER_PID\"}")" 20 \
		"Prometheus: the sleeper's clock_nanosleep calls"
	# the name came through the escaping whole: what Prometheus holds is the bytes
	got=$(curl -s --get --data-urlencode "query=bpfsdk_calls_total{pid=\"$SLEEPER_PID\"}" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" | jq -j '.data.result[0].metric.comm')
	[ "$got" = "$COMM_LABEL" ] ||
		fail "Prometheus' comm label: $(printf %q "$got"), expected $(printf %q "$COMM_LABEL")"
	expect_eq "$(query 'up{job="bpfsdk"}')" 1 "Prometheus: the target is up (its OpenMetrics parsed)"
	expect_eq "$(query "bpfsdk_records_total{map=\"events\"}")" 20 "Prometheus: records received"
	expect_eq "$(query "bpfsdk_records_lost_total{map=\"events\"}")" 0 "Prometheus: records lost"

	# the median Prometheus computes from the buckets is the one they imply
	curl -s "$URL" >"$D/scrape.txt"
	want=$(quantile 0.5 "$SLEEPER_PID" "$D/scrape.txt")
	got=$(query "histogram_quantile(0.5, bpfsdk_sleep_seconds_bucket{key=\"$SLEEPER_PID\"})")
	echo "median: Prometheus $got, from the buckets $want"
	awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= 1e-9 * b) }' ||
		fail "histogram_quantile(0.5): Prometheus says '$got', the scraped buckets give '$want'"
	# every sleep was 10 ms or more: the median's bucket starts at 8.191 ms or later
	awk -v a="$got" 'BEGIN { exit !(a >= 0.008191) }' ||
		fail "a median of $got s for sleeps of 10 ms"

	promtool check metrics <"$D/scrape.txt" || fail "promtool: the text format 0.0.4 scrape"
	# OpenMetrics when asked for, ending in # EOF
	curl -s -D "$D/headers" -H 'Accept: application/openmetrics-text; version=1.0.0' "$URL" >"$D/om.txt"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$D/headers" ||
		fail "OpenMetrics content type: $(cat "$D/headers")"
	expect_eq "$(tail -1 "$D/om.txt")" "# EOF" "OpenMetrics' last line"
	grep -qx '# TYPE bpfsdk_calls counter' "$D/om.txt" || fail "OpenMetrics: the counter family without _total"
	stop_metrics
	# the server went with it
	expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "$URL")" 000 "a scrape after Ctrl-C"
}

@test "node_exporter's textfile collector serves what --metrics-file writes" {
	mkdir "$D/textfile"
	start_metrics --metrics-file "$D/textfile/bpfsdk.prom" --interval 0.5
	NODE_PORT=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$NODE_PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$D/textfile" 2>"$D/node.log" &
	NODE_PID=$!
	wait_http "http://127.0.0.1:$NODE_PORT/metrics"
	go
	wait "$SLEEPER_PID"
	TRIGGER_PID=
	want="bpfsdk_calls_total{comm=\"q\\\"b\\\\s\\nx"$'\xef\xbf\xbd'"\",object=\"metrics_count\",pid=\"$SLEEPER_PID\"} 20"
	for _ in $(seq 100); do
		curl -s "http://127.0.0.1:$NODE_PORT/metrics" >"$D/node.txt"
		grep -qxF "$want" "$D/node.txt" && break
		sleep 0.1
	done
	grep -qxF "$want" "$D/node.txt" || fail "node_exporter does not serve '$want'"
	grep -qx 'node_textfile_scrape_error 0' "$D/node.txt" ||
		fail "node_exporter could not read the file: $(grep textfile "$D/node.txt")"
	grep -q "^bpfsdk_sleep_seconds_count{key=\"$SLEEPER_PID\",object=\"metrics_count\"} 20$" "$D/node.txt" ||
		fail "node_exporter: the histogram's count"
	stop_metrics
	promtool check metrics <"$D/textfile/bpfsdk.prom" || fail "promtool: the metrics file"
	grep -q 'bpfsdk_records_total{object="metrics_count",map="events"} 20' "$D/textfile/bpfsdk.prom" ||
		fail "the last write has every record counted"
	expect_eq "$(ls "$D/textfile")" bpfsdk.prom "files left beside the metrics file"
}

@test "the server: 404, 405, a silent client, a 1 MiB request line, and keys no label holds" {
	"$BPFSDK" run --set target_tgid=$$ --maps by_union,by_pair --metrics :0 "$OBJ" \
		>"$OUT" 2>"$ERR" &
	RUN_PID=$!
	for _ in $(seq 300); do
		URL=$(sed -n 's|^metrics: serving \(http://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
		[ -n "$URL" ] && break
		sleep 0.1
	done
	[ -n "$URL" ] || fail "no address said: $(cat "$ERR")"
	# one warning per map whose key no label holds as it is
	expect_eq "$(grep -c "^warning: map 'by_union': its key is a union" "$ERR")" 1 "by_union's warning"
	expect_eq "$(grep -c "^warning: map 'by_pair': no key member can be a label ('ids' (an array)" "$ERR")" 1 \
		"by_pair's warning"
	expect_eq "$(grep -c . "$ERR")" 3 "lines on stderr: two warnings and the address"
	expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "${URL%/metrics}/")" 404 "GET /"
	expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL")" 405 "POST /metrics"
	curl -s -D - -o /dev/null -X DELETE "$URL" | grep -qi '^allow: GET, HEAD' || fail "405 without Allow"
	# a client that connects and says nothing holds no scrape up
	port=${URL#http://127.0.0.1:}; port=${port%/metrics}
	exec 5<>"/dev/tcp/127.0.0.1/$port"
	expect_eq "$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$URL")" 200 "a scrape beside a silent client"
	exec 5>&-
	# a request line of 1 MiB is refused, and the server goes on
	code=$(python3 - "$port" <<-'EOF'
	import socket, sys
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
	try:
	    s.sendall(b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
	except OSError:
	    pass
	try:
	    print(s.recv(64).split(b" ")[1].decode())
	except (OSError, IndexError):
	    print("closed")
	EOF
	)
	echo "1 MiB request line: $code"
	[[ $code =~ ^(414|431|400|closed)$ ]] || fail "a 1 MiB request line got '$code'"
	curl -s "$URL" >"$D/scrape.txt"
	grep -q '^# TYPE bpfsdk_by_union_total counter$' "$D/scrape.txt" ||
		fail "the server does not answer after the long request"
	promtool check metrics <"$D/scrape.txt" || fail "promtool: the scrape"
	kill -INT "$RUN_PID"
	wait "$RUN_PID" || fail "exit status $? after Ctrl-C"
	RUN_PID=
}

@test "bad --metrics values: one error line each, and the exit status of a usage error" {
	for args in "--metrics nohost:port" "--metrics 127.0.0.1:70000" \
		"--metrics :0 --clear" "--metrics :0 --metrics-prefix 9x" \
		"--metrics-max-series 0 --metrics :0" "--metrics-prefix x"; do
		run "$BPFSDK" run $args "$OBJ"
		echo "$args -> $status: $output"
		expect_eq "$status" 2 "exit status of '$args'"
		expect_eq "$(grep -c '^error: ' <<<"$output")" 1 "error lines of '$args'"
	done
	# a port another program holds: the runtime's error
	python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' >"$D/port" &
	holder=$!
	for _ in $(seq 50); do [ -s "$D/port" ] && break; sleep 0.1; done
	run "$BPFSDK" run --metrics "127.0.0.1:$(cat "$D/port")" "$OBJ"
	kill "$holder"
	echo "$output"
	expect_eq "$status" 1 "exit status with the port taken"
	[[ $output == *"error: metrics address '127.0.0.1:"*"': cannot listen: Address already in use"* ]] ||
		fail "no error naming the taken port"
}
