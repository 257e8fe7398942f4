#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The library's symbol table: libbpfsdk.a and libbpfsdk.so define no global
# name outside bsdk_, so a user's own read_file() or btf_parse() cannot
# clash with ours; the shared library carries its soname.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	LIB=$(realpath -e "$BUILD/lib") || fail "$BUILD/lib is not built (run make)"
	OBJS=$(realpath -e "$BUILD/bpf/tests") || fail "$BUILD/bpf/tests is not built (run make)"
	[ -f "$LIB/libbpfsdk.a" ] && [ -f "$LIB/libbpfsdk.so.0" ] ||
		fail "the libraries are not built (run make)"
}

# check_names FILE: the defined global names (nm output on stdin) all start
# with bsdk_, and there are as many as the API has.
check_names() {
	local names bad
	names=$(awk 'NF == 3 { print $3 }' | sort -u)
	bad=$(grep -v '^bsdk_' <<<"$names" || true)
	[ -z "$bad" ] || fail "$1 defines global names outside bsdk_: $(echo $bad)"
	# every function bpfsdk.h declares is defined and global
	local declared missing=""
	declared=$(grep -o '\bbsdk_[a-z0-9_]*(' loader/bpfsdk.h | tr -d '(' | sort -u)
	for f in $declared; do
		grep -qx "$f" <<<"$names" || missing="$missing $f"
	done
	[ -z "$missing" ] || fail "$1 lacks the API functions:$missing"
}

@test "symbols: libbpfsdk.a defines only bsdk_ global names, and the whole API" {
	nm -g --defined-only "$LIB/libbpfsdk.a" | check_names libbpfsdk.a
}

@test "symbols: libbpfsdk.so exports only bsdk_ names, and the whole API" {
	nm -D --defined-only "$LIB/libbpfsdk.so.0" | check_names libbpfsdk.so
}

@test "symbols: libbpfsdk-http.a defines what bpfsdk_http.h declares, and nothing else" {
	local names declared
	names=$(nm -g --defined-only "$LIB/libbpfsdk-http.a" | awk 'NF == 3 { print $3 }' | sort -u)
	declared=$(grep -v '^ \*\|^/\*' loader/http/bpfsdk_http.h | grep -o '\bbsdk_[a-z0-9_]*(' | tr -d '(' | sort -u)
	assert_equal "$names" "$declared"
}

@test "symbols: libbpfsdk.so has the soname libbpfsdk.so.0" {
	run readelf -d "$LIB/libbpfsdk.so.0"
	assert_success
	assert_output --regexp 'SONAME.*\[libbpfsdk\.so\.0\]'
}

# A program with functions of the names the library uses inside: it links
# against either library and both its own and the library's code run.
write_clash_program() {
	cat >"$BATS_TEST_TMPDIR/clash.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include "bpfsdk.h"

/* names the library uses internally */
int read_file(const char *path) { return path[0]; }
int btf_parse(int x) { return x * 2; }
int sys_bpf(int x) { return x + 1; }
long now_ns(void) { return 42; }

int main(int argc, char **argv)
{
	struct bsdk_obj *obj = bsdk_obj_open(argv[1]);

	if (!obj)
		return 1;
	printf("%d %d %d %ld %s %d\n", read_file("A"), btf_parse(21), sys_bpf(6), now_ns(),
	       bsdk_obj_license(obj), bsdk_obj_has_btf(obj));
	bsdk_obj_close(obj);
	return 0;
}
PROG
}

@test "symbols: a program defining read_file, btf_parse, sys_bpf, now_ns links with libbpfsdk.a" {
	write_clash_program
	run cc -Wall -Iloader -o "$BATS_TEST_TMPDIR/clash" "$BATS_TEST_TMPDIR/clash.c" \
		"$LIB/libbpfsdk.a" -ldw -lelf -lz
	assert_success
	run "$BATS_TEST_TMPDIR/clash" "$OBJS/obj_basic.bpf.o"
	assert_success
	assert_output "65 42 7 42 GPL 1"
}

@test "symbols: and with libbpfsdk.so" {
	write_clash_program
	run cc -Wall -Iloader -o "$BATS_TEST_TMPDIR/clash" "$BATS_TEST_TMPDIR/clash.c" \
		-L"$LIB" -lbpfsdk
	assert_success
	LD_LIBRARY_PATH=$LIB run "$BATS_TEST_TMPDIR/clash" "$OBJS/obj_basic.bpf.o"
	assert_success
	assert_output "65 42 7 42 GPL 1"
	LD_LIBRARY_PATH=$LIB run ldd "$BATS_TEST_TMPDIR/clash"
	assert_output --partial "libbpfsdk.so.0 => $LIB/libbpfsdk.so.0"
}

# static_link NAME C-SOURCE: cc -static NAME.c with libbpfsdk.a; the linker's
# messages in $BATS_TEST_TMPDIR/NAME.err
static_link() {
	local libs
	libs=$(pkg-config --static --libs libdw libelf zlib 2>/dev/null) || libs="-ldw -lelf -lz"
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/$1.c"
	# shellcheck disable=SC2086 # the libraries' words
	cc -static -Wall -Iloader -o "$BATS_TEST_TMPDIR/$1" "$BATS_TEST_TMPDIR/$1.c" \
		"$LIB/libbpfsdk.a" $libs 2>"$BATS_TEST_TMPDIR/$1.err"
}

@test "symbols: a -static tool that serves no metrics links without the listener's getaddrinfo warning" {
	static_link open '#include <bpfsdk.h>
int main(int argc, char **argv) { struct bsdk_obj *o = bsdk_obj_open(argv[1]); bsdk_obj_close(o); return !o; }' ||
		skip "no static libc, libdw or libelf here: $(head -3 "$BATS_TEST_TMPDIR/open.err")"
	run cat "$BATS_TEST_TMPDIR/open.err"
	refute_output --partial getaddrinfo
	run "$BATS_TEST_TMPDIR/open" "$OBJS/obj_basic.bpf.o"
	assert_success
	run nm "$BATS_TEST_TMPDIR/open"
	refute_output --partial bsdk_metrics_listen
	# a tool that serves them takes the listener, and glibc's warning with it
	static_link listen '#include <bpfsdk.h>
int main(int argc, char **argv) { return bsdk_metrics_listen(argv[1]) < 0; }' ||
		fail "the listener does not link: $(cat "$BATS_TEST_TMPDIR/listen.err")"
	run cat "$BATS_TEST_TMPDIR/listen.err"
	assert_output --partial getaddrinfo
	run "$BATS_TEST_TMPDIR/listen" 127.0.0.1:0
	assert_success
}
