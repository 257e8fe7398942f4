#!/usr/bin/env bats
# samples/profile on the running kernel: a program that spins in a known
# function must dominate the samples of its pid, named by symbol, with its
# caller, in folded stacks a flame graph tool can read.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/profile"
	TARGET="$BUILD/bin/profile_target"
	[ -x "$BIN" ] && [ -x "$TARGET" ] || fail "$BIN or $TARGET is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/profile.out"
	ERR="$BATS_TEST_TMPDIR/profile.err"
	SPINNER=
}

teardown() {
	[ -z "$SPINNER" ] || kill "$SPINNER" 2>/dev/null || true
}

# profile_target spinning for longer than the profile runs: the process
# must still be there when its frames are named.
start_spinner() {
	"$TARGET" 60 >/dev/null 3>&- &
	SPINNER=$!
}

@test "profile: a busy loop in a known function dominates its pid's samples" {
	start_spinner
	run "$BIN" --pid "$SPINNER" -F 99 --duration 2
	echo "$output"
	assert_success
	folded=$(grep -v '^profile:\|^samples' <<<"$output")
	# Every line is folded: "comm;frame;... COUNT", and every one is the
	# target's (--pid filters in the kernel).
	# A frame may read "function (file.c:LINE)": the count is after the
	# last space.
	assert_equal "$(grep -Evc '^[^ ;]+(;[^;]+)* [0-9]+$' <<<"$folded")" 0
	assert_equal "$(grep -vc '^profile_target;' <<<"$folded")" 0
	# At least 90% of the samples are in profile_target_spin, called by
	# main (the target keeps frame pointers).
	read -r spin total < <(awk '{ n = $NF; t += n } /;main( \([^)]*\))?;profile_target_spin[ ;]/ { s += n } END { print s + 0, t + 0 }' <<<"$folded")
	[ "$total" -gt 0 ] || fail "no samples"
	[ $((spin * 10)) -ge $((total * 9)) ] || fail "profile_target_spin has $spin of $total samples"
	# The summary accounts for them.
	grep -Eq "^samples $total, stacks [0-9]+, missing 0$" <<<"$output" ||
		fail "the summary does not say samples $total"
}

@test "profile --json: the stacks innermost first, counts adding up" {
	start_spinner
	"$BIN" --pid "$SPINNER" -F 99 --duration 1 --json >"$OUT" 2>"$ERR"
	cat "$OUT" "$ERR"
	run python3 - "$OUT" "$ERR" "$SPINNER" <<'PY'
import json, re, sys
out, err, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
stacks = [json.loads(l) for l in open(out)]
total = sum(s["count"] for s in stacks)
bare = lambda frames: [re.sub(r" \(.*\)$", "", f) for f in frames[:2]]
spin = sum(s["count"] for s in stacks if bare(s["ustack"]) == ["profile_target_spin", "main"])
assert all(s["pid"] == pid and s["comm"] == "profile_target" for s in stacks), stacks
assert total > 0 and spin * 10 >= total * 9, (spin, total)
m = re.search(r"^samples (\d+), stacks (\d+), missing 0$", open(err).read(), re.M)
assert m and int(m.group(1)) == total and int(m.group(2)) == len(stacks), m
print(f"ok: {spin} of {total}")
PY
	echo "$output"
	assert_success
	assert_output --regexp '^ok: '
}

