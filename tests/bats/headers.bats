#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The header-only SDK in include/: every header compiles on its own; one
# program exercising all of it compiles with our headers and, unchanged, with
# libbpf's, into the same code; the record tag reaches the object's BTF (and
# the kernel); the register macros read the right registers; and
# include/bpf/bpf_helper_defs.h is exactly what tools/gen-helper-defs makes of
# the installed UAPI linux/bpf.h, which `make check-headers` enforces.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

HEADERS="bpf_helpers.h bpf_helper_defs.h bpf_tracing.h bpf_core_read.h bpf_endian.h usdt.bpf.h"
UAPI_BPF_H=${UAPI_BPF_H:-/usr/include/linux/bpf.h}
LIBBPF_INC=/usr/include/bpf

setup_file() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	export REPO=$PWD
	case "$(uname -m)" in
	aarch64) export TARGET_ARCH=arm64 ;;
	*) export TARGET_ARCH=x86 ;;
	esac
	multiarch=$(gcc -print-multiarch 2>/dev/null || cc -print-multiarch)
	export MULTIARCH_INC="/usr/include/$multiarch"
	export BPF_FLAGS="-O2 -g -target bpf -D__TARGET_ARCH_$TARGET_ARCH -Wall -Wextra -Werror -idirafter $MULTIARCH_INC"

	# The sample program lives in a directory of its own, next to no
	# header, so that "bpf_helpers.h" can only come from the -I given.
	mkdir -p "$BATS_FILE_TMPDIR/src"
	write_program >"$BATS_FILE_TMPDIR/src/prog.bpf.c"
}

setup() {
	cd "$REPO" || return 1
	SRC="$BATS_FILE_TMPDIR/src/prog.bpf.c"
}

# A program that uses every part of the SDK: a BTF-defined PERF_EVENT_ARRAY
# tagged with its record struct, a BTF hash map, a legacy map, BPF_KPROBE and
# BPF_KRETPROBE, a BPF_CORE_READ chain, bpf_htons and helpers. It is written
# to build with libbpf's headers too: libbpf 1.x dropped struct bpf_map_def,
# and BPFSDK_RECORD is ours, so both get a fallback when missing.
write_program() {
	cat <<'EOF'
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#ifndef BPFSDK_BPF_HELPERS_H
struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};
#endif
#ifndef BPFSDK_RECORD
#define BPFSDK_RECORD(name)
#endif

/* Just the fields read, as CO-RE allows: the loader finds their offsets. */
struct task_struct {
	int tgid;
	struct task_struct *real_parent;
} __attribute__((preserve_access_index));

struct event {
	__u64 pid;
	__u64 cookie;
	__u64 count;
	__u32 ppid;
	__u16 port;
};

BPFSDK_RECORD(event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_NONE);
} counts SEC(".maps");

#ifndef NO_LEGACY_MAP
struct bpf_map_def SEC("maps") totals = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1,
};
#else
/* For loaders that no longer read the "maps" section (libbpf 1.x). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} totals SEC(".maps");
#endif

static __always_inline void count(__u32 key)
{
	__u64 one = 1, *val;

	val = bpf_map_lookup_elem(&counts, &key);
	if (val)
		__sync_fetch_and_add(val, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
}

SEC("kprobe/ksys_write")
int BPF_KPROBE(on_write, unsigned int fd, const char *buf, __u64 len)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct event e = {};
	__u32 zero = 0;
	__u64 *total;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.cookie = 0x12345678;
	e.count = len;
	e.ppid = BPF_CORE_READ(task, real_parent, tgid);
	e.port = bpf_htons(8080);
	count(fd);
	total = bpf_map_lookup_elem(&totals, &zero);
	if (total)
		*total += len + (buf != 0);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("kretprobe/ksys_write")
int BPF_KRETPROBE(on_write_ret, long ret)
{
	struct event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.count = ret;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

char _license[] SEC("license") = "GPL";
EOF
}

# bpf_cc OUT -I... [more flags]: compile $SRC; dependencies go to OUT.d.
bpf_cc() {
	local out=$1
	shift
	run clang $BPF_FLAGS "$@" -MD -MF "$out.d" -c "$SRC" -o "$out"
}

# The instructions of every program section, without the file name line.
disasm() {
	llvm-objdump -d --no-show-raw-insn "$1" | sed 1,2d
}

# The headers an object was built from, one path per line.
deps_of() {
	tr ' \\' '\n\n' <"$1" | grep '\.h$' | sort -u
}

# compile_alone HEADER: a .c holding only #include <bpf/HEADER>, with the
# exact flags users are told to use.
compile_alone() {
	local c="$BATS_TEST_TMPDIR/alone.c"
	printf '#include <bpf/%s>\n' "$1" >"$c"
	run clang -O2 -g -target bpf -D__TARGET_ARCH_$TARGET_ARCH -Wall -Wextra \
		-Werror -Iinclude -idirafter "$MULTIARCH_INC" \
		-c "$c" -o "$BATS_TEST_TMPDIR/alone.o"
	[ "$status" -eq 0 ] || fail "include/bpf/$1 does not compile alone:
$output"
	[ -z "$output" ] || fail "include/bpf/$1 compiles with diagnostics:
$output"
}

@test "bpf_helpers.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone bpf_helpers.h
}

@test "bpf_helper_defs.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone bpf_helper_defs.h
}

@test "bpf_tracing.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone bpf_tracing.h
}

@test "bpf_core_read.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone bpf_core_read.h
}

@test "bpf_endian.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone bpf_endian.h
}

@test "usdt.bpf.h compiles alone with -Wall -Wextra -Werror" {
	compile_alone usdt.bpf.h
}

@test "every header carries the LGPL-2.1 OR BSD-2-Clause license line" {
	for h in $HEADERS; do
		run head -n 1 "include/bpf/$h"
		assert_output "/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */"
	done
}

