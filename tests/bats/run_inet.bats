#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# run_inet.bats - `bpfsdk run` shows addresses and ports as the tools that
# send them print them. tests/bpf/run_inet.bpf.c traces TCP state changes
# the way libbpf-tools' tcpstates does (tracepoint sock/inet_sock_set_state,
# unsigned __int128 addresses copied by family, the socket's __be16
# skc_dport and __be32 skc_rcv_saddr read with BPF_CORE_READ()); a client
# connects to a listener on a port of its own on 127.0.0.1 or ::1, and the
# client's record is checked field by field against the client socket's own
# getsockname() and getpeername(), in JSON and text, and with --raw as the
# integers the bytes hold.

load cli_common

setup() {
	cli_setup
	command -v jq >/dev/null || skip "jq is not installed (tools/setup installs it)"
	[ -e /sys/kernel/tracing/events/sock/inet_sock_set_state ] ||
		[ -e /sys/kernel/debug/tracing/events/sock/inet_sock_set_state ] ||
		skip "no tracepoint sock/inet_sock_set_state"
	OBJ="$OBJS/run_inet.bpf.o"
	PORT_FILE="$BATS_TEST_TMPDIR/port"
	SOCK_FILE="$BATS_TEST_TMPDIR/sock"
}

teardown() {
	cli_teardown
	[ -n "${PEER_PID:-}" ] && kill "$PEER_PID" 2>/dev/null
	return 0
}

