#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# fuzz.bats - the object loader's libFuzzer target (tests/fuzz/fuzz_obj.c)
# runs FUZZ_SECONDS (20 s here) under ASan + UBSan without a finding.
# `make fuzz` builds it first; any crash, leak, timeout or out-of-memory
# makes libFuzzer exit non-zero and leaves the input in
# $BUILD/fuzz/findings/.

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
}

@test "the object loader survives 20 s of fuzzing" {
	run make --no-print-directory BUILD="$BUILD" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$output" | grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' | tail -40
	fi
	[ "$status" -eq 0 ]
	# it really ran: libFuzzer's final line counts the inputs it tried
	[[ "$output" =~ Done\ ([0-9]+)\ runs ]]
	[ "${BASH_REMATCH[1]}" -gt 1000 ]
}