@test "the bare spelling (\"bpf_helpers.h\" with -Iinclude) stops with an #error naming <bpf/...>" {
	for h in $HEADERS; do
		printf '#include "%s"\n' "$h" >"$BATS_TEST_TMPDIR/old.c"
		run clang -O2 -g -target bpf -D__TARGET_ARCH_$TARGET_ARCH -Iinclude \
			-idirafter "$MULTIARCH_INC" -c "$BATS_TEST_TMPDIR/old.c" \
			-o "$BATS_TEST_TMPDIR/old.o"
		assert_failure
		assert_output --partial "error: \"bpfsdk: write #include <bpf/$h> instead of \\\"$h\\\" (the SDK headers moved to include/bpf/; keep -Iinclude)\""
	done
}

@test "the SDK headers live in include/bpf/ only: include/ holds no other header" {
	run bash -c 'cd include && ls *.h'
	assert_output "$(printf '%s\n' $HEADERS | sort)"
	for h in $HEADERS; do
		run grep -c '^#error "bpfsdk: write #include <bpf/' "include/$h"
		assert_output 1
	done
}

@test "bpf_tracing.h without __TARGET_ARCH_* stops with an #error naming the fix" {
	printf '#include <bpf/bpf_tracing.h>\n' >"$BATS_TEST_TMPDIR/noarch.c"
	run clang -O2 -g -target bpf -Wall -Iinclude -idirafter "$MULTIARCH_INC" \
		-c "$BATS_TEST_TMPDIR/noarch.c" -o "$BATS_TEST_TMPDIR/noarch.o"
	assert_failure
	assert_output --partial "error: \"bpf_tracing.h: no target architecture; build with -D__TARGET_ARCH_x86"
}

# regs_offsets ARCH: build one function per register macro and print
# "NAME OFFSET" for the context offset each one loads from.
regs_offsets() {
	local c="$BATS_TEST_TMPDIR/regs_$1.c" o="$BATS_TEST_TMPDIR/regs_$1.o" m
	{
		echo '#include <bpf/bpf_tracing.h>'
		for m in PARM1 PARM2 PARM3 PARM4 PARM5 RC IP SP FP; do
			echo "SEC(\"kprobe/$m\") unsigned long $m(struct pt_regs *ctx) { return PT_REGS_$m(ctx); }"
		done
	} >"$c"
	clang -O2 -g -target bpf -D__TARGET_ARCH_"$1" -Wall -Wextra -Werror -Iinclude \
		-idirafter "$MULTIARCH_INC" -c "$c" -o "$o" || return 1
	llvm-objdump -d --no-show-raw-insn "$o" | awk '
		/^[0-9a-f]+ <[A-Z0-9]+>:$/ { name = substr($2, 2, length($2) - 3) }
		/= \*\(u64 \*\)\(r1 \+ [0-9]+\)/ {
			match($0, /r1 \+ [0-9]+/)
			print name, substr($0, RSTART + 5, RLENGTH - 5)
		}'
}

@test "x86 PT_REGS_* read the registers of the UAPI struct pt_regs (rdi, rsi, ...)" {
	[ "$(uname -m)" = x86_64 ] || skip "needs the x86_64 UAPI <asm/ptrace.h>"
	# The expected offsets come from the system's UAPI header, compiled
	# for this host: the calling convention's registers by their UAPI names.
	cat >"$BATS_TEST_TMPDIR/uapi.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include <asm/ptrace.h>
#define P(n, f) printf("%s %zu\n", n, offsetof(struct pt_regs, f))
int main(void)
{
	P("PARM1", rdi); P("PARM2", rsi); P("PARM3", rdx); P("PARM4", rcx);
	P("PARM5", r8); P("RC", rax); P("IP", rip); P("SP", rsp); P("FP", rbp);
	return 0;
}
EOF
	cc -o "$BATS_TEST_TMPDIR/uapi" "$BATS_TEST_TMPDIR/uapi.c"
	expected=$("$BATS_TEST_TMPDIR/uapi")
	run regs_offsets x86
	assert_success
	assert_output "$expected"
}

