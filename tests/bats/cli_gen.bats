#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bpfsdk gen skeleton: the header names the object's maps, programs and
# global variables (each at its offset, checked at compile time), embeds
# the object byte for byte, and a program built on it (tests/drivers/
# skel_driver.c, whose skeleton the build generates) sets .rodata before
# load, reads .bss after it with no system call and writes .data the
# program then sees. Bad input gets one error line and nothing on stdout.

load cli_common
bats_require_minimum_version 1.5.0

setup() {
	cli_setup
	DRIVER=$(realpath -e "$BUILD/bin/skel_driver") || fail "skel_driver is not built (run make)"
	SKEL="$BATS_TEST_TMPDIR/skel_types.skel.h"
}

@test "gen: the skeleton names the maps, programs and globals, statics left out" {
	run "$BPFSDK" gen skeleton "$OBJS/skel_types.bpf.o"
	assert_success
	printf '%s\n' "$output" >"$SKEL"
	for line in 'struct skel_types_bpf {' 'struct bsdk_obj \*obj;' 'struct bsdk_map \*rodata;' \
		    'struct bsdk_map \*data;' 'struct bsdk_map \*bss;' 'struct bsdk_prog \*on_getppid;' \
		    'struct skel_types_bpf__rodata \*rodata;' 'struct skel_types_bpf__bss \*bss;' \
		    '__u32 target_pid;' '__u8 small;' 'char __pad0\[3\];' 'char label\[12\];' \
		    'unsigned int typed;' '__u32 color;' 'struct skel_pair pair;' \
		    'struct \{ __u16 a; __u32 b : 4; __u32 c : 12; __u64 d; \} anon;' \
		    '__u32 matrix\[2\]\[3\];' '__u64 ptr;' \
		    'static inline struct skel_types_bpf \*skel_types_bpf__open\(void\)' \
		    'static inline int skel_types_bpf__load\(struct skel_types_bpf \*skel\)' \
		    'static inline int skel_types_bpf__attach\(struct skel_types_bpf \*skel\)' \
		    'static inline void skel_types_bpf__detach\(struct skel_types_bpf \*skel\)' \
		    'static inline void skel_types_bpf__destroy\(struct skel_types_bpf \*skel\)' \
		    'static inline struct skel_types_bpf \*skel_types_bpf__open_and_load\(void\)'; do
		grep -Eq "^[[:space:]]*$line" "$SKEL" || fail "no line '$line' in the skeleton"
	done
	! grep -q hidden "$SKEL" || fail "the static variable 'hidden' got a member"
}

@test "gen: the header compiles alone with -Wall -Wextra -Werror, C11 and C++" {
	run "$BPFSDK" gen skeleton "$OBJS/skel_types.bpf.o"
	printf '%s\n' "$output" >"$SKEL"
	printf '#include <linux/types.h>\n#include "%s"\n#include "%s"\nint main(void) { return skel_types_bpf__open() == 0; }\n' \
		"$PWD/tests/bpf/skel_types.h" "$SKEL" >"$BATS_TEST_TMPDIR/use.c"
	run cc -std=c11 -Wall -Wextra -Werror -Iloader -c "$BATS_TEST_TMPDIR/use.c" -o "$BATS_TEST_TMPDIR/use.o"
	assert_success
	if command -v g++ >/dev/null; then
		run g++ -x c++ -Wall -Wextra -Werror -Iloader -c "$BATS_TEST_TMPDIR/use.c" -o "$BATS_TEST_TMPDIR/use.o"
		assert_success
	fi
}

@test "gen: a layout the header does not match fails to compile, naming the variable" {
	run "$BPFSDK" gen skeleton "$OBJS/skel_types.bpf.o"
	# a user definition of struct skel_pair that disagrees with the object's
	printf '#include <linux/types.h>\nstruct skel_pair { __u64 x, y; };\n%s\n' "$output" >"$SKEL"
	printf '#include "%s"\n' "$SKEL" >"$BATS_TEST_TMPDIR/use.c"
	run cc -std=c11 -Iloader -c "$BATS_TEST_TMPDIR/use.c" -o "$BATS_TEST_TMPDIR/use.o"
	assert_failure
	assert_output --partial "the layout of 'pair' in .data"
}

