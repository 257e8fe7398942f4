#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# sample_hardening.bats - the samples on what goes wrong around them: an
# object without a map they read (every sample), a reader that leaves
# (| head; each sample's own suite has one too), a signal at any moment of
# their start (every sample that can run here), trace_output's own death
# while it starts dd, a CPU that is not there. None may crash, hang, leave
# a child behind or print a second error.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

# every sample, and a map each one reads
SAMPLE_MAPS="trace_output:events opensnoop:events syscall_latency:events
	execsnoop:events payload:events uprobe:events kfunc:events
	profile:counts runqlat:hist"
SAMPLES=$(for sm in $SAMPLE_MAPS; do echo "${sm%%:*}"; done)

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin"
	for s in $SAMPLES; do
		[ -x "$BIN/$s" ] || fail "$BIN/$s is not built (run make)"
	done
}

# without_map OBJ MAP OUT: OBJ with its map MAP renamed (its first letter
# made X, in the symbol table and the BTF strings alike): an object that
# lacks the map.
without_map() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
name = sys.argv[2].encode() + b"\0"
assert name in d, "no %s in %s" % (sys.argv[2], sys.argv[1])
open(sys.argv[3], "wb").write(d.replace(name, b"X" + name[1:]))
' "$1" "$2" "$3"
}

