// SPDX-License-Identifier: GPL-2.0
/*
 * usdt.bpf.c - a USDT program as one is written for libbpf's usdt.bpf.h:
 * BPF_USDT() with typed arguments, bpf_usdt_arg_cnt(), bpf_usdt_arg() and
 * bpf_usdt_cookie(). tests/bats/headers.bats builds it against include/
 * and libbpf's headers and checks that both objects carry the same spec
 * maps with the same value layout, which is what lets one loader fill
 * either.
 */
#include <stdbool.h>	/* libbpf's usdt.bpf.h needs bool; vmlinux.h users have it */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, long);
} out SEC(".maps");

static __always_inline void put(__u32 k, long v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

SEC("usdt/./app:provider:probe")
int BPF_USDT(on_probe, int a, long b, const char *c)
{
	long third = 0;

	put(0, a + b + (c != 0));
	put(1, bpf_usdt_arg_cnt(ctx));
	bpf_usdt_arg(ctx, 2, &third);
	put(2, third);
	put(3, bpf_usdt_cookie(ctx));
	return 0;
}