@test "profile names a frame 'function (file.c:LINE)' in a program built with -g" {
	command -v cc >/dev/null || skip "no C compiler here"
	src="$BATS_TEST_TMPDIR/spin_where.c"
	cat >"$src" <<'C'
#include <stdlib.h>
#include <time.h>
volatile unsigned long spin_where_sink;
__attribute__((noinline)) void spin_where_loop(double seconds)
{
	time_t end = time(NULL) + (time_t)seconds;
	while (time(NULL) < end)		/* LOOP FIRST */
		for (int i = 0; i < 100000; i++)
			spin_where_sink += (unsigned long)i;	/* LOOP LAST */
}
int main(int argc, char **argv) { spin_where_loop(argc > 1 ? atof(argv[1]) : 30); return 0; }
C
	first=$(grep -n 'LOOP FIRST' "$src" | cut -d: -f1)
	last=$(grep -n 'LOOP LAST' "$src" | cut -d: -f1)
	cc -g -O0 -fno-omit-frame-pointer -o "$BATS_TEST_TMPDIR/spin_where" "$src"
	"$BATS_TEST_TMPDIR/spin_where" 60 >/dev/null 3>&- &
	SPINNER=$!
	run "$BIN" --pid "$SPINNER" -F 99 --duration 1 --user
	assert_success
	line=$(grep -o 'spin_where_loop (spin_where\.c:[0-9]*)' <<<"$output" | head -1)
	echo "frame: $line"
	[ -n "$line" ] || fail "no frame 'spin_where_loop (spin_where.c:LINE)' in: $output"
	n=${line##*:}
	n=${n%)}
	[ "$n" -ge "$first" ] && [ "$n" -le "$last" ] ||
		fail "line $n is not in the loop's lines $first-$last"
	# main's frame names the line of its call.
	grep -q ";main (spin_where\.c:$((last + 2)));spin_where_loop (" <<<"$output" ||
		fail "main's frame does not name line $((last + 2)), the call"
}

@test "profile names a stripped program's frames from its separate debug file (.gnu_debuglink)" {
	command -v cc >/dev/null && command -v objcopy >/dev/null || skip "no cc or objcopy here"
	src="$BATS_TEST_TMPDIR/spin_split.c"
	cat >"$src" <<'C'
#include <stdlib.h>
#include <time.h>
volatile unsigned long spin_split_sink;
__attribute__((noinline)) void spin_split_loop(double seconds)
{
	time_t end = time(NULL) + (time_t)seconds;
	while (time(NULL) < end)		/* LOOP FIRST */
		for (int i = 0; i < 100000; i++)
			spin_split_sink += (unsigned long)i;	/* LOOP LAST */
}
int main(int argc, char **argv) { spin_split_loop(argc > 1 ? atof(argv[1]) : 30); return 0; }
C
	first=$(grep -n 'LOOP FIRST' "$src" | cut -d: -f1)
	last=$(grep -n 'LOOP LAST' "$src" | cut -d: -f1)
	bin="$BATS_TEST_TMPDIR/spin_split"
	cc -g -O0 -fno-omit-frame-pointer -o "$bin" "$src"
	# the debug info into a file of its own, every symbol out of the
	# program, and a link from it to that file (found beside it)
	objcopy --only-keep-debug "$bin" "$bin.debug"
	objcopy --strip-all --add-gnu-debuglink="$bin.debug" "$bin"
	! nm "$bin" 2>/dev/null | grep -q spin_split_loop || fail "the program still has its symbols"
	"$bin" 60 >/dev/null 3>&- &
	SPINNER=$!
	run "$BIN" --pid "$SPINNER" -F 99 --duration 1 --user
	assert_success
	line=$(grep -o 'spin_split_loop (spin_split\.c:[0-9]*)' <<<"$output" | head -1)
	echo "frame: $line"
	[ -n "$line" ] || fail "no frame 'spin_split_loop (spin_split.c:LINE)' in: $output"
	n=${line##*:}
	n=${n%)}
	[ "$n" -ge "$first" ] && [ "$n" -le "$last" ] ||
		fail "line $n is not in the loop's lines $first-$last"
}

