#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# make install into a staging directory (DESTDIR), then what a user does
# with the installed tree: compile a BPF program against the SDK headers as
# <bpf/bpf_helpers.h> (ours, not libbpf-dev's), build a C program with
# pkg-config, shared and static, and run it: it opens the object, loads,
# attaches every program, reads a hash map and a per-CPU array with the map
# API, and checks that wrong sizes give -EINVAL and a message. Then the man
# pages render, and make uninstall leaves nothing behind.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup_file() {
	cd "$BATS_TEST_DIRNAME/../.." || return 1
	export REPO=$PWD BUILD=${BUILD:-build}
	command -v cc >/dev/null && command -v clang >/dev/null && command -v pkg-config >/dev/null ||
		skip "needs cc, clang and pkg-config"
	export STAGE="$BATS_FILE_TMPDIR/stage"
	export PREFIX_DIR=/usr/local
	make -s --no-print-directory BUILD="$BUILD" install DESTDIR="$STAGE" PREFIX=$PREFIX_DIR \
		>"$BATS_FILE_TMPDIR/install.log" 2>&1 || {
		cat "$BATS_FILE_TMPDIR/install.log" >&3
		return 1
	}
	# pkg-config on a staged tree: the .pc says /usr/local, the sysroot
	# puts the staging directory before its -I and -L paths
	export PKG_CONFIG_PATH="$STAGE$PREFIX_DIR/lib/pkgconfig"
	export PKG_CONFIG_SYSROOT_DIR="$STAGE"
	export WORK="$BATS_FILE_TMPDIR/user"
	mkdir -p "$WORK"
	write_programs
}

write_programs() {
	cat >"$WORK/count.bpf.c" <<'BPF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} per_pid SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} per_cpu SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	__u64 one = 1, *v;

	if (pid != target_pid)
		return 0;
	v = bpf_map_lookup_elem(&per_pid, &pid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&per_pid, &pid, &one, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&per_cpu, &zero);
	if (v)
		(*v)++;
	return 0;
}
BPF
	cat >"$WORK/count.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpfsdk.h>

static char last_error[512];

static void on_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	if (level == BSDK_LOG_ERROR)
		snprintf(last_error, sizeof(last_error), "%s", msg);
}

int main(int argc, char **argv)
{
	struct bsdk_obj *obj;
	struct bsdk_map *per_pid, *per_cpu;
	uint32_t pid = getpid(), zero = 0;
	uint64_t count = 0, sum = 0, *vals;
	int ncpus, err, attached = 0;

	bsdk_set_log(on_log, NULL);
	obj = bsdk_obj_open(argv[1]);
	if (!obj || bsdk_obj_set_global(obj, "target_pid", &pid, sizeof(pid)) ||
	    bsdk_obj_load(obj)) {
		fprintf(stderr, "open/load: %s\n", last_error);
		return 1;
	}
	attached = bsdk_obj_attach_all(obj, BSDK_ATTACH_REQUIRE_ALL);
	if (attached < 0) {
		fprintf(stderr, "attach: %s\n", last_error);
		return 1;
	}
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);

	per_pid = bsdk_obj_map_find(obj, "per_pid");
	per_cpu = bsdk_obj_map_find(obj, "per_cpu");
	err = bsdk_map_lookup_elem(per_pid, &pid, sizeof(pid), &count, sizeof(count), 0);
	printf("attached %d\nhash %d %llu\n", attached, err, (unsigned long long)count);

	ncpus = bsdk_cpu_possible_count();
	vals = calloc(ncpus, sizeof(*vals));
	err = bsdk_map_lookup_elem(per_cpu, &zero, sizeof(zero), vals,
				   bsdk_map_value_buf_size(per_cpu), 0);
	for (int i = 0; i < ncpus; i++)
		sum += *(uint64_t *)BSDK_PERCPU_VALUE(vals, sizeof(uint64_t), i);
	printf("percpu %d %llu\n", err, (unsigned long long)sum);

	err = bsdk_map_lookup_elem(per_pid, &count, sizeof(count), &count, sizeof(count), 0);
	printf("wrong key %d %s: %s\n", err, strerror(-err), last_error);
	err = bsdk_map_lookup_elem(per_cpu, &zero, sizeof(zero), vals,
				   bsdk_map_value_buf_size(per_cpu) + 8, 0);
	printf("wrong value %d %s: %s\n", err, strerror(-err), last_error);
	free(vals);
	bsdk_obj_close(obj);
	return 0;
}
PROG
}

