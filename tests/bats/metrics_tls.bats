#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# metrics_tls.bats - `bpfsdk run --metrics` under a web configuration file
# (--web-config: TLS, client certificates, basic auth), with the privileges
# a long run keeps. A CA, a server and two client certificates are made
# here by openssl for 127.0.0.1; Debian's Prometheus scrapes over HTTPS with
# basic_auth and tls_config, curl tries what must be refused, strace shows a
# bad file stops run before its first bpf() call, /proc/PID/status shows the
# capabilities after attach. Every server listens on 127.0.0.1, on a port
# the kernel chose (port 0) or a free one asked for.

load cli_common

# the password of user prom, and its bcrypt hash (cost 10)
PASSWORD='s3cret pass'
HASH='$2b$10$TeKCB3oc5AzwpuBgN0XylOy5XH6vFwnOjfvo4/48D7wGC/sock/QC'

setup() {
	cli_setup
	OBJ="$OBJS/metrics_count.bpf.o"
	SLEEPER=$(existing "$BUILD/bin/metrics_sleeper") || fail "metrics_sleeper is not built (run make)"
	for t in prometheus curl jq openssl strace python3; do
		command -v "$t" >/dev/null || fail "$t is not installed (run tools/setup)"
	done
	D=$BATS_TEST_TMPDIR
	PROM_PID= SLEEPER_PID= FLOOD_PID=
	make_pki
}