@test "arm64 PT_REGS_* read x0..x4, x0, pc, sp and x29 of struct user_pt_regs" {
	# arm64's UAPI user_pt_regs: __u64 regs[31], sp, pc, pstate.
	expected="PARM1 0
PARM2 8
PARM3 16
PARM4 24
PARM5 32
RC 0
IP 256
SP 248
FP 232"
	run regs_offsets arm64
	assert_success
	assert_output "$expected"
}

@test "bpf_endian.h: constant forms fold, run-time forms are one byte swap" {
	cat >"$BATS_TEST_TMPDIR/endian.c" <<'EOF'
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
_Static_assert(__bpf_constant_htons(0x1234) == 0x3412, "htons");
_Static_assert(__bpf_constant_ntohl(0x12345678) == 0x78563412, "ntohl");
_Static_assert(__bpf_constant_cpu_to_be64(0x0102030405060708ULL) ==
	       0x0807060504030201ULL, "cpu_to_be64");
SEC("xdp") int swap(struct xdp_md *ctx) { return bpf_htonl(*(volatile __u32 *)ctx); }
EOF
	run clang $BPF_FLAGS -Iinclude -c "$BATS_TEST_TMPDIR/endian.c" \
		-o "$BATS_TEST_TMPDIR/endian.o"
	assert_success
	run llvm-objdump -d --no-show-raw-insn "$BATS_TEST_TMPDIR/endian.o"
	assert_output --regexp 'r[0-9] = be32 r[0-9]'
}

@test "the SDK program compiles with our headers, and only ours" {
	bpf_cc "$BATS_FILE_TMPDIR/ours.o" -I"$REPO/include"
	assert_success
	[ -z "$output" ] || fail "diagnostics: $output"
	run deps_of "$BATS_FILE_TMPDIR/ours.o.d"
	assert_line "$REPO/include/bpf/bpf_helpers.h"
	assert_line "$REPO/include/bpf/bpf_helper_defs.h"
	assert_line "$REPO/include/bpf/bpf_tracing.h"
	refute_line --partial "$LIBBPF_INC/"
	# bpf_perf_event_output is helper 25: a call through our pointer is a
	# BPF call instruction with that number.
	run disasm "$BATS_FILE_TMPDIR/ours.o"
	assert_line --regexp 'call 25$'
}

@test "the same program compiles with libbpf's headers, and only libbpf's" {
	[ -f "$LIBBPF_INC/bpf_helpers.h" ] || skip "libbpf-dev is not installed"
	bpf_cc "$BATS_FILE_TMPDIR/libbpf.o" -I"$LIBBPF_INC"
	assert_success
	run deps_of "$BATS_FILE_TMPDIR/libbpf.o.d"
	assert_line "$LIBBPF_INC/bpf_helpers.h"
	assert_line "$LIBBPF_INC/bpf_helper_defs.h"
	assert_line "$LIBBPF_INC/bpf_tracing.h"
	refute_line --partial "$REPO/include/"
}

@test "both header sets give the program the same instructions" {
	[ -f "$LIBBPF_INC/bpf_helpers.h" ] || skip "libbpf-dev is not installed"
	bpf_cc "$BATS_TEST_TMPDIR/ours.o" -I"$REPO/include"
	assert_success
	bpf_cc "$BATS_TEST_TMPDIR/libbpf.o" -I"$LIBBPF_INC"
	assert_success
	disasm "$BATS_TEST_TMPDIR/ours.o" >"$BATS_TEST_TMPDIR/ours.s"
	disasm "$BATS_TEST_TMPDIR/libbpf.o" >"$BATS_TEST_TMPDIR/libbpf.s"
	[ -s "$BATS_TEST_TMPDIR/ours.s" ] || fail "no instructions in ours.o"
	run diff -u "$BATS_TEST_TMPDIR/libbpf.s" "$BATS_TEST_TMPDIR/ours.s"
	[ "$status" -eq 0 ] || fail "instructions differ (- libbpf, + ours):
$output"
}

# btf_ext_core_relo_len OBJ: bytes of CO-RE relocation records in .BTF.ext.
btf_ext_core_relo_len() {
	llvm-objcopy --dump-section .BTF.ext="$1.ext" "$1" "$1.copy" || return 1
	python3 - "$1.ext" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic, version, flags, hdr_len = struct.unpack_from("<HBBI", data, 0)
assert magic == 0xeb9f, "bad .BTF.ext magic %#x" % magic
# header: func_info off/len, line_info off/len, then core_relo off/len
print(struct.unpack_from("<6I", data, 8)[5] if hdr_len >= 32 else 0)
EOF
}

