// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_big_loop.bpf.c - a loop with a constant bound the verifier walks
 * iteration by iteration: 300000 of them take it past a million
 * instructions. A constant bound is not the fix here; bpf_loop(), bpf_for()
 * or fewer iterations are (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 total;

SEC("tracepoint/syscalls/sys_enter_getppid")
int big_loop(void *ctx)
{
	__u64 sum = 0;

	for (__u32 i = 0; i < 300000; i++)
		sum += *(volatile __u64 *)&total ^ i;
	total = sum;
	return 0;
}
