#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# libbpf-bootstrap's bootstrap, minimal and fentry, ported to bpfsdk
# (tests/ports/, built by tests/ports/ports.mk against a staged install
# through pkg-config), do what the originals do: bootstrap shows an exec of
# a known command with its pid, parent, command and file, then its exit and
# status, and with -d only the exits of processes that lived that long;
# minimal's bpf_printk line reaches the trace pipe for its own writes;
# fentry's lines show an unlink on entry and return where the kernel takes
# fentry (the test VM), and where it refuses it (this host: EPERM) it fails
# with one clear error. Lines of the trace pipe are taken by whoever reads
# it first: the programs write again each second, and the checks wait for a
# line that only this test's process or file can have.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

PIPE=/sys/kernel/tracing/trace_pipe

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	PORTS="$BUILD/ports"
	for p in bootstrap minimal fentry; do
		[ -x "$PORTS/$p" ] || fail "$PORTS/$p is not built (run make test-programs)"
	done
	OUT="$BATS_TEST_TMPDIR/out"
	ERR="$BATS_TEST_TMPDIR/err"
}

teardown() {
	[ -n "${PORT_PID:-}" ] && kill "$PORT_PID" 2>/dev/null
	return 0
}

# wait_for FILE REGEX SECONDS: until a line of FILE matches, polling every
# 0.2 s for at most SECONDS, and no longer than the port runs
wait_for() {
	local i
	for ((i = 0; i < $3 * 5; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$PORT_PID" 2>/dev/null || break
		sleep 0.2
	done
	grep -Eq -- "$2" "$1" 2>/dev/null
}

# stop: Ctrl-C to the port, which must end with status 0
stop() {
	local st=0

	kill -INT "$PORT_PID"
	wait "$PORT_PID" || st=$?
	PORT_PID=
	assert_equal "$st" 0
}

@test "ports: built through pkg-config against the staged install" {
	command -v readelf >/dev/null || skip "no readelf (the test VM has no binutils)"
	run readelf -d "$PORTS/bootstrap"
	assert_output --regexp 'NEEDED.*libbpfsdk\.so\.0'
	assert_output --partial '$ORIGIN/stage/usr/local/lib'
	run grep -c '^struct bootstrap_bpf {$' "$PORTS/bootstrap.skel.h"
	assert_output 1
}

@test "bootstrap: an exec of a known command shows its pid, parent, command and file, then its exit and status" {
	local name="bpt-$$" cmd
	printf '#!/bin/sh\nexit 3\n' >"$BATS_TEST_TMPDIR/$name"
	chmod +x "$BATS_TEST_TMPDIR/$name"
	"$PORTS/bootstrap" >"$OUT" 2>"$ERR" &
	PORT_PID=$!
	wait_for "$OUT" 'FILENAME/EXIT CODE$' 120 || fail "no header: $(cat "$ERR")"
	"$BATS_TEST_TMPDIR/$name" &
	cmd=$!
	wait "$cmd" || true
	wait_for "$OUT" "^[0-9:]{8} EXIT  $name +$cmd " 30 || fail "no exit line: $(cat "$OUT")"
	stop
	run grep -E " $name +$cmd " "$OUT"
	assert_line --regexp "^[0-9:]{8} EXEC  $name +$cmd +$BASHPID +$BATS_TEST_TMPDIR/$name\$"
	assert_line --regexp "^[0-9:]{8} EXIT  $name +$cmd +$BASHPID +\[3\] \([0-9]+ms\)\$"
	[ "${#lines[@]}" -eq 2 ] || fail "not one exec and one exit: $output"
}

@test "bootstrap -d: only the exits of processes that lived that long, and no execs" {
	local quick="bpq-$$" slow="bps-$$" q s
	printf '#!/bin/sh\nexit 0\n' >"$BATS_TEST_TMPDIR/$quick"
	printf '#!/bin/sh\nsleep 1\nexit 5\n' >"$BATS_TEST_TMPDIR/$slow"
	chmod +x "$BATS_TEST_TMPDIR/$quick" "$BATS_TEST_TMPDIR/$slow"
	"$PORTS/bootstrap" -d 500 >"$OUT" 2>"$ERR" &
	PORT_PID=$!
	wait_for "$OUT" 'FILENAME/EXIT CODE$' 120 || fail "no header: $(cat "$ERR")"
	"$BATS_TEST_TMPDIR/$quick" & q=$!
	wait "$q"
	"$BATS_TEST_TMPDIR/$slow" & s=$!
	wait "$s" || true
	wait_for "$OUT" "EXIT  $slow +$s " 30 || fail "no exit line for the slow one: $(cat "$OUT")"
	stop
	run grep -E "^[0-9:]{8} EXIT  $slow +$s +$BASHPID +\[5\] \(([5-9][0-9]{2}|[0-9]{4,})ms\)\$" "$OUT"
	assert_success
	run grep -E "EXEC|$quick" "$OUT"
	assert_failure
	run "$PORTS/bootstrap" -d 0
	assert_equal "$status" 2
	assert_output --partial "error: -d wants a number of milliseconds above 0"
}

@test "minimal: its bpf_printk line reaches the trace pipe for its own writes" {
	[ -r "$PIPE" ] || skip "no $PIPE"
	"$PORTS/minimal" >"$OUT" 2>"$ERR" &
	PORT_PID=$!
	wait_for "$OUT" "^pid $PORT_PID: " 120 || fail "did not start: $(cat "$ERR")"
	run timeout 60 grep -m1 "minimal: write from pid $PORT_PID\$" "$PIPE"
	assert_success
	stop
}

@test "fentry: an unlink on entry and on return where the kernel takes fentry, else one clear error" {
	[ -r "$PIPE" ] || skip "no $PIPE"
	local name="fport-$$" i
	"$PORTS/fentry" >"$OUT" 2>"$ERR" &
	PORT_PID=$!
	wait_for "$OUT" '^unlinks show' 120 || {
		local st=0
		wait "$PORT_PID" || st=$?
		PORT_PID=
		[ -z "${BPFSDK_VM:-}" ] || fail "the VM's kernel takes fentry, yet: $(cat "$ERR")"
		# this host refuses fentry (EPERM): one error naming the program and why
		assert_equal "$st" 1
		run cat "$ERR"
		assert_line --index 0 --regexp "^error: program 'unlink_enter' \(section 'fentry/do_unlinkat'\): .*Operation not permitted"
		[ "$(grep -c '^error: ' "$ERR")" -eq 1 ] || fail "not one error line: $output"
		return 0
	}
	timeout 60 grep -m2 -E "f(entry|exit): pid [0-9]+ unlink(s|ed) $name" "$PIPE" >"$BATS_TEST_TMPDIR/lines" &
	local reader=$!
	cd "$BATS_TEST_TMPDIR"
	for ((i = 0; i < 30; i++)); do
		: >"$name" && rm "$name"
		[ "$(wc -l <lines)" -ge 2 ] && break
		sleep 1
	done
	wait "$reader" || true
	cd - >/dev/null
	stop
	run cat "$BATS_TEST_TMPDIR/lines"
	assert_line --regexp "fentry: pid [0-9]+ unlinks $name\$"
	assert_line --regexp "fexit: pid [0-9]+ unlinked $name: 0\$"
}
