#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The minimal core, libbpfsdk-core.a (loader/loader.mk): built without the
# extensions, it needs nothing but libc, libelf and zlib, and the 2015
# lesson linked against it alone streams its records intact.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	CORE="$BUILD/lib/libbpfsdk-core.a"
	[ -f "$CORE" ] || fail "$CORE is not built (run make)"
}

@test "core: no extension and no CO-RE engine in the archive" {
	local members ext
	members=$(ar t "$CORE" | sort)
	echo "$members"
	for f in loader/ext/*.c loader/co-re/core.c; do
		ext=$(basename "${f%.c}.o")
		! grep -qx "$ext" <<<"$members" || fail "$ext ($f) is in the core"
	done
	# what it does hold: every source of the core's layers
	for f in loader/base/*.c loader/format/*.c loader/object/*.c loader/attach/*.c loader/channel/*.c; do
		grep -qx "$(basename "${f%.c}.o")" <<<"$members" || fail "$f is not in the core"
	done
}

@test "core: every object of the archive links with libc, libelf and zlib alone" {
	local t=$BATS_TEST_TMPDIR
	printf 'int main(void) { return 0; }\n' >"$t/main.c"
	run cc -o "$t/whole" "$t/main.c" -Wl,--whole-archive "$CORE" -Wl,--no-whole-archive -lelf -lz
	echo "$output"
	assert_success
	refute_output --partial "undefined reference"
}

@test "core: the 2015 lesson linked against the core alone streams dd's writes with every record intact" {
	BIN="$BUILD/bin/trace_output-core"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	# linked against the core, not the full library: no extension's pass in it
	run nm "$BIN"
	refute_output --partial "ext_install"
	refute_output --partial "core_relo_read"
	run "$BIN" --duration 2 -v
	echo "$output" | grep -v '^record:' | head -20
	assert_success
	pid=$(sed -n 's/^writer: dd, pid \([0-9]*\), on CPU 0$/\1/p' <<<"$output")
	[ -n "$pid" ] || fail "no 'writer: dd, pid N' line"
	assert_line --regexp "^record: cpu 0 pid $pid cookie 0x12345678 size 20$"
	assert_line --regexp '^received [1-9][0-9]*, lost [0-9]+, bad 0$'
}