@test "BPF_CORE_READ leaves CO-RE relocations, as many as libbpf's does" {
	bpf_cc "$BATS_TEST_TMPDIR/ours.o" -I"$REPO/include"
	assert_success
	ours=$(btf_ext_core_relo_len "$BATS_TEST_TMPDIR/ours.o")
	[ "${ours:-0}" -gt 0 ] || fail "no CO-RE relocation records in .BTF.ext (got '$ours')"
	[ -f "$LIBBPF_INC/bpf_helpers.h" ] || return 0
	bpf_cc "$BATS_TEST_TMPDIR/libbpf.o" -I"$LIBBPF_INC"
	assert_success
	theirs=$(btf_ext_core_relo_len "$BATS_TEST_TMPDIR/libbpf.o")
	[ "$ours" = "$theirs" ] || fail "CO-RE records: ours $ours bytes, libbpf's $theirs"
}

@test "BPFSDK_RECORD puts 'bpfsdk.record:event' on the map's BTF var, with struct event" {
	bpf_cc "$BATS_TEST_TMPDIR/ours.o" -I"$REPO/include"
	assert_success
	run bpftool btf dump file "$BATS_TEST_TMPDIR/ours.o"
	assert_success
	btf=$output
	tag=$(grep "DECL_TAG 'bpfsdk.record:event'" <<<"$btf") ||
		fail "no DECL_TAG 'bpfsdk.record:event' in the BTF:
$btf"
	[[ $tag =~ type_id=([0-9]+)\ component_idx=-1 ]] ||
		fail "tag is not on a whole declaration: $tag"
	target=${BASH_REMATCH[1]}
	assert_line --regexp "^\[$target\] VAR 'events' type_id=[0-9]+, linkage=global$"
	# The record struct is emitted although only a void * carries it.
	assert_line --regexp "^\[[0-9]+\] STRUCT 'event' size=32 vlen=5$"
	# ... through the anchor, in a section of its own.
	assert_line --regexp "^\[[0-9]+\] DATASEC '.bpfsdk.records' size=0 vlen=1$"
}

@test "the kernel loads the program built with our headers, record tag included" {
	[ "$(id -u)" -eq 0 ] || skip "loading BPF programs needs root"
	mountpoint -q /sys/fs/bpf || skip "bpffs is not mounted on /sys/fs/bpf"
	# libbpf 1.x (bpftool) no longer reads legacy maps: the BTF variant.
	bpf_cc "$BATS_TEST_TMPDIR/load.o" -I"$REPO/include" -DNO_LEGACY_MAP
	assert_success
	pin=/sys/fs/bpf/bpfsdk_headers_test_$$
	run bpftool prog loadall "$BATS_TEST_TMPDIR/load.o" "$pin"
	loaded=$output
	id=$(bpftool prog show pinned "$pin/on_write" 2>/dev/null | sed -n 's/.*btf_id \([0-9]*\).*/\1/p')
	btf=$( [ -n "$id" ] && bpftool btf dump id "$id")
	rm -rf "$pin"
	[ -n "$id" ] || fail "not loaded, or loaded without BTF: $loaded"
	grep -q "DECL_TAG 'bpfsdk.record:event'" <<<"$btf" ||
		fail "the kernel's copy of the BTF has no record tag"
}

@test "make check-headers passes on the tree" {
	run make --no-print-directory check-headers BUILD="$BATS_TEST_TMPDIR/build"
	assert_success
	assert_output --partial "OK      include/bpf/bpf_helper_defs.h matches"
}

# copy_tree DIR: the source tree without build output or git metadata.
copy_tree() {
	mkdir -p "$1"
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -z |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] && printf '%s\0' "$f"
			done | xargs -0 cp --parents -t "$1"
	else
		tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$1"
	fi
}

@test "make check-headers fails after a hand edit of one helper line (in a copy)" {
	copy="$BATS_TEST_TMPDIR/tree"
	copy_tree "$copy"
	line='static long (*bpf_perf_event_output)(void *ctx, void *map, __u64 flags, void *data, __u64 size) = (void *) 25;'
	grep -qxF "$line" "$copy/include/bpf/bpf_helper_defs.h" ||
		fail "expected line not in the copy: $line"
	sed -i 's/^\(static long (\*bpf_perf_event_output)(.*\) = (void \*) 25;$/\1 = (void *) 26;/' \
		"$copy/include/bpf/bpf_helper_defs.h"
	run grep -c '(void \*) 26;$' "$copy/include/bpf/bpf_helper_defs.h"
	assert_output 2	# the edited line and bpf_skb_load_bytes, helper 26
	run make -C "$copy" --no-print-directory check-headers BUILD="$copy/build"
	assert_failure
	assert_line "+$line"
	assert_line --partial "error: include/bpf/bpf_helper_defs.h differs from what tools/gen-helper-defs makes"
}

