#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The documents keep their promises: every shell block marked with
# `<!-- doctest: NAME -->` in README.md, docs/, samples/*/README.md and
# kernel/README.md runs as written, from where the document says to stand,
# and prints output of the shape the document shows (tests/doctest says how
# blocks are marked and matched). The first page's picture is what
# docs/picture.dot draws.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	export BUILD=${BUILD:-build}
}

marked_docs() {
	grep -l '^<!-- doctest: ' README.md docs/*.md samples/*/README.md kernel/README.md 2>/dev/null
}

@test "doctest: a block whose output differs from the document fails" {
	doc="$BATS_TEST_TMPDIR/wrong.md"
	printf '%s\n' '<!-- doctest: greet -->' '```sh' 'echo hello 42' '```' \
		'<!-- doctest-output: greet -->' '```' 'hello 7' 'goodbye' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_failure 1
	assert_output --partial "output lacks the line shown in the document:"
	assert_output --partial "goodbye"
}

@test "doctest: a failing command fails its block, and state carries between blocks" {
	doc="$BATS_TEST_TMPDIR/state.md"
	printf '%s\n' '<!-- doctest: one -->' '```sh' 'X=5; cd ..' '```' \
		'<!-- doctest: two -->' '```sh' 'test "$X" = 5 && test -L bpfsdk/include' 'false' 'echo "reached-$((1 + 1))"' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_failure 1
	assert_line --partial "ok $doc:1: block 'one'"
	assert_line --partial "FAIL $doc:5: block 'two': exited with status 1"
	refute_output --partial "reached-2"
}

@test "doctest: an exact output fails on a line the document does not show, and ... stands for any lines" {
	doc="$BATS_TEST_TMPDIR/exact.md"
	printf '%s\n' '<!-- doctest: q -->' '```sh' 'echo building; echo "probe: 1"; echo "channel: perf"; echo "received 5"' '```' \
		'<!-- doctest-output: q exact -->' '```' '...' 'probe: 7' 'received 9' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_failure 1
	assert_output --partial "an extra line"
	printf '%s\n' '<!-- doctest: q -->' '```sh' 'echo building; echo "probe: 1"; echo "channel: perf"; echo "received 5"' '```' \
		'<!-- doctest-output: q exact -->' '```' '...' 'probe: 7' 'channel: perf' 'received 9' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_success
	# without the leading ..., the first line is one the document does not show
	printf '%s\n' '<!-- doctest: q -->' '```sh' 'echo building; echo "probe: 1"' '```' \
		'<!-- doctest-output: q exact -->' '```' 'probe: 7' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_failure 1
}

@test "doctest: numbers in the shown output match any number" {
	doc="$BATS_TEST_TMPDIR/numbers.md"
	printf '%s\n' '<!-- doctest: n -->' '```sh' 'echo "recv 12 events, 0x1f, c0660000"' '```' \
		'<!-- doctest-output: n -->' '```' 'recv 621469 events, 0x2a, 266c0000' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_success
}

@test "doctest: a histogram bar matches a bar of any length, not another count's row" {
	doc="$BATS_TEST_TMPDIR/bars.md"
	printf '%s\n' '<!-- doctest: h -->' '```sh' "printf '  16 -> 31 : 5 |**      |\\n'" '```' \
		'<!-- doctest-output: h -->' '```' '  16 -> 31 : 5 |********|' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_success
	printf '%s\n' '<!-- doctest: h -->' '```sh' "printf '  16 -> 31 : 5 |**      |\\n'" '```' \
		'<!-- doctest-output: h -->' '```' '  16 -> 31 : 5 x' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_failure 1
}

@test "doctest: a file block is saved where the session stands" {
	doc="$BATS_TEST_TMPDIR/file.md"
	printf '%s\n' '<!-- doctest: go -->' '```sh' 'cd ..' '```' '<!-- doctest-file: note.txt -->' '```' 'saved 1' '```' \
		'<!-- doctest: show -->' '```sh' 'test -d bpfsdk && cat note.txt' '```' \
		'<!-- doctest-output: show -->' '```' 'saved 1' '```' >"$doc"
	run tests/doctest run "$doc"
	assert_success
	assert_line --partial "block 'show'"
}

@test "README links the tutorial and the glossary, and the tutorial is marked" {
	grep -q '(docs/tutorial.md)' README.md
	grep -q '(docs/glossary.md)' README.md
	run tests/doctest list docs/tutorial.md
	assert_line "docs/tutorial.md run-tool"
	assert_line "docs/tutorial.md broken"
}

@test "README's 'Use the headers' example is marked and the README links the picture" {
	run tests/doctest list README.md
	assert_line "README.md hello"
	assert_line "README.md hello-run"
	grep -q '(docs/picture.svg)' README.md
}

