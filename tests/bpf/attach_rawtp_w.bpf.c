// SPDX-License-Identifier: GPL-2.0
/*
 * attach_rawtp_w.bpf.c - a writable raw tracepoint, for
 * tests/unit/test_attach_rawtp_w.c: raw_tp.w/bpf_test_finish fires at the
 * end of every BPF_PROG_TEST_RUN of a packet program, with a pointer to
 * the error the run will return; this program overwrites it with -ENOTTY
 * (for runs of target_pid only, so other tests' runs are left alone). A
 * test run of the socket filter beside it then fails with ENOTTY: the
 * write reached the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid;

SEC("socket")
int keep(struct __sk_buff *skb)
{
	return 1;
}

SEC("raw_tp.w/bpf_test_finish")
int set_err(struct bpf_raw_tracepoint_args *ctx)
{
	int *err = (int *)ctx->args[0];	/* the tracepoint's writable buffer */

	if ((bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	*err = -25;	/* -ENOTTY */
	return 0;
}