bpf_flags() {
	local arch=x86
	[ "$(uname -m)" = aarch64 ] && arch=arm64
	echo "-O2 -g -target bpf -D__TARGET_ARCH_$arch -idirafter /usr/include/$(cc -print-multiarch)"
}

@test "install: the tool, the libraries, the headers, bpfsdk.pc and the man pages are where PREFIX says" {
	local p="$STAGE$PREFIX_DIR"
	for f in bin/bpfsdk lib/libbpfsdk.a lib/libbpfsdk.so.0 lib/libbpfsdk.so \
		 lib/pkgconfig/bpfsdk.pc include/bpfsdk.h include/bpfsdk/bpf/bpf_helpers.h \
		 include/bpfsdk/bpf/bpf_helper_defs.h include/bpfsdk/bpf/bpf_tracing.h \
		 include/bpfsdk/bpf/bpf_core_read.h share/man/man8/bpfsdk.8 share/man/man3/bpfsdk.3; do
		[ -e "$p/$f" ] || fail "not installed: $PREFIX_DIR/$f"
	done
	[ "$(readlink "$p/lib/libbpfsdk.so.0")" = "libbpfsdk.so.0.1.0" ] ||
		fail "libbpfsdk.so.0 -> $(readlink "$p/lib/libbpfsdk.so.0")"
	run "$p/bin/bpfsdk" --version
	assert_success
	assert_output --regexp '^bpfsdk [0-9]+\.[0-9]+'
	run pkg-config --modversion bpfsdk
	assert_output "$("$p/bin/bpfsdk" --version | cut -d' ' -f2)"
}