@test "gen: the embedded object is the file, byte for byte" {
	run "$DRIVER" --dump "$BATS_TEST_TMPDIR/dumped.o"
	assert_success
	cmp "$BATS_TEST_TMPDIR/dumped.o" "$OBJS/skel_types.bpf.o"
}

@test "gen: a program on the skeleton sets .rodata before load, reads .bss and writes .data after" {
	[ "$(id -u)" = 0 ] || skip "needs root for bpf()"
	run "$DRIVER"
	assert_success
	assert_line "before load: small=3 big=0x1122334455667788 label=skel cookie=0xc0ffee typed=5 color=7 pair=1,2 anon=9,3,100,77 matrix=6"
	assert_line "attached 1"
	# 10 + 0x1122334455667788 + 5 + 7 + (1 + 2) + (9 + 3 + 100 + 77) + 6 + 4 hidden runs
	assert_line "after 4: hits=4 seen_cookie=0xc0ffee seen_sum=1234605616436508776 small=10"
	assert_line "after 5: hits=5 seen_cookie=0xabc"
}

@test "gen: a libbpf-bootstrap-style main(): attach is 0, detach stops tracing, the final drain still reads" {
	[ "$(id -u)" = 0 ] || skip "needs root for bpf()"
	run --separate-stderr "$BUILD/bin/skel_bootstrap"
	assert_success
	# stdout exactly: the record polled, then after detaching only what
	# came before it (getpgid(200) after detach never arrives)
	expected=$(printf '%s\n' "attached 1" "poll 101" "attached after detach 0" "drain 102" "drain 103" "records 3")
	[ "$output" = "$expected" ] || fail "stdout:
$output
expected:
$expected"
	# the program that cannot attach is a warning, not an error
	[[ $stderr == *"warning: 'skel_bootstrap.bpf.o': program 'on_missing' (section 'tracepoint/syscalls/sys_enter_bpfsdk_no_such_call'): left out: tracepoint 'syscalls/sys_enter_bpfsdk_no_such_call' does not exist on this kernel"* ]] ||
		fail "no leave-out warning for on_missing; stderr: $stderr"
	[[ $stderr != *error:* ]] || fail "an error on stderr: $stderr"
}

@test "gen: NAME__attach() with nothing attached is a negative errno, said once" {
	[ "$(id -u)" = 0 ] || skip "needs root for bpf()"
	run --separate-stderr "$BUILD/bin/skel_bootstrap" --none
	assert_failure 1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"error: 'skel_bootstrap.bpf.o': no program attached: each was left out (the warnings above say why)"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *"failed to attach the BPF skeleton: -4006 (probe point not found)"* ]] ||
		fail "stderr: $stderr"
}

@test "gen: NAME__open_file() of another object fails with a message naming what is missing" {
	run "$DRIVER" --object "$OBJS/globals.bpf.o"
	assert_failure
	# the first the skeleton looks for and the other object lacks: the data
	# section whose name the header escapes, looked for as the object spells it
	assert_output --partial "/globals.bpf.o': no map '.data.q\"x*/y\\z??/': the skeleton was generated from another object"
	assert_output --partial "open failed: No such file or directory"
	run "$DRIVER" --object "$OBJS/skel_types.bpf.o"
	[ "$(id -u)" = 0 ] || return 0
	assert_success
	assert_line "attached 1"
}

@test "gen: --name names the struct and the functions" {
	run "$BPFSDK" gen skeleton --name probe "$OBJS/obj_basic.bpf.o"
	assert_success
	assert_line "struct probe {"
	assert_line --partial "static inline struct probe *probe__open(void)"
	assert_line --partial "#ifndef BSDK_SKEL_PROBE_H"
}

