// SPDX-License-Identifier: GPL-2.0
/*
 * run_globals.bpf.c - results kept in global variables, the way libbpf-tools'
 * vfsstat and softirqs keep them, for tests/bats/run_maps.bats: a count in
 * .bss, a count per argument % 4 in a .bss array, and the last argument in
 * .data (which starts at 7). The driver calls getpgid(START + i); each call
 * of process target_pid counts.
 *
 * No map of its own: `bpfsdk run` shows the variables, by name, when the
 * run ends and every --interval.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;	/* .rodata: not shown */

__u64 calls;				/* .bss */
__u64 by_mod[4];			/* .bss */
__u64 last_arg = 7;			/* .data */

struct sys_enter_getpgid_ctx {
	__u64 common;		/* type, flags, preempt count, pid */
	__s32 syscall_nr;
	__u32 pad;
	__u64 pid;
};

SEC("tp/syscalls/sys_enter_getpgid")
int count_getpgid(struct sys_enter_getpgid_ctx *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	__sync_fetch_and_add(&calls, 1);
	__sync_fetch_and_add(&by_mod[ctx->pid & 3], 1);
	last_arg = ctx->pid;
	return 0;
}