@test "every marked block in the documents runs as written" {
	local doc failed=()
	for doc in $(marked_docs); do
		tests/doctest run "$doc" || failed+=("$doc")
	done
	[ ${#failed[@]} -eq 0 ] || fail "documents whose blocks fail: ${failed[*]}"
}

@test "docs/picture.svg is what docs/picture.dot draws (make picture)" {
	command -v dot >/dev/null || skip "graphviz is not installed (make setup)"
	dot -Tsvg docs/picture.dot -o "$BATS_TEST_TMPDIR/picture.svg"
	diff -u docs/picture.svg "$BATS_TEST_TMPDIR/picture.svg" ||
		fail "docs/picture.svg is stale: run 'make picture'"
}

@test "README's 'What is where' and 'Learn' name every document and every sample" {
	local f missing=()
	for f in docs/*.md; do
		grep -q "$(basename "$f")" README.md || missing+=("$f")
	done
	for f in samples/*/; do
		f=$(basename "$f")
		# once in the table, once in the list
		[ "$(grep -ow "$f" README.md | wc -l)" -ge 2 ] || missing+=("samples/$f")
	done
	[ ${#missing[@]} -eq 0 ] || fail "README does not mention: ${missing[*]}"
}

# The second column of docs/from-libbpf.md's tables: bpfsdk's names. Each
# is declared in bpfsdk.h (comments stripped: a name only mentioned there
# does not count) or in a skeleton the tool generates, named X_bpf as the
# page writes it; skel->MEMBER... is a member of that skeleton's struct;
# `bpfsdk CMD...` is a command its --help names.
@test "docs/from-libbpf.md: every bpfsdk name in the second column exists" {
	local build=${BUILD:-build} decl="$BATS_TEST_TMPDIR/decl.h" tok n=0 bad=()
	"$build/bin/bpfsdk" gen skeleton "$build/bpf/tests/skel_types.bpf.o" name X_bpf \
		>"$BATS_TEST_TMPDIR/skel.h" || fail "gen skeleton failed"
	cat loader/bpfsdk.h "$BATS_TEST_TMPDIR/skel.h" | gcc -fpreprocessed -dD -E -P - >"$decl"
	while IFS= read -r tok; do
		n=$((n + 1))
		tok=${tok%()}
		tok=${tok#struct }
		tok=${tok#enum }
		case $tok in
		bpfsdk\ *)
			# shellcheck disable=SC2086 # the command's words
			"$build/bin/bpfsdk" ${tok#bpfsdk } --help 2>&1 | grep -qF -- "$tok" ||
				bad+=("$tok") ;;
		skel-\>*)
			tok=${tok#skel->}
			tok=${tok%%[.-]*}
			grep -Eq "[ *]$tok;" "$BATS_TEST_TMPDIR/skel.h" || bad+=("skel->$tok") ;;
		*)
			[[ $tok =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && grep -qw -- "$tok" "$decl" ||
				bad+=("$tok") ;;
		esac
	done < <(awk -F'|' '/^\| `/ { print $3 }' docs/from-libbpf.md | grep -o '`[^`]*`' | tr -d '`')
	[ "$n" -ge 60 ] || fail "only $n names found in the second column"
	[ ${#bad[@]} -eq 0 ] || fail "not in bpfsdk.h or a skeleton: ${bad[*]}"
}

# Each command's options are written once, in the table its --help prints them
# from (loader/cli/run/run_options.c, inspect/inspect.c, gen/gen.c);
# docs/bpfsdk-run.md's "Every option" list is a doctest of run's. The man page
# names some in each command's synopsis: each must be one --help lists.
@test "docs/man/bpfsdk.8: the options each command's synopsis names are ones its --help lists" {
	local build=${BUILD:-build} cmd opt n bad=()
	for cmd in run inspect gen; do
		"$build/bin/bpfsdk" "$cmd" --help | sed -n '/^OPTIONS$/,/^[A-Z]/s/^    -/-/p' >"$BATS_TEST_TMPDIR/opts"
		[ "$(wc -l <"$BATS_TEST_TMPDIR/opts")" -ge 3 ] || fail "$cmd --help lists too few options"
		n=0
		while IFS= read -r opt; do
			n=$((n + 1))
			grep -Eq -- "(^|, )$opt( |,|\$)" "$BATS_TEST_TMPDIR/opts" || bad+=("$cmd $opt")
		done < <(sed -n "/^\.BI \"$cmd /p" docs/man/bpfsdk.8 | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z.-]*')
		[ "$n" -ge 2 ] || fail "only $n options found in the man page's $cmd synopsis"
	done
	[ "$("$build/bin/bpfsdk" run --help | sed -n '/^OPTIONS$/,/^[A-Z]/s/^    -/-/p' | wc -l)" -ge 30 ] ||
		fail "run --help lists too few options"
	[ ${#bad[@]} -eq 0 ] || fail "not in the command's --help: ${bad[*]}"
}