# open_name HEADER: the NAME of the NAME__open(void) the skeleton HEADER declares
open_name() {
	grep -o '[A-Za-z0-9_]*__open(void)' "$1" | sort -u | sed 's/__open(void)$//'
}

@test "gen: the default name is bpftool's: the file name without .o, other characters made _" {
	cp "$OBJS/obj_basic.bpf.o" "$BATS_TEST_TMPDIR/my-tool.v2.bpf.o"
	"$BPFSDK" gen skeleton "$BATS_TEST_TMPDIR/my-tool.v2.bpf.o" >"$BATS_TEST_TMPDIR/ours.h"
	run open_name "$BATS_TEST_TMPDIR/ours.h"
	assert_output my_tool_v2_bpf
	run grep -c '^struct my_tool_v2_bpf {$' "$BATS_TEST_TMPDIR/ours.h"
	assert_output 1
	command -v bpftool >/dev/null || skip "no bpftool to compare with"
	(cd "$BATS_TEST_TMPDIR" && bpftool gen skeleton my-tool.v2.bpf.o >theirs.h) ||
		skip "bpftool cannot write a skeleton of this object"
	run open_name "$BATS_TEST_TMPDIR/theirs.h"
	assert_output my_tool_v2_bpf
}

@test "gen: bpftool's 'name NAME' after the object, as --name" {
	run "$BPFSDK" gen skeleton "$OBJS/obj_basic.bpf.o" name probe
	assert_success
	assert_line "struct probe {"
	assert_line --partial "static inline struct probe *probe__open(void)"
	run "$BPFSDK" gen skeleton "$OBJS/obj_basic.bpf.o" name
	assert_equal "$status" 2
	assert_output --partial "'name' wants the skeleton's name after it"
	run "$BPFSDK" gen skeleton "$OBJS/obj_basic.bpf.o" name a name b
	assert_equal "$status" 2
	assert_output --partial "one object at a time"
}

@test "gen: errors: not an object, no object, a name that is not C, another thing to generate" {
	printf 'not ELF' >"$BATS_TEST_TMPDIR/junk.o"
	run "$BPFSDK" gen skeleton "$BATS_TEST_TMPDIR/junk.o"
	[ "$status" -eq 1 ] || fail "status $status"
	[ "$(grep -c '^error: ' <<<"$output")" -eq 1 ] || fail "not one error line: $output"
	"$BPFSDK" gen skeleton "$BATS_TEST_TMPDIR/junk.o" >"$BATS_TEST_TMPDIR/out" 2>/dev/null || true
	[ ! -s "$BATS_TEST_TMPDIR/out" ] || fail "something on stdout: $(cat "$BATS_TEST_TMPDIR/out")"
	run "$BPFSDK" gen skeleton
	assert_equal "$status" 2
	assert_output --partial "no object file given"
	run "$BPFSDK" gen skeleton --name 9lives "$OBJS/obj_basic.bpf.o"
	assert_equal "$status" 2
	assert_output --partial "'9lives' is not a C identifier"
	run "$BPFSDK" gen vmlinux "$OBJS/obj_basic.bpf.o"
	assert_equal "$status" 2
	assert_output --partial "unknown thing to generate 'vmlinux'"
	run "$BPFSDK" gen skeleton "$BATS_TEST_TMPDIR/none.o"
	assert_equal "$status" 1
	assert_output --partial "cannot read"
	run "$BPFSDK" gen skeleton --name int "$OBJS/obj_basic.bpf.o"
	assert_equal "$status" 2
	assert_output --partial "'int' is not a C identifier"
}

# renamed OBJ FROM TO OUT: OBJ with every FROM\0 in it made TO, as long,
# NUL-padded: names an object only a tool would write
renamed() {
	python3 -c '
import sys
d, old, new = open(sys.argv[1], "rb").read(), sys.argv[2].encode() + b"\0", sys.argv[3].encode()
assert old in d and len(new) < len(old)
open(sys.argv[4], "wb").write(d.replace(old, new.ljust(len(old), b"\0")))
' "$@"
}

