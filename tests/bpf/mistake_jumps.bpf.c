// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_jumps.bpf.c - a bounded loop with a branch in every iteration:
 * the verifier keeps one pending state per branch and gives up at 8192 of
 * them, "The sequence of 8193 jumps is too complex" (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 total;

SEC("tracepoint/syscalls/sys_enter_getppid")
int many_jumps(void *ctx)
{
	__u64 sum = 0;

	for (__u32 i = 0; i < 10000; i++)
		if (bpf_get_prandom_u32() & 1)
			sum += i;
	total = sum;
	return 0;
}