@test "every helper of enum bpf_func_id is declared, with its number" {
	# The compiler, not our parser, checks each number against the UAPI
	# enum, and that the count reaches __BPF_FUNC_MAX_ID.
	c="$BATS_TEST_TMPDIR/ids.c"
	{
		echo '#include <linux/bpf.h>'
		sed -n 's/^static .*(\*bpf_\([a-z0-9_]*\))(.*) = (void \*) \([0-9]*\);$/_Static_assert(BPF_FUNC_\1 == \2, "bpf_\1 is helper \2");/p' \
			include/bpf/bpf_helper_defs.h
		n=$(grep -c '^static .* = (void \*) [0-9]*;$' include/bpf/bpf_helper_defs.h)
		echo "_Static_assert(__BPF_FUNC_MAX_ID - 1 == $n, \"$n helpers declared\");"
	} >"$c"
	run grep -c _Static_assert "$c"
	[ "$output" -gt 200 ] || fail "only $output assertions generated"
	run clang -fsyntax-only -Wall -idirafter "$MULTIARCH_INC" "$c"
	assert_success
}

@test "every declaration has a summary comment of its own above it" {
	run awk '
		/^static / && prev !~ /^\/\* [0-9]+: [a-z].* \*\/$/ { print "no summary: " $0 }
		{ prev = $0 }' include/bpf/bpf_helper_defs.h
	assert_output ""
}

@test "gen-helper-defs fails loudly when a helper has no summary" {
	grep -v '^bpf_perf_event_output ' tools/helper-summaries >"$BATS_TEST_TMPDIR/summaries"
	run tools/gen-helper-defs --summaries "$BATS_TEST_TMPDIR/summaries" "$UAPI_BPF_H"
	assert_failure 1
	assert_output --partial "error: no summary in '$BATS_TEST_TMPDIR/summaries' for 1 helper(s): bpf_perf_event_output"
}

@test "gen-helper-defs rejects a file that is not the UAPI linux/bpf.h" {
	run tools/gen-helper-defs /dev/null
	assert_failure 1
	assert_output --regexp '^error: '
	run tools/gen-helper-defs
	assert_failure 2
	run tools/gen-helper-defs --help
	assert_success
	assert_output --partial "usage: tools/gen-helper-defs"
}

@test "gen-helper-defs reads the numbered mapper of newer UAPI headers the same" {
	# Linux 6.2 and later spell each helper FN(name, id, ##ctx) in
	# ___BPF_FUNC_MAPPER; rewrite the installed list that way.
	awk '
		/^#define __BPF_FUNC_MAPPER\(FN\)/ {
			print "#define ___BPF_FUNC_MAPPER(FN, ctx...)\t\\"; inmap = 1; n = 0; next
		}
		inmap && /FN\(/ {
			sub(/FN\(/, ""); sub(/\),.*/, "")
			printf "\tFN(%s, %d, ##ctx)\t\\\n", $1, n++; next
		}
		inmap { inmap = 0 }
		{ print }' "$UAPI_BPF_H" >"$BATS_TEST_TMPDIR/bpf.h"
	run grep -c ', ##ctx)' "$BATS_TEST_TMPDIR/bpf.h"
	[ "$output" -gt 200 ] || fail "rewrite produced $output numbered entries"
	tools/gen-helper-defs "$BATS_TEST_TMPDIR/bpf.h" >"$BATS_TEST_TMPDIR/defs.h"
	run diff -u include/bpf/bpf_helper_defs.h "$BATS_TEST_TMPDIR/defs.h"
	assert_success
}

# ---- Programs written for libbpf's headers (tests/compat) ---------------
#
# Each tests/compat/*.bpf.c includes <bpf/bpf_helpers.h> and friends the
# way libbpf users write it. compat_cc WHICH NAME builds one against our
# headers (WHICH=ours: -Iinclude, as a clone builds) or libbpf's
# (WHICH=libbpf) into $BATS_FILE_TMPDIR/NAME-WHICH.o.
compat_cc() {
	local dir="$REPO/include"
	if [ "$1" = libbpf ]; then
		dir="$BATS_FILE_TMPDIR/inc-libbpf"
		mkdir -p "$dir"
		ln -sfn "$LIBBPF_INC" "$dir/bpf"
	fi
	run clang -O2 -g -target bpf -D__TARGET_ARCH_$TARGET_ARCH -Wall -Werror \
		-I"$dir" -idirafter "$MULTIARCH_INC" -MD -MF "$BATS_FILE_TMPDIR/$2-$1.d" \
		-c "tests/compat/$2.bpf.c" -o "$BATS_FILE_TMPDIR/$2-$1.o"
}

