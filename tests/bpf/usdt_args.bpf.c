// SPDX-License-Identifier: GPL-2.0
/*
 * usdt_args.bpf.c - USDT programs for tests/bats/usdt.bats, on the probes
 * of tests/drivers/usdt_probe.c: bpfsdk:hit (int, long, string, the
 * constant 5) at two sites, and bpfsdk:gated (the semaphore's value),
 * which fires only while the loader holds the semaphore raised. Each
 * probe hit sends one record with what the arguments read as.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "GPL";

struct usdt_args_event {
	__u32 pid;
	__u32 kind;		/* 1: hit, 2: gated */
	__s64 arg_cnt;
	__s64 a0, a1, a3;
	__s64 cookie;
	__s64 missing_err;	/* bpf_usdt_arg() of an argument past the last */
	__s64 sizes;		/* bpf_usdt_arg_size() of each, a digit per argument */
	char str[16];
};

BPFSDK_RECORD(usdt_args_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("usdt/usdt_probe:bpfsdk:hit")
int BPF_USDT(on_hit, int i, long big, const char *s, int five)
{
	struct usdt_args_event e = {};
	long dummy;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.kind = 1;
	e.arg_cnt = bpf_usdt_arg_cnt(ctx);
	e.a0 = i;
	e.a1 = big;
	e.a3 = five;
	e.cookie = bpf_usdt_cookie(ctx);
	e.missing_err = bpf_usdt_arg(ctx, 4, &dummy);
	e.sizes = bpf_usdt_arg_size(ctx, 0) * 1000 + bpf_usdt_arg_size(ctx, 1) * 100 +
		  bpf_usdt_arg_size(ctx, 2) * 10 + bpf_usdt_arg_size(ctx, 3);
	bpf_probe_read_user_str(e.str, sizeof(e.str), s);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("usdt/usdt_probe:bpfsdk:gated")
int BPF_USDT(on_gated, unsigned short sem)
{
	struct usdt_args_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.kind = 2;
	e.arg_cnt = bpf_usdt_arg_cnt(ctx);
	e.a0 = sem;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
