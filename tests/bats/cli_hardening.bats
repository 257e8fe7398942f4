#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# cli_hardening.bats - what a hostile or odd input must not do to bpfsdk:
# make it read a large file twice, take a negative hex value, accept a
# probe offset that is not there.

load cli_common

setup() {
	cli_setup
}

# max_rss_kb CMD...: the peak resident size of CMD, in KiB (GNU time).
max_rss_kb() {
	/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$@" >/dev/null 2>&1
	cat "$BATS_TEST_TMPDIR/rss" | tail -1
}

@test "hardening: a 117 MB object is read once, into the memory the object keeps" {
	big="$BATS_TEST_TMPDIR/big.o"
	cp "$OBJS/obj_basic.bpf.o" "$big"
	truncate -s 117M "$big"	# the padding is past every section
	run "$BPFSDK" inspect "$big"
	[ "$status" -eq 0 ] || fail "inspect failed: $output"
	rss=$(max_rss_kb "$BPFSDK" inspect "$big")
	echo "peak RSS $rss KiB for a 119808 KiB file"
	# one copy and change; two copies would be 240 MB
	[ "$rss" -lt $((119808 * 3 / 2)) ] || fail "peak RSS $rss KiB: the file was read more than once"
}

@test "hardening: a 117 MB file that is not ELF is refused without reading it" {
	junk="$BATS_TEST_TMPDIR/junk.o"
	truncate -s 117M "$junk"
	run "$BPFSDK" inspect "$junk"
	[ "$status" -eq 1 ] || fail "status $status"
	assert_output "error: '$junk': not an ELF file"
	rss=$(max_rss_kb "$BPFSDK" inspect "$junk")
	echo "peak RSS $rss KiB"
	[ "$rss" -lt 20000 ] || fail "peak RSS $rss KiB: the file was read"
}

@test "hardening: --set x=-0x5 is refused: negative values are decimal" {
	run "$BPFSDK" run --set target_pid=-0x5 --duration 0.1 "$OBJS/cli_globals.bpf.o"
	[ "$status" -eq 2 ] || fail "status $status: $output"
	assert_output --partial "error: --set target_pid: '-0x5' is not a decimal or 0x hexadecimal integer"
}

@test "hardening: a probe offset that is only '+' is refused, not taken as 0" {
	# uprobe/cli_trigger:cli_uprobe_hit becomes uprobe/cli_trigger:main+,
	# in the section names and in the BTF strings .BTF.ext names them by
	obj="$BATS_TEST_TMPDIR/plus.bpf.o"
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
old = b"uprobe/cli_trigger:cli_uprobe_hit"
new = b"uprobe/cli_trigger:main+"
open(sys.argv[2], "wb").write(d.replace(old, new + bytes(len(old) - len(new))))
' "$OBJS/cli_uprobe.bpf.o" "$obj"
	cd "$(dirname "$TRIGGER")"
	run "$BPFSDK" run -v --duration 0.1 "$obj"
	echo "$output"
	# refused, whether run stops there or leaves the program out
	assert_output --partial "program 'on_entry'"
	assert_output --partial "uprobe offset '' is not a number"
	refute_output --partial "program 'on_entry': attached"
}
