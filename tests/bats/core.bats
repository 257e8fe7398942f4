#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The minimal core, libbpfsdk-core.a (loader/loader.mk): built without the
# extensions, it needs nothing but libc, libelf and zlib, and the 2015
# lesson on its API, linked against it alone (trace_output-core, from
# samples/trace_output/trace_output_core.c), streams its records intact.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	BUILD=${BUILD:-build}
	CORE="$BUILD/lib/libbpfsdk-core.a"
	[ -f "$CORE" ] || fail "$CORE is not built (run make)"
}

@test "core: no extension, no rings layer, no attach point above the core, no tool helper, no CO-RE engine and no kernel BTF reader in the archive" {
	local members ext
	members=$(ar t "$CORE" | sort)
	echo "$members"
	for f in loader/ext/*.c loader/ext/*/*.c loader/readers/*/*.c loader/rings/*.c loader/hooks/*.c loader/tool/*.c loader/co-re/*.c; do
		ext=$(basename "${f%.c}.o")
		! grep -qx "$ext" <<<"$members" || fail "$ext ($f) is in the core"
	done
	# what it does hold: every source of the core's layers
	for f in loader/base/*.c loader/format/*.c loader/object/*.c loader/attach/*.c loader/channel/*.c; do
		grep -qx "$(basename "${f%.c}.o")" <<<"$members" || fail "$f is not in the core"
	done
}

@test "core: every object of the archive links with libc, libelf and zlib alone" {
	local t=$BATS_TEST_TMPDIR
	printf 'int main(void) { return 0; }\n' >"$t/main.c"
	run cc -o "$t/whole" "$t/main.c" -Wl,--whole-archive "$CORE" -Wl,--no-whole-archive -lelf -lz
	echo "$output"
	assert_success
	refute_output --partial "undefined reference"
}

@test "core: the 2015 lesson linked against the core alone streams dd's writes with every record intact" {
	BIN="$BUILD/bin/trace_output-core"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	# linked against the core alone: no extension's pass, no tool helper
	run nm "$BIN"
	refute_output --partial "ext_install"
	refute_output --partial "co_re_relo_read"
	refute_output --partial "attach_uprobe"
	refute_output --partial "bsdk_args_parse"
	refute_output --partial "bsdk_ringbuf_new"
	# every symbol it defines from the library is one of the core archive's
	run bash -c "nm --defined-only '$CORE' | awk 'NF == 3 && \$2 ~ /[TDBR]/ { print \$3 }' | sort -u >'$BATS_TEST_TMPDIR/core.syms'"
	assert_success
	run bash -c "nm --defined-only '$BIN' | awk 'NF == 3 && \$2 ~ /[TDBR]/ { print \$3 }' | grep -E '^(bsdk_|obj_|perf|btf_|elf_|map|prog|attach|link|relo|log_|sys_)' | sort -u | comm -23 - '$BATS_TEST_TMPDIR/core.syms'"
	assert_success
	assert_output ""
	run "$BIN" -v 2
	echo "$output" | grep -v '^record:' | head -20
	assert_success
	pid=$(sed -n 's/^writer: dd, pid \([0-9]*\), on CPU 0$/\1/p' <<<"$output")
	[ -n "$pid" ] || fail "no 'writer: dd, pid N' line"
	assert_line --regexp "^record: cpu 0 pid $pid cookie 0x12345678 size 20$"
	assert_line --regexp '^received [1-9][0-9]*, lost [0-9]+, bad 0$'
}

@test "core: a perf buffer asked for merge_by_ts is refused with one error line naming the rings layer" {
	local t=$BATS_TEST_TMPDIR
	cat >"$t/merge.c" <<'C'
#include <stdio.h>
#include "bpfsdk.h"
static void on_sample(void *ctx, int cpu, const void *data, uint32_t size) {}
int main(void)
{
	struct bsdk_perfbuf_opts o = { .sz = sizeof(o), .on_sample = on_sample, .merge_by_ts = 1 };
	return bsdk_perfbuf_new(-1, &o) ? 0 : 1;
}
C
	run cc -Iloader -o "$t/merge" "$t/merge.c" "$CORE" -lelf -lz
	assert_success
	run "$t/merge"
	assert_failure 1
	assert_output "error: perf buffer: merge_by_ts needs the rings layer, which this build lacks (libbpfsdk-core.a: link libbpfsdk instead)"
}

@test "core: a map pinned by name and a kernel BTF file are refused with one error each, naming what the core does not do" {
	local t=$BATS_TEST_TMPDIR
	cat >"$t/pin.c" <<'C'
#include "bpfsdk.h"

/* load argv[1], then open it naming a kernel BTF file: both must fail */
int main(int argc, char **argv)
{
	struct bsdk_obj_open_opts o = { .sz = sizeof(o), .btf_path = "/sys/kernel/btf/vmlinux" };
	struct bsdk_obj *obj = argc > 1 ? bsdk_obj_open(argv[1]) : NULL;

	if (!obj || bsdk_obj_load(obj) == 0)
		return 2;
	bsdk_obj_close(obj);
	return bsdk_obj_open_opts(argv[1], &o) ? 3 : 1;
}
C
	run cc -I loader -o "$t/pin" "$t/pin.c" "$CORE" -lelf -lz
	echo "$output"
	assert_success
	local pinned=0
	[ ! -e /sys/fs/bpf/bsdk_test_pinned ] || pinned=1
	run "$t/pin" "$BUILD/bpf/tests/obj_pin.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ] || fail "exit $status, expected 1: the load and the open both fail"
	assert_line "error: map 'bsdk_test_pinned': asks to be pinned by name (LIBBPF_PIN_BY_NAME), which this build of the library does not do (libbpfsdk-core: link libbpfsdk)"
	assert_line --regexp "^error: '.*obj_pin\.bpf\.o': a kernel BTF file \('/sys/kernel/btf/vmlinux'\), which this build of the library does not read \(libbpfsdk-core: link libbpfsdk\)$"
	[ "$(grep -c '^error:' <<<"$output")" -eq 2 ] || fail "not one error line each"
	[ "$pinned" = 1 ] || [ ! -e /sys/fs/bpf/bsdk_test_pinned ] || fail "the core pinned the map"
}

