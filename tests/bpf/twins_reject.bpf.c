// SPDX-License-Identifier: GPL-2.0
/*
 * twins_reject.bpf.c - programs the verifier rejects beside good ones, for
 * tests/bats/twins.bats: a rejection leaves the program out, its twin
 * stands in, the rest run. Slots of 'hits', for target_pid's calls:
 *
 *   bad_btf    tp_btf/sys_enter: rejected (writes past a stack buffer)
 *   spare_raw  raw_tp/sys_enter, its twin: stands in, counts getppid in 1
 *   plain_tp   tracepoint sys_enter_getppid: counts in 2
 *   bad_tp     tracepoint sys_enter_getpgid: rejected, no twin
 */
#include <linux/bpf.h>
#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>
#include "twins.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sys_enter")
int bad_btf(__u64 *ctx)
{
	char comm[8];

	bpf_get_current_comm(comm, sizeof(comm) + 8);	/* the verifier says no */
	if (ctx[1] == __NR_getppid && comm[0])
		count(0);
	return 0;
}

SEC("raw_tp/sys_enter")
int spare_raw(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == __NR_getppid)
		count(1);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int plain_tp(void *ctx)
{
	count(2);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getpgid")
int bad_tp(void *ctx)
{
	char comm[8];

	bpf_get_current_comm(comm, sizeof(comm) + 8);	/* the verifier says no */
	if (comm[0])
		count(0);
	return 0;
}
