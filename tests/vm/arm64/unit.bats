#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The C unit tests (tests/unit/), run on the architecture they were built
# for: in the arm64 VM (tests/vm/suites-arm64), the arm64 build's, whose
# code under #if defined(__aarch64__) (the USDT argument specs of arm64)
# the host's build does not have. The host runs its own build's in
# tests/run.

load '/usr/lib/bats/bats-support/load'

@test "unit tests of this architecture's build: every one passes" {
	local t out failed=() n=0
	[ -d "$BUILD/tests/unit" ] || fail "$BUILD/tests/unit is not built (make test-programs)"
	echo "# $(uname -m)" >&3
	for t in "$BUILD"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		n=$((n + 1))
		if ! out=$("$t" 2>&1) || grep -q '^not ok' <<<"$out"; then
			failed+=("$(basename "$t")")
			echo "--- $(basename "$t"):"
			grep -v '^ok' <<<"$out"
		fi
	done
	echo "# $n unit test programs, ${#failed[@]} failed" >&3
	[ "$n" -gt 0 ] || fail "no unit test program in $BUILD/tests/unit"
	[ ${#failed[@]} -eq 0 ] || fail "failed: ${failed[*]}"
}