@test "profile names a function inlined into another as a frame of its own, at its line and the call's" {
	command -v cc >/dev/null || skip "no C compiler here"
	src="$BATS_TEST_TMPDIR/spin_inl.c"
	cat >"$src" <<'C'
#include <stdlib.h>
#include <time.h>
volatile unsigned long spin_inl_sink;
static inline __attribute__((always_inline)) void spin_inl_inner(void)
{
	for (int i = 0; i < 100000; i++)		/* INNER FIRST */
		spin_inl_sink += (unsigned long)i;	/* INNER LAST */
}
__attribute__((noinline)) void spin_inl_outer(double seconds)
{
	time_t end = time(NULL) + (time_t)seconds;
	while (time(NULL) < end)
		spin_inl_inner();			/* CALL */
}
int main(int argc, char **argv) { spin_inl_outer(argc > 1 ? atof(argv[1]) : 30); return 0; }
C
	first=$(grep -n 'INNER FIRST' "$src" | cut -d: -f1)
	last=$(grep -n 'INNER LAST' "$src" | cut -d: -f1)
	call=$(grep -n '/\* CALL' "$src" | cut -d: -f1)
	cc -g -O2 -fno-omit-frame-pointer -o "$BATS_TEST_TMPDIR/spin_inl" "$src"
	"$BATS_TEST_TMPDIR/spin_inl" 60 >/dev/null 3>&- &
	SPINNER=$!
	run "$BIN" --pid "$SPINNER" -F 99 --duration 1 --user
	assert_success
	pair=$(grep -o "spin_inl_outer (spin_inl\.c:$call);spin_inl_inner (spin_inl\.c:[0-9]*)" <<<"$output" | head -1)
	echo "frames: $pair"
	[ -n "$pair" ] || fail "no 'spin_inl_outer (spin_inl.c:$call);spin_inl_inner (spin_inl.c:LINE)' in: $output"
	n=${pair##*:}
	n=${n%)}
	[ "$n" -ge "$first" ] && [ "$n" -le "$last" ] ||
		fail "spin_inl_inner's line $n is not in its loop's lines $first-$last"
}

@test "profile --user leaves out kernel frames, --kernel user frames" {
	start_spinner
	run "$BIN" --pid "$SPINNER" -F 99 --duration 1 --user
	assert_success
	! grep -q '_\[k\]' <<<"$output" || fail "a kernel frame with --user"
	run "$BIN" --pid "$SPINNER" -F 99 --duration 1 --kernel
	assert_success
	! grep -q 'profile_target_spin' <<<"$output" || fail "a user frame with --kernel"
}

@test "profile in a pipe: head ends it quietly with status 0" {
	run bash -c "set -o pipefail; '$BIN' -F 199 --duration 1 -I 2>'$ERR' | head -1"
	assert_success
	assert_equal "${#lines[@]}" 1
	! grep -q '^error' "$ERR" || fail "an error on stderr: $(cat "$ERR")"
}

@test "profile --help documents every option and the format" {
	run "$BIN" --help
	assert_success
	for word in --frequency --pid --duration --user --kernel --idle --json --object \
		    --verbose --help COMM COUNT '_[k]' samples missing; do
		assert_output --partial -- "$word"
	done
}

@test "profile rejects bad options with exit 2 and one error line" {
	run "$BIN" -F 0
	assert_failure 2
	assert_output "error: --frequency '0' is not a number from 1 to 10000"
	run "$BIN" -U -K
	assert_failure 2
	assert_output "error: --user and --kernel together leave nothing to show"
	run "$BIN" --pid 0
	assert_failure 2
	assert_output "error: --pid '0' is not a process id"
	run "$BIN" extra
	assert_failure 2
	assert_output "error: unexpected argument 'extra' (try 'profile --help')"
}

@test "profile names a missing object and exits 1" {
	run "$BIN" --object /nonexistent/profile.bpf.o --duration 1
	assert_failure 1
	assert_output --partial "error: cannot open '/nonexistent/profile.bpf.o'"
}

@test "profile --object loads that file instead of the object built in" {
	run "$BIN" --object "$BUILD/bpf/profile.bpf.o" --duration 0.5
	assert_success
	# Not an object at all: the error names the file, so it was read.
	printf 'not ELF' >"$BATS_TEST_TMPDIR/bad.o"
	run "$BIN" --object "$BATS_TEST_TMPDIR/bad.o" --duration 0.5
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/bad.o"
}

@test "profile's BPF side compiles with our headers and with libbpf's" {
	[ -f /usr/include/bpf/bpf_helpers.h ] || skip "libbpf-dev is not installed"
	command -v clang >/dev/null || skip "no clang here"
	multiarch=$(gcc -print-multiarch)
	for inc in include /usr/include; do
		run clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$inc" -Isamples/profile -idirafter "/usr/include/$multiarch" \
			-c samples/profile/profile.bpf.c -o "$BATS_TEST_TMPDIR/out.o" -MD -MF "$BATS_TEST_TMPDIR/out.d"
		assert_success
		grep -q "$inc/bpf/bpf_helpers.h" "$BATS_TEST_TMPDIR/out.d" ||
			fail "built with -I$inc but bpf_helpers.h came from elsewhere"
	done
}