@test "install: a BPF program includes <bpf/bpf_helpers.h> from the SDK, not libbpf-dev's" {
	local inc
	# pkgconf puts the sysroot before variables too; older pkg-config does not
	inc=$(pkg-config --variable=bpf_includedir bpfsdk)
	[[ $inc == "$STAGE"/* ]] || inc="$STAGE$inc"
	[ "$inc" = "$STAGE$PREFIX_DIR/include/bpfsdk" ] || fail "bpf_includedir: $inc"
	run clang $(bpf_flags) -I"$inc" -M "$WORK/count.bpf.c"
	assert_success
	assert_output --partial "$inc/bpf/bpf_helpers.h"
	refute_output --partial "/usr/include/bpf/bpf_helpers.h"
	clang $(bpf_flags) -I"$inc" -c "$WORK/count.bpf.c" -o "$WORK/count.bpf.o"
}

@test "install: pkg-config --variable=bpfsdk names the installed tool, which writes a skeleton" {
	local tool
	tool=$(pkg-config --variable=bpfsdk bpfsdk)
	[[ $tool == "$STAGE"/* ]] || tool="$STAGE$tool"
	[ "$tool" = "$STAGE$PREFIX_DIR/bin/bpfsdk" ] || fail "bpfsdk variable: $tool, expected $STAGE$PREFIX_DIR/bin/bpfsdk"
	clang $(bpf_flags) -I"$STAGE$PREFIX_DIR/include/bpfsdk" -c "$WORK/count.bpf.c" -o "$WORK/skel.bpf.o"
	"$tool" gen skeleton "$WORK/skel.bpf.o" >"$WORK/skel.skel.h" || fail "$tool gen skeleton failed"
	run grep -c '^static inline struct skel_bpf \*skel_bpf__open(void)$' "$WORK/skel.skel.h"
	assert_output 1
}

# build_and_run SHARED|STATIC: link count.c with pkg-config, run it on count.bpf.o.
build_and_run() {
	[ -f "$WORK/count.bpf.o" ] ||
		clang $(bpf_flags) -I"$STAGE$PREFIX_DIR/include/bpfsdk" -c "$WORK/count.bpf.c" -o "$WORK/count.bpf.o"
	if [ "$1" = static ]; then
		run cc -Wall -static -o "$WORK/count_$1" "$WORK/count.c" $(pkg-config --static --cflags --libs bpfsdk)
	else
		run cc -Wall -o "$WORK/count_$1" "$WORK/count.c" $(pkg-config --cflags --libs bpfsdk)
	fi
	assert_success
	LD_LIBRARY_PATH="$STAGE$PREFIX_DIR/lib" run "$WORK/count_$1" "$WORK/count.bpf.o"
	assert_success
	assert_line "attached 1"
	assert_line "hash 0 3"
	assert_line "percpu 0 3"
	assert_line --regexp "^wrong key -22 Invalid argument: map 'per_pid': key size 8 given, the map's key size is 4$"
	assert_line --regexp "^wrong value -22 Invalid argument: map 'per_cpu': value size [0-9]+ given, expected [0-9]+ \(a per-CPU map"
}

@test "install: a program built with pkg-config --cflags --libs bpfsdk (shared) reads a hash and a per-CPU map" {
	[ "$(id -u)" = 0 ] || skip "needs root for bpf()"
	build_and_run shared
	LD_LIBRARY_PATH="$STAGE$PREFIX_DIR/lib" run ldd "$WORK/count_shared"
	assert_output --partial "libbpfsdk.so.0 => $STAGE$PREFIX_DIR/lib/libbpfsdk.so.0"
}

@test "install: the same program linked -static with pkg-config --static" {
	[ "$(id -u)" = 0 ] || skip "needs root for bpf()"
	build_and_run static
	run ldd "$WORK/count_static"
	refute_output --partial libbpfsdk
	refute_output --partial libelf
}

@test "install: man -l renders bpfsdk(8) and bpfsdk(3) without warnings" {
	command -v man >/dev/null || skip "no man (install man-db)"
	local page out
	for page in man8/bpfsdk.8 man3/bpfsdk.3; do
		out=$(MANWIDTH=80 man --warnings -l "$STAGE$PREFIX_DIR/share/man/$page" 2>"$BATS_TEST_TMPDIR/warn") ||
			fail "man -l $page failed"
		[ ! -s "$BATS_TEST_TMPDIR/warn" ] || fail "man -l $page: $(cat "$BATS_TEST_TMPDIR/warn")"
		grep -q '^NAME' <<<"$out" || fail "$page has no NAME section"
		grep -q '^SEE ALSO' <<<"$out" || fail "$page has no SEE ALSO section"
	done
	run man -l "$STAGE$PREFIX_DIR/share/man/man3/bpfsdk.3"
	assert_output --partial "bsdk_map_lookup_elem()"
	run man -l "$STAGE$PREFIX_DIR/share/man/man8/bpfsdk.8"
	assert_output --partial "inspect"
}

@test "install: make uninstall removes every file make install put there" {
	local stage2="$BATS_TEST_TMPDIR/stage2"
	make -s --no-print-directory BUILD="$BUILD" install DESTDIR="$stage2" PREFIX=/opt/bsdk >/dev/null
	[ -x "$stage2/opt/bsdk/bin/bpfsdk" ] || fail "PREFIX=/opt/bsdk: no bin/bpfsdk"
	grep -qx 'prefix=/opt/bsdk' "$stage2/opt/bsdk/lib/pkgconfig/bpfsdk.pc" ||
		fail "bpfsdk.pc does not say prefix=/opt/bsdk"
	make -s --no-print-directory BUILD="$BUILD" uninstall DESTDIR="$stage2" PREFIX=/opt/bsdk >/dev/null
	run find "$stage2" -type f -o -type l
	assert_output ""
}

@test "install: handlers of libbpf's callback types go into the readers' options under -Wall -Werror" {
	cat >"$WORK/handlers.c" <<'PROG'
#include <stddef.h>
#include <linux/types.h>
#include <bpfsdk.h>

/* as written for libbpf's ring_buffer__new() and perf_buffer__new() */
static int handle_event(void *ctx, void *data, size_t data_sz) { return 0; }
static void handle_sample(void *ctx, int cpu, void *data, __u32 size) { }
static void handle_lost(void *ctx, int cpu, __u64 cnt) { }

int main(void)
{
	struct bsdk_ringbuf_opts ro = { .sz = sizeof(ro), .sample_cb = handle_event };
	struct bsdk_perfbuf_opts po = { .sz = sizeof(po), .sample_cb = handle_sample,
					.lost_cb = handle_lost };

	return !ro.sample_cb || !po.sample_cb || !po.lost_cb;
}
PROG
	# shellcheck disable=SC2046 # pkg-config's words
	run cc -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror -c "$WORK/handlers.c" \
		-o "$WORK/handlers.o" $(pkg-config --cflags bpfsdk)
	assert_success
	# a handler of another type is refused: the check can fail
	sed 's/size_t data_sz/int data_sz/' "$WORK/handlers.c" >"$WORK/wrong.c"
	# shellcheck disable=SC2046
	run cc -std=gnu11 -Wall -Werror -c "$WORK/wrong.c" -o "$WORK/wrong.o" $(pkg-config --cflags bpfsdk)
	assert_failure
	assert_output --partial "incompatible"
}
