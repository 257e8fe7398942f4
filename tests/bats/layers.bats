#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The library's layers (loader/loader.mk's LOADER_LAYERS, lowest first, then
# TOP_LAYERS: the metrics server and the tool): no object of a layer uses a
# symbol or a header of a layer above it (tools/check-layers, make
# check-layers); and the check itself catches both, on two layers made up
# here. With them, the sizes a reader can hold (tools/check-sizes, make
# check-sizes): no file over 700 lines, no function over 80.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	[ -f "$BUILD/obj/loader/base/log.o" ] || fail "the library is not built (run make)"
}

@test "layers: every object of the library and the tool uses only its own layer and those below" {
	run tools/check-layers "$BUILD/obj/loader"
	assert_success
	assert_output --partial "check-layers: OK: "
	# every source of the library and the tool was looked at
	local nsrc nobj
	nsrc=$(find loader -name '*.c' | wc -l)
	nobj=$(sed -n 's/^check-layers: OK: \([0-9]*\) objects.*/\1/p' <<<"$output")
	echo "objects checked: $nobj, sources: $nsrc"
	[ "$nobj" -eq "$nsrc" ]
}

@test "layers: an upward call and an upward include are each named, with the file, what it uses and both layers" {
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/loader/low" "$t/loader/high" "$t/obj/low" "$t/obj/high"
	printf 'int high_fn(void);\n' >"$t/loader/high/high.h"
	printf '#include "loader/high/high.h"\nint high_fn(void) { return 1; }\n' >"$t/loader/high/high.c"
	printf '#include "loader/high/high.h"\nint low_fn(void);\nint low_fn(void) { return high_fn(); }\n' \
		>"$t/loader/low/low.c"
	printf 'int low_too(void);\nint low_too(void) { return 0; }\n' >"$t/loader/low/fine.c"
	for s in high/high low/low low/fine; do
		(cd "$t" && cc -c -MMD -I. "loader/$s.c" -o "obj/$s.o") || fail "cannot compile $s.c"
	done
	# run where the sources are, as make does: an object without its source is stale
	local tool=$PWD/tools/check-layers
	cd "$t" || fail "cannot cd to $t"
	run "$tool" obj low high
	assert_failure 1
	assert_line "check-layers: loader/low/low.c: uses high_fn (loader/high/high.c): layer low uses high, which is above it"
	assert_line "check-layers: loader/low/low.c: includes loader/high/high.h: layer low uses high, which is above it"
	assert_line --partial "check-layers: 2 upward uses"
	refute_output --partial "fine.c"
	# the same objects in the other order are fine
	run "$tool" obj high low
	assert_success
	# a stale object (its source moved away) is not checked
	rm loader/low/low.c
	run "$tool" obj low high
	assert_success
}

@test "layers: rooms (sub-folder layers) are ordered like layers: a call or include into a higher room, or of the header of the folder above, is named" {
	local t=$BATS_TEST_TMPDIR s
	mkdir -p "$t/loader/ext/low" "$t/loader/ext/high" "$t/obj/ext/low" "$t/obj/ext/high" "$t/obj/ext"
	printf 'int top_fn(void);\n' >"$t/loader/ext/ext.h"
	printf 'int top_fn(void);\nint top_fn(void) { return 2; }\n' >"$t/loader/ext/top.c"
	printf 'int high_fn(void);\n' >"$t/loader/ext/high/high.h"
	printf '#include "loader/ext/high/high.h"\nint high_fn(void) { return 1; }\n' >"$t/loader/ext/high/high.c"
	printf '#include "loader/ext/high/high.h"\nint low_fn(void);\nint low_fn(void) { return high_fn(); }\n' \
		>"$t/loader/ext/low/low.c"
	printf '#include "loader/ext/ext.h"\nint low_too(void);\nint low_too(void) { return 0; }\n' \
		>"$t/loader/ext/low/fine.c"
	for s in ext/top ext/high/high ext/low/low ext/low/fine; do
		(cd "$t" && cc -c -MMD -I. "loader/$s.c" -o "obj/$s.o") || fail "cannot compile $s.c"
	done
	local tool=$PWD/tools/check-layers
	cd "$t" || fail "cannot cd to $t"
	run "$tool" obj ext/low ext/high ext
	assert_failure 1
	assert_line "check-layers: loader/ext/low/low.c: uses high_fn (loader/ext/high/high.c): layer ext/low uses ext/high, which is above it"
	assert_line "check-layers: loader/ext/low/low.c: includes loader/ext/high/high.h: layer ext/low uses ext/high, which is above it"
	assert_line "check-layers: loader/ext/low/fine.c: includes loader/ext/ext.h: layer ext/low uses ext, which is above it"
	assert_line --partial "check-layers: 3 upward uses"
	# the folder's own layer below its rooms, and the rooms the other way round: fine
	run "$tool" obj ext ext/high ext/low
	assert_success
	assert_output --partial "OK: 4 objects in 3 layers"
}

@test "sizes: no file of the library, the tool or a sample's user side over 700 lines, no function over 80" {
	run tools/check-sizes
	echo "$output"
	assert_success
	assert_output "check-sizes: OK: no file over 700 lines, no function over 80"
}

@test "sizes: a file over 700 lines and a function over 80 are each named with their size; 700 and 80 pass" {
	local t=$BATS_TEST_TMPDIR/tree i
	mkdir -p "$t/tools" "$t/loader/low" "$t/samples/one"
	cp tools/check-sizes "$t/tools/"
	{
		printf 'int long_fn(int x)\n{\n'
		for ((i = 0; i < 78; i++)); do printf '\tx++;\n'; done
		printf '\treturn x;\n}\n'		# 82 lines from its name to its brace
		printf 'int edge_fn(int x)\n{\n'
		for ((i = 0; i < 76; i++)); do printf '\tx++;\n'; done
		printf '\treturn x;\n}\n'		# 80 lines
		for ((i = 0; i < 541; i++)); do printf '/* filler */\n'; done
	} >"$t/loader/low/big.c"			# 703 lines
	for ((i = 0; i < 700; i++)); do printf '/* filler */\n'; done >"$t/samples/one/edge.c"
	run "$t/tools/check-sizes"
	echo "$output"
	assert_failure 1
	assert_line "check-sizes: files over 700 lines:"
	assert_line "    703 lines  loader/low/big.c"
	assert_line "check-sizes: functions over 80 lines:"
	assert_line "     82 lines  loader/low/big.c:1 long_fn()"
	refute_output --partial "edge"
	[ "${#lines[@]}" -eq 4 ]
}