# start_peer 4|6: a listener on port 0 of 127.0.0.1 or ::1 ($PORT), and a
# client that connects to it once "$GO" exists (at most 30 s) and writes
# its socket's two ends, as JSON, to $SOCK_FILE.
start_peer() {
	rm -f "$GO" "$PORT_FILE" "$SOCK_FILE"
	python3 - "$1" "$PORT_FILE" "$GO" "$SOCK_FILE" <<'EOF' &
import json, os, socket, sys, time
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
host = "::1" if fam == socket.AF_INET6 else "127.0.0.1"
srv = socket.socket(fam, socket.SOCK_STREAM)
srv.bind((host, 0))
srv.listen(1)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(srv.getsockname()[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
deadline = time.monotonic() + 30
while not os.path.exists(sys.argv[3]) and time.monotonic() < deadline:
    time.sleep(0.05)
c = socket.socket(fam, socket.SOCK_STREAM)
c.connect((host, srv.getsockname()[1]))
a, _ = srv.accept()
me, peer = c.getsockname(), c.getpeername()
with open(sys.argv[4] + ".tmp", "w") as f:
    json.dump({"saddr": me[0], "sport": me[1], "daddr": peer[0], "dport": peer[1]}, f)
os.rename(sys.argv[4] + ".tmp", sys.argv[4])
c.close(); a.close(); srv.close()
EOF
	PEER_PID=$!
	for _ in $(seq 100); do
		[ -s "$PORT_FILE" ] && break
		sleep 0.1
	done
	PORT=$(cat "$PORT_FILE") || fail "the listener did not start"
}

# trace 4|6 ARGS...: bpfsdk run ARGS on the listener's port while the
# client connects; the client's ESTABLISHED record (it leaves SYN_SENT,
# oldstate 2) is $OUT's line $CLIENT, the socket's ends are in $SOCK_FILE.
trace() {
	local fam=$1
	shift
	start_peer "$fam"
	start_run --set target_port="$PORT" "$@" "$OBJ"
	go
	for _ in $(seq 100); do
		[ -s "$SOCK_FILE" ] && break
		sleep 0.1
	done
	[ -s "$SOCK_FILE" ] || fail "the client did not connect"
	wait "$PEER_PID"
	PEER_PID=
}

# sock FIELD: the client socket's FIELD (saddr, sport, daddr, dport).
sock() {
	jq -r ".$1" "$SOCK_FILE"
}

# check_json 4|6: the client's record, field by field.
check_json() {
	local rec
	wait_lines 1 '"oldstate":2,'
	kill -INT "$RUN_PID"
	wait_run
	rec=$(grep '"oldstate":2,' "$OUT" | head -1)
	jq -e . >/dev/null <<<"$rec" || fail "not JSON: $rec"
	expect_eq "$(jq -r .family <<<"$rec")" "$([ "$1" = 6 ] && echo 10 || echo 2)" "family"
	expect_eq "$(jq -r .saddr <<<"$rec")" "$(sock saddr)" "saddr (unsigned __int128, by family)"
	expect_eq "$(jq -r .daddr <<<"$rec")" "$(sock daddr)" "daddr (unsigned __int128, by family)"
	expect_eq "$(jq -r .sport <<<"$rec")" "$(sock sport)" "sport (the tracepoint's, host order)"
	expect_eq "$(jq -r .dport <<<"$rec")" "$(sock dport)" "dport (the tracepoint's, host order)"
	expect_eq "$(jq -r .kdport <<<"$rec")" "$(sock dport)" "kdport (__be16 skc_dport as the kernel keeps it)"
	expect_eq "$(jq -r .kdport_host <<<"$rec")" "$(sock dport)" "kdport_host (bpf_ntohs() of skc_dport)"
	expect_eq "$(jq -r '.saddr | type' <<<"$rec")" string "the JSON type of an address"
	if [ "$1" = 4 ]; then
		expect_eq "$(jq -r .local_v4 <<<"$rec")" "$(sock saddr)" "local_v4 (__be32 skc_rcv_saddr)"
	fi
}

@test "run_inet: 127.0.0.1 and its ports in JSON, as the socket has them" {
	trace 4 --format json
	check_json 4
	grep -q "member 'kdport' shown as big-endian, in host order (from the kernel fields the programs read)" "$ERR" ||
		fail "-v does not say why kdport is swapped: $(cat "$ERR")"
	grep -q "member 'kdport_host'" "$ERR" && fail "-v names kdport_host, which bpf_ntohs() swapped"
	return 0
}

@test "run_inet: ::1 and its ports in JSON, as the socket has them" {
	[ -e /proc/net/if_inet6 ] || skip "no IPv6"
	trace 6 --format json
	check_json 6
}

@test "run_inet: text columns show the address and the port" {
	local cols line
	trace 4 --format text
	# columns: CPU saddr daddr skaddr local_v4 oldstate newstate family sport dport ...
	for _ in $(seq 100); do
		[ "$(awk '$6 == 2' "$OUT" | wc -l)" -ge 1 ] && break
		sleep 0.1
	done
	kill -INT "$RUN_PID"
	wait_run
	cols=$(head -1 "$OUT")
	expect_eq "$(awk '{ print $2, $3, $6, $9, $10, $11, $12 }' <<<"$cols")" \
		"saddr daddr oldstate sport dport kdport kdport_host" "the header"
	line=$(awk '$6 == 2' "$OUT" | head -1)
	expect_eq "$(awk '{ print $2, $3, $9, $10, $11, $12 }' <<<"$line")" \
		"$(sock saddr) $(sock daddr) $(sock sport) $(sock dport) $(sock dport) $(sock dport)" \
		"the client's record: saddr daddr sport dport kdport kdport_host"
}

@test "run_inet: --raw and --field NAME=raw show the integers the bytes hold" {
	local rec port be
	trace 4 --format json --raw
	wait_lines 1 '"oldstate":2,'
	kill -INT "$RUN_PID"
	wait_run
	rec=$(grep '"oldstate":2,' "$OUT" | head -1)
	port=$(sock dport)
	be=$(( (port >> 8) | ((port & 255) << 8) ))
	# 127.0.0.1 is the bytes 7f 00 00 01: read as a little-endian integer
	expect_eq "$(jq -r .saddr <<<"$rec")" 16777343 "--raw saddr"
	expect_eq "$(jq -r .local_v4 <<<"$rec")" 16777343 "--raw local_v4"
	expect_eq "$(jq -r .kdport <<<"$rec")" "$be" "--raw kdport"
	expect_eq "$(jq -r .dport <<<"$rec")" "$port" "--raw dport"

	trace 4 --format json --field kdport=raw --field saddr=raw
	wait_lines 1 '"oldstate":2,'
	kill -INT "$RUN_PID"
	wait_run
	rec=$(grep '"oldstate":2,' "$OUT" | head -1)
	expect_eq "$(jq -r .saddr <<<"$rec")" 16777343 "--field saddr=raw"
	expect_eq "$(jq -r .kdport <<<"$rec")" "$(( ($(sock dport) >> 8) | (($(sock dport) & 255) << 8) ))" "--field kdport=raw"
	expect_eq "$(jq -r .daddr <<<"$rec")" "$(sock daddr)" "daddr beside --field saddr=raw"
}

@test "run_inet: --field takes NAME=raw|addr|host only" {
	run "$BPFSDK" run --format json --field kdport "$OBJ"
	assert_failure 2
	assert_output --partial "error: --field 'kdport' is not NAME=raw, NAME=addr or NAME=host"
	run "$BPFSDK" run --format json --field kdport=swap "$OBJ"
	assert_failure 2
}

@test "run_inet: a map's key shows the address and port in its view and its metrics labels" {
	local prom="$BATS_TEST_TMPDIR/inet.prom" key
	trace 4 --format json --maps conns --metrics-file "$prom" --interval 0.5
	# the view at the end and the file's last write come when the run stops
	kill -INT "$RUN_PID"
	wait_run
	key=$(jq -c 'select(."@map" == "conns") | .key' "$OUT" | tail -1)
	expect_eq "$key" "{\"daddr\":\"$(sock daddr)\",\"dport\":$(sock dport),\"family\":2}" \
		"the key of conns (__u8 daddr[16] by family, __be16 dport)"
	grep -qx "bpfsdk_conns_total{object=\"run_inet\",daddr=\"$(sock daddr)\",dport=\"$(sock dport)\",family=\"2\"} 1" "$prom" ||
		fail "no series with the address and port as labels in: $(cat "$prom")"

	trace 4 --format json --maps conns --raw
	kill -INT "$RUN_PID"
	wait_run
	key=$(jq -c 'select(."@map" == "conns") | .key' "$OUT" | tail -1)
	expect_eq "$(jq -c .daddr <<<"$key")" "[127,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0]" "--raw: the key's daddr"
	expect_eq "$(jq -r .dport <<<"$key")" "$(( ($(sock dport) >> 8) | (($(sock dport) & 255) << 8) ))" \
		"--raw: the key's dport"
}

@test "run_inet: inspect names the addresses, the big-endian port and what it could not classify" {
	run "$BPFSDK" inspect "$OBJ"
	assert_success
	assert_line "  events: addresses: saddr, daddr, local_v4"
	assert_line "  events: big-endian, shown in host order: kdport"
	assert_line "  events: named like an address or a port, not classified (shown as stored; --field NAME=addr|host): lport"
	run "$BPFSDK" inspect --json "$OBJ"
	assert_success
	expect_eq "$(jq -c '.maps[] | select(.name == "events") | .record.fields' <<<"$output")" \
		'{"addresses":["saddr","daddr","local_v4"],"host_order":["kdport"],"unclassified":["lport"]}' \
		"inspect --json's fields"
}

@test "run_inet: a record built in a map's value (libbpf-tools' compat heap) is followed too" {
	run "$BPFSDK" inspect "$OBJS/run_inet_heap.bpf.o"
	assert_success
	assert_line "  events: addresses: saddr, daddr, local_v4"
	assert_line "  events: big-endian, shown in host order: kdport"
	OBJ="$OBJS/run_inet_heap.bpf.o"
	trace 4 --format json
	check_json 4
}
