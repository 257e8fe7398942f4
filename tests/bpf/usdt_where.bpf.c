// SPDX-License-Identifier: GPL-2.0
/*
 * usdt_where.bpf.c - the USDT program of tests/bats/usdt.bats on the
 * probe of tests/drivers/usdt_where.c: bpfsdk:where (long in a register,
 * int and long in memory at the stack pointer plus an offset, the
 * constant -9). Each hit sends one record with what the four arguments
 * read as, through bpf_usdt_arg() and the typed BPF_USDT() parameters.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "GPL";

struct usdt_where_event {
	__u32 pid;
	__u32 arg_cnt;
	__s64 reg;		/* long i, in a register */
	__s64 mem_off;		/* int, in memory at sp + offset */
	__s64 mem;		/* long, in memory */
	__s64 constant;		/* the constant -9 */
	__s64 sizes;		/* bpf_usdt_arg_size() of each, a digit per argument */
	__s64 by_index;		/* bpf_usdt_arg(ctx, 1): the same as mem_off */
};

BPFSDK_RECORD(usdt_where_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("usdt/usdt_where:bpfsdk:where")
int BPF_USDT(on_where, long reg, int mem_off, long mem, int constant)
{
	struct usdt_where_event e = {};
	long v = 0;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.arg_cnt = bpf_usdt_arg_cnt(ctx);
	e.reg = reg;
	e.mem_off = mem_off;
	e.mem = mem;
	e.constant = constant;
	e.sizes = bpf_usdt_arg_size(ctx, 0) * 1000 + bpf_usdt_arg_size(ctx, 1) * 100 +
		  bpf_usdt_arg_size(ctx, 2) * 10 + bpf_usdt_arg_size(ctx, 3);
	e.by_index = bpf_usdt_arg(ctx, 1, &v) ? -1000 : v;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
