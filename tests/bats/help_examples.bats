#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Every example in the EXAMPLES section of a bpfsdk command's --help runs as
# written, from the top of the tree with build/bin on PATH, as the help says,
# and prints something. An example is the run of lines indented by eight
# spaces under its description; one that streams until Ctrl-C gets SIGINT
# after a few seconds, as a reader would type it, and must still exit 0.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	BIN=$(realpath -e "$BUILD/bin") || fail "$BUILD/bin is not built (run make)"
	# the examples say build/...: give them a tree where build is $BUILD
	TOP="$BATS_TEST_TMPDIR/top"
	mkdir -p "$TOP"
	ln -s "$(realpath -e "$BUILD")" "$TOP/build"
}

# examples CMD...: each example of `bpfsdk CMD --help`, one per line, its
# command lines joined by newlines encoded as \n.
examples() {
	"$BIN/bpfsdk" "$@" --help | awk '
		/^EXAMPLES/ { on = 1; next }
		/^[A-Z]/ { on = 0 }
		!on { next }
		/^        [^ ]/ { sub(/^        /, ""); cur = cur (cur == "" ? "" : "\\n") $0; next }
		{ if (cur != "") print cur; cur = "" }
		END { if (cur != "") print cur }'
}

run_examples() {
	local n=0 ex out status
	while IFS= read -r ex; do
		n=$((n + 1))
		out="$BATS_TEST_TMPDIR/out.$n"
		(cd "$TOP" && PATH="$BIN:$PATH" timeout -s INT 8 bash -c "$(printf '%b' "$ex")") \
			>"$out" 2>&1 && status=0 || status=$?
		[ "$status" -eq 0 ] || { cat "$out"; fail "example $n exited $status: $(printf '%b' "$ex")"; }
		[ -s "$out" ] || fail "example $n printed nothing: $(printf '%b' "$ex")"
		echo "# example $n: $(head -c 200 "$out" | head -2)" >&3
	done < <(examples "$@")
	[ "$n" -ge "${MIN_EXAMPLES:-1}" ] || fail "bpfsdk $* --help has $n examples"
}

@test "bpfsdk run --help: every example runs as written and prints records" {
	MIN_EXAMPLES=3 run_examples run
	# the headline sample's example really streamed its dd's records
	grep -q '^events ' "$BATS_TEST_TMPDIR/out.1" || fail "no records from example 1"
	[ "$(grep -c '^events ' "$BATS_TEST_TMPDIR/out.1")" -eq 10 ]
}

@test "bpfsdk inspect --help: every example runs as written" {
	MIN_EXAMPLES=2 run_examples inspect
	grep -qx 'events' "$BATS_TEST_TMPDIR/out.2" || fail "no map named events in example 2"
}
