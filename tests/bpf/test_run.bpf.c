// SPDX-License-Identifier: GPL-2.0
/*
 * test_run.bpf.c - programs for tests/unit/test_prog_test_run.c, run with
 * BPF_PROG_TEST_RUN on input the test makes up: a socket filter that reads
 * the packet and its context and writes the context back, counting its
 * runs in .bss; a raw tracepoint that computes from its arguments; and a
 * tracepoint, a type the kernel cannot test-run.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u64 runs;

/* returns len * 256 + the first byte after the Ethernet header;
 * cb[0] = cb[1] * 2 + that byte */
SEC("socket")
int filter(struct __sk_buff *skb)
{
	__u8 first = 0;

	__sync_fetch_and_add(&runs, 1);
	if (bpf_skb_load_bytes(skb, 0, &first, 1))
		return 0;
	skb->cb[0] = skb->cb[1] * 2 + first;
	return skb->len * 256 + first;
}

/* returns args[0] * 10 + args[1] */
SEC("raw_tp/sys_enter")
int raw(__u64 *args)
{
	return (int)(args[0] * 10 + args[1]);
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int tracepoint(void *ctx)
{
	return 0;
}
