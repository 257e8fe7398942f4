// SPDX-License-Identifier: GPL-2.0
/*
 * attach_loadonly.bpf.c - an object with nothing `bpfsdk run` can attach
 * (one XDP program), for tests/bats/attach_policy.bats: run leaves it out
 * with a warning and exits 1, since nothing could be attached.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("xdp")
int xdp_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}