# The installed libbpf's headers have what recent.bpf.c uses (libbpf 1.2+).
libbpf_is_recent() {
	grep -q 'define bpf_for(' "$LIBBPF_INC/bpf_helpers.h" 2>/dev/null &&
		grep -q 'define BPF_UPROBE' "$LIBBPF_INC/bpf_tracing.h"
}

# Per program section, the helpers it calls; then the extern symbols the
# object leaves for the loader, with their binding.
calls_and_externs() {
	llvm-objdump -d --no-show-raw-insn "$1" | awk '
		/^Disassembly of section/ { sec = $4; sub(/:$/, "", sec) }
		/call [0-9]+$/ { print sec, "call", $NF }' | sort -u
	llvm-readelf -s "$1" | awk '$7 == "UND" && $8 != "" { print "extern", $5, $8 }' | sort
}

# Every CO-RE relocation of an object, one line each, sorted:
# "SECTION KIND TYPE ACCESS", e.g. "raw_tp/sys_enter field_exists task_struct 0:4".
co_re_relos() {
	local d="$BATS_TEST_TMPDIR/relos.$$"
	mkdir -p "$d"
	llvm-objcopy --dump-section .BTF="$d/btf" --dump-section .BTF.ext="$d/ext" \
		"$1" "$d/copy" || return 1
	python3 - "$d/btf" "$d/ext" <<'EOF'
import struct, sys
KINDS = ["field_byte_offset", "field_byte_size", "field_exists", "field_signed",
         "field_lshift_u64", "field_rshift_u64", "type_id_local", "type_id_target",
         "type_exists", "type_size", "enumval_exists", "enumval_value", "type_matches"]
btf = open(sys.argv[1], "rb").read()
_, _, _, hl, toff, tlen, soff, slen = struct.unpack_from("<HBBIIIII", btf, 0)
strs = btf[hl + soff:hl + soff + slen]
def name(off):
    return strs[off:strs.index(b"\0", off)].decode()
# type names by ID: walk the records, each kind's tail has its own size
tail = {1: lambda v: 4, 3: lambda v: 12, 4: lambda v: 12 * v, 5: lambda v: 12 * v,
        6: lambda v: 8 * v, 13: lambda v: 8 * v, 14: lambda v: 4,
        15: lambda v: 12 * v, 17: lambda v: 4, 19: lambda v: 12 * v}
names, p = [""], hl + toff
while p < hl + toff + tlen:
    name_off, info, _ = struct.unpack_from("<III", btf, p)
    kind, vlen = (info >> 24) & 0x1f, info & 0xffff
    names.append(name(name_off) or "(anon)")
    p += 12 + tail.get(kind, lambda v: 0)(vlen)
ext = open(sys.argv[2], "rb").read()
hl = struct.unpack_from("<I", ext, 4)[0]
if hl < 32:
    sys.exit(0)
co, cl = struct.unpack_from("<II", ext, 24)
c = ext[hl + co:hl + co + cl]
rec, p, out = struct.unpack_from("<I", c, 0)[0], 4, []
while p < len(c):
    sec, n = struct.unpack_from("<II", c, p)
    p += 8
    for _ in range(n):
        _, tid, acc, kind = struct.unpack_from("<IIII", c, p)
        p += rec
        out.append("%s %s %s %s" % (name(sec), KINDS[kind], names[tid], name(acc)))
print("\n".join(sorted(out)))
EOF
}

@test "the libbpf-style programs of tests/compat build with our headers, warning-free" {
	for prog in co_re tracing recent usdt prog2; do
		compat_cc ours $prog
		[ "$status" -eq 0 ] || fail "tests/compat/$prog.bpf.c with include/:
$output"
		[ -z "$output" ] || fail "tests/compat/$prog.bpf.c: diagnostics: $output"
		run deps_of "$BATS_FILE_TMPDIR/$prog-ours.d"
		refute_line --partial "$LIBBPF_INC/"
	done
}

@test "the same programs build with libbpf's headers" {
	[ -f "$LIBBPF_INC/bpf_helpers.h" ] || skip "libbpf-dev is not installed"
	for prog in co_re tracing usdt prog2; do
		compat_cc libbpf $prog
		[ "$status" -eq 0 ] || fail "tests/compat/$prog.bpf.c with $LIBBPF_INC:
$output"
		run deps_of "$BATS_FILE_TMPDIR/$prog-libbpf.d"
		refute_line --partial "$REPO/include/"
	done
}

@test "recent.bpf.c builds with libbpf's headers too, when they are 1.2 or later" {
	libbpf_is_recent || skip "libbpf's headers in $LIBBPF_INC predate bpf_for and BPF_UPROBE"
	compat_cc libbpf recent
	assert_success
}

