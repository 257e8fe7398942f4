// SPDX-License-Identifier: GPL-2.0
/*
 * cli_uprobe.bpf.c - a uprobe and a uretprobe on cli_uprobe_hit() of the
 * test driver tests/drivers/cli_trigger.c, for tests/bats/cli_run.bats.
 *
 * The path in the section name is relative: the loader and the kernel
 * resolve it against the current directory, so the test runs bpfsdk from
 * the directory that holds the driver ($BUILD/bin) whatever BUILD is.
 *
 * Records: { pid, 1, argument } at entry and { pid, 2, return value } at
 * return; the driver calls cli_uprobe_hit(x) for x = START, START + 1, ...
 * and the function returns 2 * x + 1.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct cli_uprobe_event {
	__u32 pid;
	__u32 kind;	/* 1 entry, 2 return */
	__u64 value;
};

static __always_inline int send(struct pt_regs *ctx, __u32 kind, __u64 value)
{
	struct cli_uprobe_event e;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.kind = kind;
	e.value = value;
	return bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e,
				     sizeof(e));
}

SEC("uprobe/cli_trigger:cli_uprobe_hit")
int on_entry(struct pt_regs *ctx)
{
	return send(ctx, 1, PT_REGS_PARM1(ctx));
}

SEC("uretprobe/cli_trigger:cli_uprobe_hit")
int on_return(struct pt_regs *ctx)
{
	return send(ctx, 2, PT_REGS_RC(ctx));
}
