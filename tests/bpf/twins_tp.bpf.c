// SPDX-License-Identifier: GPL-2.0
/*
 * twins_tp.bpf.c - one tracepoint three ways, for tests/bats/twins.bats:
 * tp_btf/sys_enter, raw_tp/sys_enter and tracepoint/raw_syscalls/sys_enter
 * are twins (the same event), as libbpf-tools carry them for kernels that
 * lack the newer kinds. Each counts target_pid's getppid() calls in its
 * own slot of 'hits' (0: tp_btf, 1: raw_tp, 2: tracepoint), so a test
 * sees which one ran and that the calls were counted once.
 */
#include <linux/bpf.h>
#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>
#include "twins.h"

char LICENSE[] SEC("license") = "GPL";

/* sys_enter(struct pt_regs *regs, long id) */
SEC("tp_btf/sys_enter")
int enter_btf(__u64 *ctx)
{
	if (ctx[1] == __NR_getppid)
		count(0);
	return 0;
}

SEC("raw_tp/sys_enter")
int enter_raw(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == __NR_getppid)
		count(1);
	return 0;
}

/* the tracepoint's format: 8 bytes of common fields, then long id */
struct sys_enter_args {
	__u64 common;
	long id;
};

SEC("tracepoint/raw_syscalls/sys_enter")
int enter_tp(struct sys_enter_args *ctx)
{
	if (ctx->id == __NR_getppid)
		count(2);
	return 0;
}