@test "co_re.bpf.c: our CO-RE macros leave every relocation kind clang 14 has" {
	compat_cc ours co_re
	assert_success
	run co_re_relos "$BATS_FILE_TMPDIR/co_re-ours.o"
	assert_success
	for kind in field_byte_offset field_byte_size field_exists field_signed \
		    field_lshift_u64 field_rshift_u64 type_id_local type_id_target \
		    type_exists type_size enumval_exists enumval_value; do
		assert_line --regexp "^[^ ]+ $kind "
	done
	# both spellings of the field macros name the same field
	assert_line "raw_tp/sys_enter field_exists task_struct 0:4"
	assert_line "raw_tp/sys_enter field_exists task_struct 0:8:0"
	assert_line "raw_tp/sys_enter enumval_value probe_kind 1"
	assert_line "raw_tp/sys_enter type_size task_t 0"
}

@test "co_re.bpf.c: the same CO-RE relocations with our headers and with libbpf's" {
	[ -f "$LIBBPF_INC/bpf_core_read.h" ] || skip "libbpf-dev is not installed"
	compat_cc ours co_re
	assert_success
	compat_cc libbpf co_re
	assert_success
	co_re_relos "$BATS_FILE_TMPDIR/co_re-ours.o" >"$BATS_TEST_TMPDIR/ours"
	co_re_relos "$BATS_FILE_TMPDIR/co_re-libbpf.o" >"$BATS_TEST_TMPDIR/libbpf"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/ours")" -gt 40 ] || fail "too few relocations: $(cat "$BATS_TEST_TMPDIR/ours")"
	run diff -u "$BATS_TEST_TMPDIR/libbpf" "$BATS_TEST_TMPDIR/ours"
	[ "$status" -eq 0 ] || fail "CO-RE relocations differ (- libbpf, + ours):
$output"
}

@test "tracing.bpf.c and recent.bpf.c: the same helpers and externs with both header sets" {
	[ -f "$LIBBPF_INC/bpf_helpers.h" ] || skip "libbpf-dev is not installed"
	progs=tracing
	libbpf_is_recent && progs="$progs recent"
	for prog in $progs; do
		compat_cc ours $prog
		assert_success
		compat_cc libbpf $prog
		assert_success
		calls_and_externs "$BATS_FILE_TMPDIR/$prog-ours.o" >"$BATS_TEST_TMPDIR/ours"
		calls_and_externs "$BATS_FILE_TMPDIR/$prog-libbpf.o" >"$BATS_TEST_TMPDIR/libbpf"
		run diff -u "$BATS_TEST_TMPDIR/libbpf" "$BATS_TEST_TMPDIR/ours"
		[ "$status" -eq 0 ] || fail "$prog.bpf.c differs (- libbpf, + ours):
$output"
	done
	# bpf_printk with five arguments is bpf_trace_vprintk (177), with
	# three or fewer bpf_trace_printk (6); BPF_SEQ_PRINTF bpf_seq_printf
	# (126), BPF_SNPRINTF bpf_snprintf (165).
	run calls_and_externs "$BATS_FILE_TMPDIR/tracing-ours.o"
	assert_line "raw_tp/sys_enter call 6"
	assert_line "raw_tp/sys_enter call 177"
	assert_line "raw_tp/sys_enter call 165"
	assert_line "iter/task call 126"
	assert_line "extern GLOBAL LINUX_HAS_SYSCALL_WRAPPER"
	assert_line "extern WEAK CONFIG_HZ"
}

@test "recent.bpf.c: bpf_for and the weak kfuncs leave the externs the loader resolves" {
	compat_cc ours recent
	assert_success
	run calls_and_externs "$BATS_FILE_TMPDIR/recent-ours.o"
	assert_line "extern WEAK bpf_iter_num_new"
	assert_line "extern WEAK bpf_iter_num_next"
	assert_line "extern WEAK bpf_iter_num_destroy"
	assert_line "extern WEAK bpf_task_from_pid"
	assert_line "extern GLOBAL bpf_prog_active"
	# bpf_ksym_exists() of a weak kfunc is a run-time test of its address
	run llvm-objdump -dr --no-show-raw-insn "$BATS_FILE_TMPDIR/recent-ours.o"
	assert_output --regexp 'R_BPF_64_64[[:space:]]+bpf_kfunc_nobody_has'
}