@test "gen: a name C cannot use, or two variables of one name, is one error, not a header that does not compile" {
	# a program called 'int', a keyword: 'struct bsdk_prog *int;' is no C
	renamed "$OBJS/skel_types.bpf.o" on_getppid int "$BATS_TEST_TMPDIR/kw.o"
	run --separate-stderr "$BPFSDK" gen skeleton --name kw "$BATS_TEST_TMPDIR/kw.o"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "error: program 'int' would be called 'int' in the skeleton, which C cannot name"
	# a variable called 'int' has no member, and a struct tag 'int' no
	# declaration: the rest of the header still compiles
	renamed "$OBJS/skel_types.bpf.o" cookie int "$BATS_TEST_TMPDIR/var.o"
	renamed "$BATS_TEST_TMPDIR/var.o" skel_pair long "$BATS_TEST_TMPDIR/tag.o"
	"$BPFSDK" gen skeleton --name tag "$BATS_TEST_TMPDIR/tag.o" >"$BATS_TEST_TMPDIR/tag.skel.h"
	data=$(sed -n '/^struct tag__data {/,/^};/p' "$BATS_TEST_TMPDIR/tag.skel.h")
	[[ "$data" == *$'\tchar __pad0[8];\n'* ]] || fail "no padding where 'int' was: $data"
	[[ "$data" == *$'\tunsigned char pair[8];'* ]] || fail "pair is not bytes: $data"
	[[ "$data" != *" int;"* && "$data" != *"struct long"* ]] || fail "a keyword in the header: $data"
	printf '#include "tag.skel.h"\nint main(void) { return 0; }\n' >"$BATS_TEST_TMPDIR/m.c"
	cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -Iloader -I"$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/m.c"
	# two variables of .data called 'color': two members of one name
	renamed "$OBJS/skel_types.bpf.o" typed color "$BATS_TEST_TMPDIR/dup.o"
	run --separate-stderr "$BPFSDK" gen skeleton --name dup "$BATS_TEST_TMPDIR/dup.o"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "error: section '.data' has two variables called 'color'"
}

@test "gen: a user-side record struct that drifted from the object's fails to build, naming the member" {
	local h="$BATS_TEST_TMPDIR/rec.skel.h" c="$BATS_TEST_TMPDIR/rec.c"
	"$BPFSDK" gen skeleton "$OBJS/skel_bootstrap.bpf.o" >"$h"
	grep -q "^/\* map 'events' streams struct bootstrap_event (annotation)" "$h" ||
		fail "no record checks in the skeleton"
	# the same size, two fields swapped: would print each other's values
	printf '#include <linux/types.h>\nstruct bootstrap_event { __u32 arg; __u32 tgid; };\n#include "%s"\nint main(void) { return 0; }\n' \
		"$h" >"$c"
	run --separate-stderr cc -std=c11 -Wall -Werror -Iloader -c "$c" -o "$BATS_TEST_TMPDIR/rec.o"
	assert_failure
	[[ $stderr == *"struct bootstrap_event: member 'tgid' at offset 0, 4 bytes, in skel_bootstrap.bpf.o"* ]] ||
		fail "the error does not name the member: $stderr"
	run cc -std=c11 -Wall -Werror -DBSDK_SKEL_NO_RECORD_CHECKS -Iloader -c "$c" -o "$BATS_TEST_TMPDIR/rec.o"
	assert_success
	printf '#include <linux/types.h>\nstruct bootstrap_event { __u32 tgid; __u32 arg; };\n#include "%s"\nint main(void) { return 0; }\n' \
		"$h" >"$c"
	run cc -std=c11 -Wall -Werror -Iloader -c "$c" -o "$BATS_TEST_TMPDIR/rec.o"
	assert_success
}
