#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# One ring buffer consumer over two maps, on the running kernel: records of
# both arrive through one epoll set, a callback's non-zero return stops a
# drain and the rest comes with the next, and an idle consumer runs no
# timer but is woken by the kernel. The driver prints one line per check.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/ringbuf_multi"
	OBJ="$BUILD/bpf/tests/ringbuf_multi.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
}

@test "two ring buffers, one consumer: a stopped drain, then the rest, then a wakeup" {
	run "$BIN" --obj "$OBJ"
	echo "$output"
	assert_success
	refute_line --partial 'FAIL'
	assert_line 'ok consume returns the callback'"'"'s stop value: -125 (expected -125)'
	assert_line 'ok ring a: records before the stop: 10 (expected 10)'
	assert_line 'ok ring b: not drained after the stop: 0 (expected 0)'
	assert_line 'ok the next drain takes the rest of both: 190 (expected 190)'
	assert_line 'ok one poll after idle: the new records of both rings: 6 (expected 6)'
	assert_line 'ok stats: received: 206 (expected 206)'
	assert_line 'all checks passed'
}

@test "ringbuf_multi with a bad argument exits 2" {
	run "$BIN" --nope
	assert_failure 2
	assert_output 'usage: ringbuf_multi [--obj PATH]'
}
