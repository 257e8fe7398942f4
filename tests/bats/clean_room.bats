#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The Debian packages, the way users get them: make deb builds the three
# packages and lintian has no error or warning on them; then, in fresh
# Debian 12 and Debian 13 roots (cached, tools/debian-root), apt installs
# them with their declared dependencies only, bpfsdk inspects and runs
# gallery objects on the host's kernel, and a BPF object and a C program
# build against the installed packages (tools/clean-room says how).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	export REPO=$PWD BUILD=${BUILD:-build}
	export SKIP_REASON=
	for t in dpkg-buildpackage dh lintian mmdebstrap git; do
		command -v "$t" >/dev/null || { SKIP_REASON="$t is not installed (make setup-test)"; return 0; }
	done
	[ "$(id -u)" -eq 0 ] || { SKIP_REASON="the clean roots need root (chroot, mounts)"; return 0; }
	git rev-parse --git-dir >/dev/null 2>&1 || { SKIP_REASON="not a git clone (make deb takes the files git knows)"; return 0; }
	make -s --no-print-directory BUILD="$BUILD" deb >"$BATS_FILE_TMPDIR/deb.log" 2>&1
	echo $? >"$BATS_FILE_TMPDIR/deb.rc"
}

setup() {
	[ -z "$SKIP_REASON" ] || skip "$SKIP_REASON"
	cd "$REPO" || return 1
	# the others need this build's packages, not an older one's
	[ "$BATS_TEST_NUMBER" -eq 1 ] || [ "$(cat "$BATS_FILE_TMPDIR/deb.rc")" -eq 0 ] ||
		fail "make deb failed (see the first test)"
}

@test "clean room: make deb builds three packages, lintian-clean" {
	run cat "$BATS_FILE_TMPDIR/deb.log"
	[ "$(cat "$BATS_FILE_TMPDIR/deb.rc")" -eq 0 ] || fail "make deb failed: $output"
	run ls "$BUILD"/deb/
	assert_output --partial "libbpfsdk0_"
	assert_output --partial "libbpfsdk-dev_"
	assert_output --partial "bpfsdk_"
	run lintian --allow-root --fail-on error,warning "$BUILD"/deb/*.changes
	assert_success
}

@test "clean room: the package version is debian/changelog's, as bpfsdk --version's" {
	local v
	v=$(dpkg-parsechangelog -l debian/changelog -SVersion)
	run dpkg-deb -f "$BUILD"/deb/bpfsdk_*.deb Version
	assert_output "$v"
	run dpkg-deb -f "$BUILD"/deb/libbpfsdk0_*.deb Version
	assert_output "$v"
	dpkg-deb -x "$BUILD"/deb/bpfsdk_*.deb "$BATS_TEST_TMPDIR/x"
	run "$BATS_TEST_TMPDIR/x/usr/bin/bpfsdk" --version
	assert_output "bpfsdk $v"
	run "$BUILD/bin/bpfsdk" --version
	assert_output "bpfsdk $v"
}

@test "clean room: Debian 12 (bookworm) installs and uses the packages" {
	run tools/clean-room bookworm
	assert_success
	assert_output --regexp '^ok +clean room bookworm'
}

@test "clean room: Debian 13 (trixie) installs and uses the packages" {
	run tools/clean-room trixie
	assert_success
	assert_output --regexp '^ok +clean room trixie'
}
