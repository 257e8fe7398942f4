#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The compilers of the releases users run (tools/test-compilers, one test
# per leg): the user space warning-free under -Werror with gcc 12, Debian
# 13's gcc 14 (in a cached Debian 13 root) and clang; every BPF source with
# clang 16 and, in that root, 19; with clang 13 every BPF source builds with
# warnings only, BPFSDK_RECORD()'s naming the version, and bpfsdk still
# finds the record type, from DWARF. Clang 14, Debian 12's, is the clang of
# the tree's own build, which every other suite uses; its leg (bpf14) and
# clang 19's outside the root (bpf19) run in make test-compilers only.
# Each leg builds incrementally in $BUILD/compilers/LEG/, so a second run
# only rebuilds what changed.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	export REPO=$PWD BUILD=${BUILD:-build}
}

setup() {
	cd "$REPO" || return 1
}

# leg NAME COMPILER: skip with the reason when COMPILER is missing, else
# run the leg and expect its ok line.
leg() {
	command -v "$2" >/dev/null || skip "$2 is not installed (make setup-test)"
	run tools/test-compilers "$1"
	assert_success
	assert_output --regexp "^ok +$1 "
}

@test "compilers: gcc 12 builds the user space with -Werror" {
	leg gcc12 gcc
}

@test "compilers: clang builds the user space with -Werror" {
	leg clang-cc clang
}

@test "compilers: clang 16 builds every BPF source" {
	leg bpf16 clang-16
}

@test "compilers: clang 13 builds every BPF source, BPFSDK_RECORD() warning with its version" {
	leg bpf13 clang-13
	local log=$BUILD/compilers/bpf13.log
	# one warning per BPFSDK_RECORD() use, and no other
	run grep -c 'warning:' "$log"
	[ "$output" -gt 0 ]
	run grep -v -c 'warning: BPFSDK_RECORD([a-z_]*): clang 13 has no btf_decl_tag (clang 14 or later): the record type is left to the DWARF finder' <(grep 'warning:' "$log")
	assert_output 0
	# the object still says which records its map carries, from DWARF
	[ -x "$BUILD/bin/bpfsdk" ] || skip "no $BUILD/bin/bpfsdk (make first)"
	run "$BUILD/bin/bpfsdk" inspect "$BUILD/compilers/bpf13/bpf/trace_output.bpf.o"
	assert_success
	assert_output --regexp 'events +trace_output_event +DWARF'
}

@test "compilers: Debian 13's gcc 14 and clang 19 build the tree with -Werror" {
	command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (make setup-test)"
	[ "$(id -u)" -eq 0 ] || skip "the Debian 13 root needs root (chroot)"
	run tools/test-compilers gcc14
	assert_success
	assert_output --regexp '^ok +gcc14 '
}