@test "usdt.bpf.c: our usdt.bpf.h has libbpf's spec maps and layout" {
	compat_cc ours usdt
	assert_success
	run bpftool btf dump file "$BATS_FILE_TMPDIR/usdt-ours.o"
	assert_success
	assert_line --regexp "^\[[0-9]+\] STRUCT '__bpf_usdt_spec' size=208 vlen=3$"
	assert_line --regexp "^\[[0-9]+\] STRUCT '__bpf_usdt_arg_spec' size=16 vlen=5$"
	assert_line --regexp "^\[[0-9]+\] VAR '__bpf_usdt_specs' type_id=[0-9]+, linkage=global$"
	assert_line --regexp "^\[[0-9]+\] VAR '__bpf_usdt_ip_to_spec_id' type_id=[0-9]+, linkage=global$"
	assert_line --regexp "^\[[0-9]+\] VAR 'LINUX_HAS_BPF_COOKIE' type_id=[0-9]+, linkage=extern$"
	[ -f "$LIBBPF_INC/usdt.bpf.h" ] || return 0
	# member names, offsets and sizes of the spec structs (type IDs aside)
	layout() {
		bpftool btf dump file "$1" | awk '
			/^\[/ { on = /STRUCT .__bpf_usdt/ }
			on { gsub(/type_id=[0-9]+/, ""); print }'
	}
	ours=$(layout "$BATS_FILE_TMPDIR/usdt-ours.o")
	compat_cc libbpf usdt
	assert_success
	theirs=$(layout "$BATS_FILE_TMPDIR/usdt-libbpf.o")
	[ -n "$ours" ] || fail "no spec structs in our object"
	[ "$ours" = "$theirs" ] || fail "spec layout differs:
ours:
$ours
libbpf:
$theirs"
}

@test "bpf_core_type_matches() under clang 14 is an error that says what it needs" {
	major=$(clang -dM -E -x c /dev/null | awk '$2 == "__clang_major__" { print $3 }')
	[ "$major" -lt 15 ] || skip "clang $major supports the type-matches relocation"
	cat >"$BATS_TEST_TMPDIR/match.c" <<'EOF'
#include <bpf/bpf_core_read.h>
struct thing { int a; };
SEC("raw_tp/x") int f(void *ctx) { return bpf_core_type_matches(struct thing); }
EOF
	run clang $BPF_FLAGS -Iinclude -c "$BATS_TEST_TMPDIR/match.c" -o "$BATS_TEST_TMPDIR/match.o"
	assert_failure
	assert_output --partial "bpf_core_type_matches() needs clang 15 or later"
	refute_output --partial "PLEASE submit a bug report"
}

@test "prog2.bpf.c: BPF_PROG2 reads each argument from the context slots libbpf's does" {
	[ -f "$LIBBPF_INC/bpf_tracing.h" ] || skip "libbpf-dev is not installed"
	grep -q 'define BPF_PROG2' "$LIBBPF_INC/bpf_tracing.h" || skip "libbpf's headers have no BPF_PROG2"
	# per program, the offsets of its loads from the context (r1)
	ctx_loads() {
		llvm-objdump -d --no-show-raw-insn "$1" | awk '
			/^[0-9a-f]+ <[a-z_0-9]+>:$/ { name = $2 }
			/= \*\(u64 \*\)\(r1 \+ [0-9]+\)/ { match($0, /r1 \+ [0-9]+/); print name, substr($0, RSTART + 5, RLENGTH - 5) }'
	}
	compat_cc ours prog2
	assert_success
	compat_cc libbpf prog2
	assert_success
	ours=$(ctx_loads "$BATS_FILE_TMPDIR/prog2-ours.o")
	# the struct of two longs is slots 1 and 2, the long after the small struct slot 4
	expected="<structs>: 0
<structs>: 8
<structs>: 16
<structs>: 24
<structs>: 32"
	[ "$(grep structs <<<"$ours" | sort -t' ' -k2 -n)" = "$expected" ] ||
		fail "BPF_PROG2(structs) reads: $ours"
	theirs=$(ctx_loads "$BATS_FILE_TMPDIR/prog2-libbpf.o")
	[ "$ours" = "$theirs" ] || fail "context loads differ:
ours:
$ours
libbpf:
$theirs"
}

@test "recent.bpf.c built with our headers loads: bpf_for, bpf_repeat, bpf_for_each, guarded weak kfuncs" {
	[ "$(id -u)" -eq 0 ] || skip "loading BPF programs needs root"
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null) || skip "no kernel BTF"
	grep -q "FUNC 'bpf_iter_num_new'" <<<"$btf" || skip "this kernel has no numbers-iterator kfuncs (Linux 6.4)"
	grep -q "FUNC 'bpf_task_from_pid'" <<<"$btf" || skip "this kernel has no bpf_task_from_pid kfunc"
	compat_cc ours recent
	assert_success
	run build/bin/bpfsdk run -v --duration 1 "$BATS_FILE_TMPDIR/recent-ours.o"
	assert_line --regexp "^program 'loops': loaded \(raw_tracepoint, [0-9]+ instructions\), fd [0-9]+$"
	assert_line --regexp "^program 'kfuncs': loaded \(tp_btf, [0-9]+ instructions\), fd [0-9]+$"
	refute_output --partial "program 'loops' (section 'raw_tp/sys_enter'): rejected"
	refute_output --partial "program 'kfuncs' (section 'tp_btf/task_newtask'): rejected"
}
