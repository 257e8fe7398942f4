#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bench/co_re_bench as a smoke test: one sample of each contender, a row for each. No figure is
# asserted - timings on a shared machine are not test results; `make bench-co-re` is where
# they are measured.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/co_re_bench"
	OBJ="$BUILD/bpf/co_re_bench.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux: nothing to resolve against"
}

@test "co_re_bench opens and loads the CO-RE object with both loaders and prints every row" {
	run "$BIN" --obj "$OBJ" --samples 1
	echo "$output"
	assert_success
	assert_line '| contender | open+load+close median | p10–p90 | / libbpf (same way) |'
	for c in bsdk-warm libbpf-warm bsdk-cold libbpf-cold; do
		assert_line --regexp "^\| $c \| [0-9.]+ ms \| [0-9.]+–[0-9.]+ ms \| [0-9.]+ \|$"
		assert_line --regexp "^bench: name=$c samples=1 median_ms=[0-9.]+ "
	done
}

@test "co_re_bench: the object it times resolves every CO-RE relocation here" {
	run "$BUILD/bin/bpfsdk" inspect --json "$OBJ"
	assert_success
	n=$(jq '[.programs[].core_relocations[]] | length' <<<"$output")
	bad=$(jq '[.programs[].core_relocations[] | select(.state != "resolved")] | length' <<<"$output")
	[ "$n" -ge 40 ] || fail "only $n CO-RE relocations"
	[ "$bad" -eq 0 ] || fail "$bad relocations not resolved"
}