teardown() {
	[ -n "$FLOOD_PID" ] && kill "$FLOOD_PID" 2>/dev/null
	[ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null && wait "$PROM_PID"
	[ -n "$SLEEPER_PID" ] && kill "$SLEEPER_PID" 2>/dev/null
	cli_teardown
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# make_pki: ca.crt, server.crt/key for IP 127.0.0.1, client.crt/key signed by the CA,
# other.crt/key signed by another CA, in $D.
make_pki() {
	local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
	(
		cd "$D" || exit 1
		openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.crt -days 2 -subj /CN=bpfsdk-test-ca
		openssl req -x509 "${ec[@]}" -keyout ca2.key -out ca2.crt -days 2 -subj /CN=another-ca
		printf 'subjectAltName=IP:127.0.0.1\n' >san.ext
		for c in server:ca client:ca other:ca2; do
			openssl req "${ec[@]}" -keyout "${c%:*}.key" -out "${c%:*}.csr" -subj "/CN=${c%:*}"
			openssl x509 -req -in "${c%:*}.csr" -CA "${c#*:}.crt" -CAkey "${c#*:}.key" \
				-CAcreateserial -out "${c%:*}.crt" -days 2 -extfile san.ext
		done
	) >"$D/openssl.log" 2>&1 || fail "openssl: $(cat "$D/openssl.log")"
}

# web_config AUTH [MIN_VERSION]: $D/web.yml with the server's certificate, client_auth_type
# AUTH (the CA with any but NoClientCert), min_version MIN_VERSION, user prom.
web_config() {
	{
		echo "tls_server_config:"
		echo "  cert_file: server.crt"
		echo "  key_file: server.key"
		[ "$1" = NoClientCert ] || echo "  client_ca_file: ca.crt"
		echo "  client_auth_type: $1"
		[ -z "${2:-}" ] || echo "  min_version: $2"
		echo "basic_auth_users:"
		echo "  prom: $HASH"
	} >"$D/web.yml"
}

# serve ARGS...: the sleeper waiting for $GO, `bpfsdk run --metrics 127.0.0.1:0 ARGS` on it
# (after ARGS, the command that starts run: setpriv ...; none by default); sets SLEEPER_PID,
# RUN_PID and URL once run says it serves and it is streaming.
serve() {
	[ -z "$SLEEPER_PID" ] || kill "$SLEEPER_PID"
	rm -f "$GO"
	"$SLEEPER" "$GO" 20 10000 sleepy 3>&- &
	SLEEPER_PID=$!
	${PREFIX_CMD:-} "$BPFSDK" run -v --set target_tgid="$SLEEPER_PID" --maps calls,sleep_us \
		--metrics 127.0.0.1:0 "$@" "$OBJ" >"$OUT" 2>"$ERR" 3>&- &
	RUN_PID=$!
	wait_streaming "$ERR" "$RUN_PID" || fail "bpfsdk run did not start: $(cat "$ERR")"
	URL=$(sed -n 's|^metrics: serving \(https*://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
	[ -n "$URL" ] || fail "bpfsdk run did not say where it serves: $(cat "$ERR")"
}

# workload: the sleeper's 20 sleeps, done.
workload() {
	go
	wait "$SLEEPER_PID"
	SLEEPER_PID=
}

stop_run() {
	kill -INT "$RUN_PID"
	wait_run
	expect_eq "$RUN_STATUS" 0 "bpfsdk run's exit status after Ctrl-C"
}

# code CURL_ARGS...: the HTTP status curl got from $URL (000: no answer).
code() {
	curl -s -m 10 -o /dev/null -w '%{http_code}' "$@" "$URL"
}

# checked CURL_ARGS...: code, asked again while it is 429 (bcrypt's time spent: the password
# not checked, docs/metrics.md "Limits"), 20 times at most, 0.25 s apart.
checked() {
	local c
	for _ in $(seq 20); do
		c=$(code "$@")
		[ "$c" = 429 ] || break
		sleep 0.25
	done
	echo "$c"
}

query() {
	curl -s --get --data-urlencode "query=$1" "http://127.0.0.1:$PROM_PORT/api/v1/query" |
		jq -r '.data.result[0].value[1] // empty'
}

@test "Prometheus scrapes over HTTPS with a client certificate and basic auth: up 1 and the counter; without credentials up 0" {
	web_config RequireAndVerifyClientCert
	serve --web-config "$D/web.yml"
	[[ $URL == https://* ]] || fail "served at $URL, not https"
	target=${URL#https://}
	target=${target%/metrics}
	PROM_PORT=$(free_port)
	# three jobs on the one target: with everything, without basic auth, with a wrong password
	job() {
		echo "  - job_name: $1"
		echo "    scheme: https"
		echo "    tls_config: { ca_file: '$D/ca.crt', cert_file: '$D/client.crt', key_file: '$D/client.key' }"
		[ -z "$2" ] || echo "    basic_auth: { username: prom, password: '$2' }"
		echo "    static_configs: [ { targets: ['$target'] } ]"
	}
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n'
		job secure "$PASSWORD"
		job noauth ""
		job wrongpw "not $PASSWORD"
	} >"$D/prometheus.yml"
	prometheus --config.file="$D/prometheus.yml" --storage.tsdb.path="$D/data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn 2>"$D/prometheus.log" 3>&- &
	PROM_PID=$!
	for _ in $(seq 300); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PROM_PORT/-/ready")" = 200 ] && break
		sleep 0.1
	done
	workload
	for _ in $(seq 200); do
		[ "$(query 'bpfsdk_calls_total{job="secure"}')" = 20 ] &&
			[ -n "$(query 'up{job="noauth"}')" ] && [ -n "$(query 'up{job="wrongpw"}')" ] && break
		sleep 0.1
	done
	expect_eq "$(query 'up{job="secure"}')" 1 "up of the job with the client certificate and basic auth"
	expect_eq "$(query 'bpfsdk_calls_total{job="secure",comm="sleepy"}')" 20 \
		"Prometheus over HTTPS: the sleeper's calls"
	expect_eq "$(query 'bpfsdk_records_total{job="secure",map="events"}')" 20 "records received"
	expect_eq "$(query 'up{job="noauth"}')" 0 "up without basic auth"
	expect_eq "$(query 'up{job="wrongpw"}')" 0 "up with a wrong password"
	expect_eq "$(query 'count(bpfsdk_calls_total{job=~"noauth|wrongpw"})')" "" \
		"series scraped without the right credentials"
	stop_run
}

@test "curl: a wrong or missing password is 401 with WWW-Authenticate, plain HTTP to the TLS port gets nothing, min_version TLS13 refuses TLS 1.2" {
	web_config NoClientCert TLS13
	serve --web-config "$D/web.yml"
	tls=(--cacert "$D/ca.crt")
	expect_eq "$(code "${tls[@]}")" 401 "no credentials"
	expect_eq "$(checked "${tls[@]}" -u "prom:not $PASSWORD")" 401 "a wrong password"
	expect_eq "$(checked "${tls[@]}" -u "nobody:$PASSWORD")" 401 "an unknown user with prom's password"
	expect_eq "$(checked "${tls[@]}" -u "prom:")" 401 "an empty password"
	for _ in $(seq 20); do
		curl -s -D - -o /dev/null "${tls[@]}" -u "prom:x" "$URL" | tr -d '\r' >"$D/headers"
		grep -q '^HTTP/[0-9.]* 429' "$D/headers" || break
		sleep 0.25
	done
	grep -qx 'WWW-Authenticate: Basic realm="bpfsdk"' "$D/headers" ||
		fail "401 without WWW-Authenticate: $(cat "$D/headers")"
	workload
	expect_eq "$(checked "${tls[@]}" -u "prom:$PASSWORD")" 200 "the right password"
	curl -s "${tls[@]}" -u "prom:$PASSWORD" "$URL" >"$D/scrape.txt"
	grep -qx 'bpfsdk_calls_total{object="metrics_count",pid="[0-9]*",comm="sleepy"} 20' "$D/scrape.txt" ||
		fail "the scrape over HTTPS: $(grep calls "$D/scrape.txt")"
	# the right password is remembered (a hash, not a bcrypt run, for the next scrape): a
	# wrong one, or its prefix, after it is still refused
	expect_eq "$(checked "${tls[@]}" -u "prom:${PASSWORD% *}")" 401 "a prefix of the password after the right one"
	expect_eq "$(checked "${tls[@]}" -u "prom:$PASSWORD ")" 401 "the password and a blank after the right one"
	expect_eq "$(checked "${tls[@]}" -u "prom:$PASSWORD")" 200 "the right password again"
	# the server's certificate is checked against the CA: another CA does not take it
	expect_eq "$(code --cacert "$D/ca2.crt" -u "prom:$PASSWORD")" 000 "curl trusting another CA"
	expect_eq "$(curl -s -m 10 -o /dev/null -w '%{http_code}' -u "prom:$PASSWORD" "${URL/https:/http:}")" \
		000 "plain HTTP to the TLS port"
	expect_eq "$(checked "${tls[@]}" -u "prom:$PASSWORD" --tlsv1.2 --tls-max 1.2)" 000 "TLS 1.2 under min_version TLS13"
	expect_eq "$(checked "${tls[@]}" -u "prom:$PASSWORD" --tlsv1.3)" 200 "TLS 1.3"
	stop_run
}

# A flood of wrong passwords against the bcrypt budget (docs/metrics.md, "Limits": bcrypt may
# take 250 ms of the server's thread a second, 500 ms saved): the scrapes with the right
# password, remembered, are served within the 2 s metrics_attack.bats allows a scrape under
# attack; a check past the budget is 429, so the flood gets some 429s. Without the budget
# each wrong password was a bcrypt run in the server's thread (50 to 180 ms here), and 8
# clients sending them back to back held every scrape behind them.
@test "a flood of wrong passwords: bcrypt keeps to its time (429 past it), the right password is served in 2 s" {
	printf 'basic_auth_users:\n  prom: %s\n' "$HASH" >"$D/web.yml"
	serve --web-config "$D/web.yml"
	workload
	port=${URL#http://127.0.0.1:}
	port=${port%/metrics}
	expect_eq "$(code -u "prom:$PASSWORD")" 200 "the right password, before the flood"
	python3 "$BATS_TEST_DIRNAME/http_attack.py" wrongpw "$port" 8 6 prom >"$D/flood" 2>&1 &
	FLOOD_PID=$!
	for _ in $(seq 100); do
		grep -q '^ready' "$D/flood" && break
		sleep 0.05
	done
	grep -q '^ready' "$D/flood" || fail "the flood did not start: $(cat "$D/flood")"
	# into the flood: once bcrypt's time is spent, a wrong password is 429, Retry-After: 1
	for _ in $(seq 100); do
		[ "$(curl -s -m 10 -D "$D/headers" -o /dev/null -w '%{http_code}' -u prom:probe "$URL")" = 429 ] &&
			break
		sleep 0.05
	done
	tr -d '\r' <"$D/headers" | grep -qx 'Retry-After: 1' ||
		fail "no 429 with Retry-After during the flood: $(cat "$D/headers")"
	for i in 1 2 3; do
		run curl -s -u "prom:$PASSWORD" -o "$D/scrape" -w '%{http_code} %{time_total}' --max-time 10 "$URL"
		echo "scrape $i: $output"
		expect_eq "${output%% *}" 200 "scrape $i during the flood"
		awk -v t="${output#* }" 'BEGIN { exit !(t <= 2) }' ||
			fail "scrape $i during the flood took ${output#* } s, more than 2 s"
		grep -q 'comm="sleepy"} 20$' "$D/scrape" || fail "scrape $i has no counter of the workload"
	done
	# the flood ends by itself after 6 s (each request has 10 s at most)
	for _ in $(seq 400); do
		kill -0 "$FLOOD_PID" 2>/dev/null || break
		sleep 0.05
	done
	wait "$FLOOD_PID" || fail "the flood failed: $(cat "$D/flood")"
	FLOOD_PID=
	read -r _ wrong _ busy _ other < <(grep '^401' "$D/flood")
	echo "flood: 401 $wrong, 429 $busy, other $other"
	[ "${wrong:-0}" -gt 0 ] || fail "no wrong password was checked (401): $(cat "$D/flood")"
	[ "${busy:-0}" -gt 0 ] || fail "no request of the flood was refused unchecked (429): bcrypt ran for every one"
	expect_eq "$other" 0 "requests of the flood without an answer"
	stop_run
}

@test "client certificates: RequireAndVerifyClientCert refuses none and another CA's; VerifyClientCertIfGiven takes none" {
	web_config RequireAndVerifyClientCert
	serve --web-config "$D/web.yml"
	auth=(--cacert "$D/ca.crt" -u "prom:$PASSWORD")
	expect_eq "$(code "${auth[@]}")" 403 "no client certificate"
	expect_eq "$(code "${auth[@]}" --cert "$D/other.crt" --key "$D/other.key")" 403 \
		"a client certificate of another CA"
	expect_eq "$(code "${auth[@]}" --cert "$D/client.crt" --key "$D/client.key")" 200 \
		"the CA's client certificate"
	expect_eq "$(code --cacert "$D/ca.crt" --cert "$D/client.crt" --key "$D/client.key")" 401 \
		"the CA's client certificate without basic auth"
	stop_run
	web_config VerifyClientCertIfGiven
	serve --web-config "$D/web.yml"
	expect_eq "$(code "${auth[@]}")" 200 "VerifyClientCertIfGiven: no client certificate"
	expect_eq "$(code "${auth[@]}" --cert "$D/other.crt" --key "$D/other.key")" 403 \
		"VerifyClientCertIfGiven: another CA's"
	stop_run
}

# bad_config NAME LINE KEY CONTENT: run with the file NAME.yml holding CONTENT must say one
# error line "error: --web-config FILE:LINE: KEY...", exit 2, and make no bpf() call.
bad_config() {
	printf '%s\n' "$4" >"$D/$1.yml"
	run strace -f -qq -e trace=bpf -e signal=none -o "$D/trace" \
		"$BPFSDK" run --metrics 127.0.0.1:0 --web-config "$D/$1.yml" --duration 1 "$OBJ"
	echo "$1 -> $status: $output"
	expect_eq "$status" 2 "exit status for $1"
	expect_eq "$(grep -c . <<<"$output")" 1 "lines of output for $1"
	[[ $output == "error: --web-config $D/$1.yml:$2: $3"* ]] ||
		fail "$1: the error does not name $1.yml:$2: $3"
	expect_eq "$(grep -c 'bpf(' "$D/trace")" 0 "bpf() calls before the error for $1"
}

@test "a bad web configuration is one error line naming the file, the line and the key, before anything is loaded" {
	cert=$'tls_server_config:\n  cert_file: server.crt'
	bad_config yaml 3 "not YAML" $'tls_server_config:\n  cert_file: [server.crt\n  key_file: x'
	bad_config top 2 "tls_server_confg: unknown field" $'# typo\ntls_server_confg:\n  cert_file: x'
	bad_config field 3 "tls_server_config.key_fil: unknown field" "$cert"$'\n  key_fil: server.key'
	bad_config nokey 2 "tls_server_config: key_file is missing" "$cert"
	bad_config keyfile 2 "tls_server_config.key_file: cannot read '$D/none.key'" \
		$'tls_server_config:\n  key_file: none.key\n  cert_file: server.crt'
	echo "not a certificate" >"$D/junk.crt"
	bad_config junkcert 2 "tls_server_config.cert_file, key_file: " \
		$'tls_server_config:\n  cert_file: junk.crt\n  key_file: server.key'
	bad_config mismatch 2 "tls_server_config.cert_file, key_file: " \
		"$cert"$'\n  key_file: client.key'
	bad_config authtype 4 "tls_server_config.client_auth_type: 'RequireCert' is none of" \
		"$cert"$'\n  key_file: server.key\n  client_auth_type: RequireCert'
	bad_config noca 2 "tls_server_config.client_auth_type: RequireAndVerifyClientCert needs client_ca_file" \
		"$cert"$'\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert'
	bad_config tls11 4 "tls_server_config.min_version: 'TLS11' is not offered" \
		"$cert"$'\n  key_file: server.key\n  min_version: TLS11'
	bad_config hash 3 "basic_auth_users: prom: the password is not a bcrypt hash" \
		$'basic_auth_users:\n  admin: '"$HASH"$'\n  prom: s3cret'
	bad_config twice 3 "basic_auth_users: 'prom' is named twice" \
		$'basic_auth_users:\n  prom: '"$HASH"$'\n  prom: '"$HASH"
	bad_config http 1 "http_server_config: not supported here" $'http_server_config:\n  http2: false'
	# a file that cannot be read at all
	run "$BPFSDK" run --metrics :0 --web-config "$D/none.yml" "$OBJ"
	expect_eq "$status" 2 "exit status for a missing file"
	expect_eq "$output" "error: --web-config $D/none.yml: cannot read: No such file or directory" \
		"a missing file"
	run "$BPFSDK" run --web-config "$D/hash.yml" "$OBJ"
	expect_eq "$status" 2 "exit status of --web-config without --metrics"
	# node_exporter's name of the option is the same option
	run "$BPFSDK" run --metrics :0 --web.config.file "$D/hash.yml" "$OBJ"
	expect_eq "$status" 2 "exit status of --web.config.file"
	[[ $output == "error: --web-config $D/hash.yml:3: basic_auth_users: prom: the password is not a bcrypt hash"* ]] ||
		fail "--web.config.file: $output"
	# the control: a good file goes on to load (the check above can see bpf() calls)
	web_config NoClientCert
	run strace -f -qq -e trace=bpf -e signal=none -o "$D/trace" \
		"$BPFSDK" run --metrics 127.0.0.1:0 --web-config "$D/web.yml" --duration 0.2 "$OBJ"
	expect_eq "$status" 0 "exit status with a good file"
	[ "$(grep -c 'bpf(' "$D/trace")" -gt 0 ] || fail "no bpf() call seen with a good file"
}

# caps PID: its CapInh, CapPrm, CapEff, CapBnd, CapAmb and NoNewPrivs lines, one line.
caps() {
	grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' "/proc/$1/status" | tr -s '\t\n' ' '
}

@test "a long run keeps no capability once attached, sets no_new_privs, and still reads its maps and rings" {
	web_config NoClientCert
	serve --web-config "$D/web.yml"
	got=$(caps "$RUN_PID")
	echo "after attach: $got"
	expect_eq "$got" "CapInh: 0000000000000000 CapPrm: 0000000000000000 CapEff: 0000000000000000 CapBnd: 0000000000000000 CapAmb: 0000000000000000 NoNewPrivs: 1 " \
		"bpfsdk run's capabilities after attach"
	grep -q '^privileges: every capability dropped, no_new_privs set$' "$ERR" || fail "-v does not say it"
	workload
	curl -s --cacert "$D/ca.crt" -u "prom:$PASSWORD" "$URL" >"$D/scrape.txt"
	grep -q '^bpfsdk_calls_total{.*comm="sleepy"} 20$' "$D/scrape.txt" || fail "the hash map, read without capabilities"
	grep -q '^bpfsdk_records_total{object="metrics_count",map="events"} 20$' "$D/scrape.txt" ||
		fail "the perf ring, read without capabilities"
	stop_run
	grep -q '^received 20, lost 0$' "$ERR" || fail "the summary"
	grep -q 'pid=[0-9]* comm="sleepy" *20' "$OUT" || fail "the map view printed at the end"
}

@test "as the unit runs it: a user with CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH loads, reads a root-only key, then holds none" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$BPFSDK" ||
		skip "nobody cannot execute $BPFSDK (a checkout under a private directory)"
	web_config NoClientCert
	chmod 600 "$D/server.key"
	caps="+bpf,+perfmon,+dac_read_search"
	PREFIX_CMD="setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs --inh-caps=$caps --ambient-caps=$caps --bounding-set=-all,$caps"
	serve --web-config "$D/web.yml"
	grep -E '^(Uid|CapEff|CapPrm|CapAmb):' "/proc/$RUN_PID/status" | tr -s '\t\n' ' ' >"$D/status"
	echo "after attach: $(cat "$D/status")"
	expect_eq "$(cat "$D/status")" "Uid: 65534 65534 65534 65534 CapPrm: 0000000000000000 CapEff: 0000000000000000 CapAmb: 0000000000000000 " \
		"nobody's run after attach"
	workload
	curl -s --cacert "$D/ca.crt" -u "prom:$PASSWORD" "$URL" >"$D/scrape.txt"
	grep -q '^bpfsdk_calls_total{.*comm="sleepy"} 20$' "$D/scrape.txt" || fail "the scrape"
	stop_run
}

@test "--user: the uid and groups switch once attached; refused for pinned maps and unknown users" {
	web_config NoClientCert
	serve --user nobody --web-config "$D/web.yml"
	grep -E '^(Uid|Gid|Groups|CapEff):' "/proc/$RUN_PID/status" | tr -s '\t\n' ' ' >"$D/status"
	echo "after attach: $(cat "$D/status")"
	expect_eq "$(cat "$D/status")" "Uid: 65534 65534 65534 65534 Gid: 65534 65534 65534 65534 Groups: 65534 CapEff: 0000000000000000 " \
		"--user nobody after attach"
	workload
	curl -s --cacert "$D/ca.crt" -u "prom:$PASSWORD" "$URL" | grep -q '^bpfsdk_calls_total{.*comm="sleepy"} 20$' ||
		fail "the scrape as nobody"
	stop_run
	# a metrics file in a directory the user cannot write: said before anything is loaded,
	# not at the first write after the drop
	mkdir -m 755 "$D/rootonly"
	run strace -f -qq -e trace=bpf -e signal=none -o "$D/trace" "$BPFSDK" run --user nobody \
		--set target_tgid=$$ --maps calls --metrics-file "$D/rootonly/x.prom" --duration 20 "$OBJ"
	expect_eq "$status" 2 "exit status for a metrics file nobody cannot write"
	expect_eq "$output" "error: --metrics-file $D/rootonly/x.prom: the directory '$D/rootonly/' is not writable by nobody without privileges, which run drops once attached: make it writable by nobody (try 'bpfsdk run --help')" \
		"the error for a metrics file nobody cannot write"
	expect_eq "$(grep -c 'bpf(' "$D/trace")" 0 "bpf() calls before that error"
	run "$BPFSDK" run --user no-such-user-here "$OBJ"
	expect_eq "$status" 2 "exit status for an unknown user"
	[[ $output == "error: --user no-such-user-here: no such user"* ]] || fail "$output"
	run strace -f -qq -e trace=bpf -e signal=none -o "$D/trace" \
		"$BPFSDK" run --user nobody --duration 1 "$OBJS/fault_run.bpf.o"
	expect_eq "$status" 2 "exit status for --user with a map pinned by name"
	[[ $output == "error: --user nobody: map '"*"' is pinned by name in /sys/fs/bpf"* ]] || fail "$output"
	expect_eq "$(grep -c 'BPF_MAP_CREATE\|BPF_PROG_LOAD' "$D/trace")" 0 "maps or programs made before the refusal"
}

@test "socket activation: --metrics systemd serves on the socket passed as fd 3" {
	command -v systemd-socket-activate >/dev/null || skip "systemd-socket-activate is not installed"
	web_config NoClientCert
	port=$(free_port)
	rm -f "$GO"
	"$SLEEPER" "$GO" 20 10000 sleepy 3>&- &
	SLEEPER_PID=$!
	systemd-socket-activate -l "127.0.0.1:$port" \
		"$BPFSDK" run -v --set target_tgid="$SLEEPER_PID" --maps calls,sleep_us \
		--metrics systemd --web-config "$D/web.yml" "$OBJ" >"$OUT" 2>"$ERR" 3>&- &
	RUN_PID=$!
	URL="https://127.0.0.1:$port/metrics"
	for _ in $(seq 100); do
		grep -q '^Listening on ' "$ERR" && break
		sleep 0.1
	done
	# the first connection starts it; curl waits in the socket's backlog
	expect_eq "$(code --cacert "$D/ca.crt" -u "prom:$PASSWORD" -m 60)" 200 "the first scrape, which started run"
	grep -q "^metrics: serving https on port $port, the socket systemd passed$" "$ERR" ||
		fail "run does not say it serves the passed socket: $(cat "$ERR")"
	wait_streaming "$ERR" "$RUN_PID" || fail "not streaming: $(cat "$ERR")"
	workload
	# a render serves the scrapes of a second: the first one's may still be served
	for _ in $(seq 30); do
		curl -s --cacert "$D/ca.crt" -u "prom:$PASSWORD" "$URL" >"$D/scrape"
		grep -q '^bpfsdk_calls_total{.*comm="sleepy"} 20$' "$D/scrape" && break
		sleep 0.2
	done
	grep -q '^bpfsdk_calls_total{.*comm="sleepy"} 20$' "$D/scrape" ||
		fail "the scrape on the passed socket: $(grep calls_total "$D/scrape")"
	stop_run
	run "$BPFSDK" run --metrics systemd "$OBJ"
	expect_eq "$status" 2 "--metrics systemd without a socket"
	[[ $output == "error: --metrics systemd: no socket was passed"* ]] || fail "$output"
	LISTEN_PID=1 LISTEN_FDS=1 run "$BPFSDK" run --metrics systemd "$OBJ"
	[[ $output == "error: --metrics systemd: LISTEN_PID=1 is not this process"* ]] || fail "$output"
}

@test "the unit: make install puts bpfsdk-run@.service, systemd-analyze verify finds nothing, its exposure is 1.9, its SystemCallFilter takes every call of a run" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed"
	# PREFIX in the test's directory, so that ExecStart names a bpfsdk that exists
	make -s --no-print-directory BUILD="$BUILD" install PREFIX="$D/p" >"$D/install.log" 2>&1 ||
		fail "make install: $(cat "$D/install.log")"
	unit="$D/p/lib/systemd/system/bpfsdk-run@.service"
	[ -f "$unit" ] || fail "make install did not install $unit"
	grep -qx "ExecStart=$D/p/bin/bpfsdk run \$BPFSDK_ARGS \$BPFSDK_OBJECT" "$unit" || fail "ExecStart: $(grep ExecStart "$unit")"
	mkdir "$D/units"
	cp "$unit" "$D/units/bpfsdk-run@test.service"
	run systemd-analyze verify "$D/units/bpfsdk-run@test.service"
	echo "$output"
	expect_eq "$status" 0 "systemd-analyze verify's status"
	expect_eq "$output" "" "what systemd-analyze verify says"
	systemd-analyze security --offline=yes "$D/units/bpfsdk-run@test.service" >"$D/security" 2>&1 ||
		true	# its status is the exposure's
	grep -q 'Overall exposure level for bpfsdk-run@test.service: 1.9 OK' "$D/security" ||
		fail "the exposure docs/metrics.md states: $(tail -1 "$D/security")"
	# every system call of a run over TLS, with a scrape, is one the filter allows
	filter=$(sed -n 's/^SystemCallFilter=//p' "$unit")
	web_config NoClientCert
	strace -f -qq -o "$D/calls" "$BPFSDK" run --maps calls,sleep_us --metrics 127.0.0.1:0 \
		--web-config "$D/web.yml" --interval 0.5 --duration 4 "$OBJ" >/dev/null 2>"$ERR" 3>&- &
	RUN_PID=$!
	for _ in $(seq 300); do
		URL=$(sed -n 's|^metrics: serving \(https://127.0.0.1:[0-9]*/metrics\)$|\1|p' "$ERR")
		[ -n "$URL" ] && break
		sleep 0.1
	done
	expect_eq "$(code --cacert "$D/ca.crt" -u "prom:$PASSWORD")" 200 "a scrape under strace"
	expect_eq "$(checked --cacert "$D/ca.crt" -u "prom:x")" 401 "a refused scrape under strace"
	wait "$RUN_PID" || fail "bpfsdk run under strace: $(cat "$ERR")"
	RUN_PID=
	sed -E 's/^[0-9]+ +//; s/\(.*//' "$D/calls" | grep -E '^[a-z_0-9]+$' | sort -u >"$D/used"
	[ "$(grep -c . "$D/used")" -gt 20 ] || fail "strace saw few calls: $(cat "$D/used")"
	systemd-analyze syscall-filter >"$D/groups"
	run python3 - "$D/groups" $filter <"$D/used" <<-'PY'
	import sys
	groups, cur = {}, None
	for line in open(sys.argv[1]):
	    if line.startswith("@"):
	        cur = groups.setdefault(line.strip(), [])
	    elif cur is not None and line.strip() and not line.strip().startswith("#"):
	        cur.append(line.strip())
	def expand(name, depth=0):
	    if not name.startswith("@") or depth > 10:
	        return {name}
	    return set().union(*(expand(m, depth + 1) for m in groups.get(name, []))) if groups.get(name) else set()
	allowed = set().union(*(expand(a) for a in sys.argv[2:]))
	print(" ".join(sorted({l.strip() for l in sys.stdin} - allowed)))
	PY
	expect_eq "$output" "" "system calls of a run the unit's SystemCallFilter refuses"
}
