#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# fuzz.bats - each libFuzzer target of tests/fuzz/ (one per parser: the
# object, .BTF, .BTF.ext, the perf and BPF ring walkers, a binary's USDT
# notes, the BTF value printer) runs FUZZ_SECONDS (6 s here, about 40 s
# in all) under ASan + UBSan without a finding. `make fuzz-NAME`
# builds it and its seeds first; any crash, leak, timeout or out-of-memory
# makes libFuzzer exit non-zero and leaves the input in
# $BUILD/fuzz/findings/. `make fuzz` runs them all for longer.

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
}

# fuzz_ok TARGET: make TARGET ran without a finding, and really ran
fuzz_ok() {
	run make --no-print-directory -j"$(nproc)" BUILD="$BUILD" "$1" FUZZ_SECONDS="${FUZZ_SECONDS:-6}"
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$output" | grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' | tail -40
	fi
	[ "$status" -eq 0 ]
	# libFuzzer's final line counts the inputs it tried
	[[ "$output" =~ Done\ ([0-9]+)\ runs ]]
	echo "# $1: ${BASH_REMATCH[1]} runs" >&3
	[ "${BASH_REMATCH[1]}" -gt 1000 ]
}

@test "fuzz: the object loader" {
	fuzz_ok fuzz-obj
}

@test "fuzz: .BTF alone" {
	fuzz_ok fuzz-btf
}

@test "fuzz: .BTF.ext in the test objects" {
	fuzz_ok fuzz-btf-ext
}

@test "fuzz: the perf and BPF ring walkers over any ring contents" {
	fuzz_ok fuzz-perf-ring
}

@test "fuzz: a binary's USDT notes and their argument strings" {
	fuzz_ok fuzz-usdt
}

@test "fuzz: the BTF value printer" {
	fuzz_ok fuzz-btf-print
}
