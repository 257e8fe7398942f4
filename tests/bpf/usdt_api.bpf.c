// SPDX-License-Identifier: GPL-2.0
/*
 * usdt_api.bpf.c - a USDT program whose section names no probe, for
 * tests/drivers/usdt_api.c: attached with bsdk_prog_attach_usdt(), it
 * keeps what it saw in global variables the driver reads back.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "GPL";

long seen_cookie;
long seen_arg;
long seen_count;

SEC("usdt")
int BPF_USDT(on_api_probe, long arg)
{
	seen_cookie = bpf_usdt_cookie(ctx);
	seen_arg = arg;
	__sync_fetch_and_add(&seen_count, 1);
	return 0;
}