@test "samples: an object without a map the sample reads is one error line, not a crash" {
	for sm in $SAMPLE_MAPS; do
		s=${sm%%:*} map=${sm#*:}
		obj="$BATS_TEST_TMPDIR/$s.bpf.o"
		without_map "$BUILD/bpf/$s.bpf.o" "$map" "$obj"
		run --separate-stderr timeout -k 2 10 "$BIN/$s" -o "$obj" -d 1
		echo "$s without $map: status $status, stderr: $stderr"
		[ "$status" -eq 1 ] || fail "$s: status $status (139 is a crash)"
		[ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || fail "$s: not one error line: $stderr"
		# the sample's skeleton finds the map missing when it opens the object
		[[ "$stderr" == *"no map '$map'"* ]] || fail "$s: the error does not say the map is missing: $stderr"
	done
}

@test "samples: a reader that goes away (| head) ends them quietly, status 0" {
	# opens and reads for the samples to see, from a loop of our own
	( while :; do cat /etc/hostname >/dev/null; done ) &
	busy=$!
	for cmd in "opensnoop" "syscall_latency -v" "trace_output -v -d 3"; do
		set +e
		timeout -k 2 20 "$BIN"/$cmd 2>"$BATS_TEST_TMPDIR/err" | head -5 >"$BATS_TEST_TMPDIR/out"
		st=${PIPESTATUS[0]}
		set -e
		echo "$cmd: status $st; stderr:"; cat "$BATS_TEST_TMPDIR/err"
		[ "$st" -eq 0 ] || { kill "$busy"; fail "$cmd | head -5: status $st (141 is SIGPIPE)"; }
		[ "$(wc -l <"$BATS_TEST_TMPDIR/out")" -eq 5 ] || { kill "$busy"; fail "$cmd: head did not get 5 lines"; }
		! grep -q '^error:' "$BATS_TEST_TMPDIR/err" || { kill "$busy"; fail "$cmd: an error for a closed pipe"; }
	done
	kill "$busy"
	# opensnoop's accounting goes to standard error, so it survives the pipe
	timeout -k 2 20 "$BIN/opensnoop" 2>"$BATS_TEST_TMPDIR/err" | head -5 >/dev/null
	grep -q '^received [0-9]*, shown [0-9]*, lost [0-9]*$' "$BATS_TEST_TMPDIR/err" ||
		fail "no summary on stderr: $(cat "$BATS_TEST_TMPDIR/err")"
}

# in_group PGID: the live processes of process group PGID, one pid a line
# (a killed child this machine's init has not reaped yet is a zombie: not
# left running)
in_group() {
	ps -e -o pid=,pgid=,stat= | awk -v g="$1" '$2 == g && $3 !~ /^Z/ { print $1 }'
}

# start_alone SAMPLE ARGS...: the sample in a session of its own (its pid is
# its process group, shared by its children), in the background, with
# SIGINT back to its default: a shell without job control starts
# background commands with it ignored. Sets pid.
start_alone() {
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' setsid "$@" \
		>/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# until it is the sample, past perl and setsid
	local name
	name=$(basename "$1")
	for _ in $(seq 500); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${name:0:15}" ] && return 0
		sleep 0.001
	done
}

@test "samples: SIGINT or SIGTERM at any moment of the start ends them, no child left" {
	for s in $SAMPLES; do
		# kfunc needs kprobes or fentry, which this kernel may refuse
		if [ "$s" = kfunc ] && ! "$BIN/kfunc" -d 0.1 >/dev/null 2>&1; then
			echo "# kfunc left out: it cannot attach on this kernel" >&3
			continue
		fi
		for sig in INT TERM; do
			for delay in 0.001 0.02 0.1 0.3; do
				start_alone "$BIN/$s" -d 5
				sleep "$delay"
				kill "-$sig" "$pid"
				for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
				if kill -0 "$pid" 2>/dev/null; then
					kill -KILL "$pid"
					fail "$s: still running 3 s after SIG$sig at $delay s"
				fi
				wait "$pid" && st=0 || st=$?
				want=$([ "$sig" = INT ] && echo 130 || echo 143)
				# 0 if the tracing had begun; 130/143 before
				[ "$st" -eq 0 ] || [ "$st" -eq "$want" ] ||
					fail "$s: SIG$sig at $delay s: status $st: $(cat "$BATS_TEST_TMPDIR/err")"
				sleep 0.2
				[ -z "$(in_group "$pid")" ] ||
					fail "$s: SIG$sig at $delay s left $(in_group "$pid") behind"
			done
		done
	done
}

@test "trace_output: killed while it starts dd, it leaves no dd behind" {
	for delay in 0 0.001 0.002 0.005 0.01 0.02 0.05 0.1; do
		start_alone "$BIN/trace_output" -d 5
		sleep "$delay"
		kill -KILL "$pid"
		wait "$pid" || true
		# dd's PR_SET_PDEATHSIG comes asynchronously: give it 3 s
		for _ in $(seq 30); do [ -z "$(in_group "$pid")" ] && break; sleep 0.1; done
		left=$(in_group "$pid")
		[ -z "$left" ] || { kill -KILL $left; fail "SIGKILL after $delay s left $left behind"; }
	done
}

@test "trace_output: dead before its child's PR_SET_PDEATHSIG, it still leaves no dd behind" {
	preload=$BUILD/tests/preload/late_pdeathsig.so
	[ -f "$preload" ] || fail "$preload is not built (run make test-programs)"
	mark=$BATS_TEST_TMPDIR/child
	# the child, between fork() and its prctl(), waits for this kill
	BSDK_TEST_PDEATHSIG_MARK=$mark LD_PRELOAD=$preload start_alone "$BIN/trace_output" -d 5
	for _ in $(seq 100); do [ -f "$mark" ] && break; sleep 0.1; done
	[ -f "$mark" ] || { kill -KILL "$pid"; fail "the child never reached prctl(PR_SET_PDEATHSIG): $(cat "$BATS_TEST_TMPDIR/err")"; }
	child=$(cat "$mark")
	kill -KILL "$pid"
	wait "$pid" || true
	# the child's prctl() comes now; what follows it must see the parent gone
	for _ in $(seq 30); do [ -z "$(in_group "$pid")" ] && break; sleep 0.1; done
	left=$(in_group "$pid")
	[ -z "$left" ] || { kill -KILL $left; fail "the child $child went on as $(cat "/proc/$child/comm" 2>/dev/null) with its parent dead"; }
}

@test "trace_output --cpu of a CPU that is not there: one error line before anything starts" {
	cpu=$(( $(nproc --all) + 5 ))
	run --separate-stderr "$BIN/trace_output" --cpu "$cpu" -d 1
	[ "$status" -eq 2 ] || fail "status $status"
	assert_equal "$output" ""
	assert_equal "$stderr" "error: --cpu $cpu: this machine has no such CPU, or this process may not run on it"
}