@test "core: a section of a kind the layers above add fails to open with one error saying the build has the core's kinds only" {
	local t=$BATS_TEST_TMPDIR obj
	printf '#include "bpfsdk.h"\nint main(int argc, char **argv)\n{\n\tstruct bsdk_obj *obj = bsdk_obj_open(argv[1]);\n\n\tbsdk_obj_close(obj);\n\treturn obj ? 0 : 1;\n}\n' >"$t/open.c"
	cc -Iloader -o "$t/open" "$t/open.c" "$CORE" -lelf -lz || fail "cannot link against $CORE"
	for obj in attach_tp_btf:tp_btf/sched_process_exec \
		   attach_uprobe:uprobe \
		   attach_kernel_fn:fentry/do_unlinkat; do
		IFS=: read -r name sec <<<"$obj"
		run "$t/open" "$BUILD/bpf/tests/$name.bpf.o"
		echo "$output"
		assert_failure 1
		assert_equal "$(grep -c . <<<"$output")" 1
		assert_output --regexp "^error: '.*$name.bpf.o': section '$sec' \(program '[a-z_]+'\): not a kind this build of the library knows \(libbpfsdk-core has the core's kinds only: link libbpfsdk for the others\); accepted prefixes: tracepoint/CAT/NAME, .*, xdp$"
		[[ "$output" != *"did you mean"* ]] || fail "a guess at a kind the core cannot name"
	done
}

@test "core: CO-RE relocations fail to open with one error; an object with only func and line info opens" {
	local t=$BATS_TEST_TMPDIR
	printf '#include "bpfsdk.h"\nint main(int argc, char **argv)\n{\n\tstruct bsdk_obj *obj = bsdk_obj_open(argv[1]);\n\n\tbsdk_obj_close(obj);\n\treturn obj ? 0 : 1;\n}\n' >"$t/open.c"
	cc -Iloader -o "$t/open" "$t/open.c" "$CORE" -lelf -lz || fail "cannot link against $CORE"
	run "$t/open" "$BUILD/bpf/tests/co_re_sizes.bpf.o"
	echo "$output"
	assert_failure 1
	assert_output --regexp "^error: '.*co_re_sizes\.bpf\.o': CO-RE relocations, which this build of the library does not apply \(libbpfsdk-core: link libbpfsdk\)$"
	# .BTF.ext with func and line info only (built with -g, no CO-RE): the core does not read it
	run "$t/open" "$BUILD/bpf/tests/obj_basic.bpf.o"
	echo "$output"
	assert_success
	assert_output ""
}
