// SPDX-License-Identifier: GPL-2.0
/*
 * attach_uprobe.bpf.c - uprobes the section name does not place, for the
 * driver tests/drivers/attach_uprobe.c: "uprobe" and "uretprobe" without a
 * target, attached by bsdk_prog_attach_uprobe(); "uprobe//proc/self/exe:
 * FUNC", an absolute path, attached by bsdk_obj_attach_all() from the
 * driver (the kernel resolves /proc/self/exe to the driver); and a
 * perf_event program the driver attaches to a perf event it opens.
 *
 * Records: { pid, kind, value }: kind 1 uprobe (value: the argument),
 * 2 uretprobe (the return value), 3 the absolute-path uprobe (the
 * argument), 4 a perf event sample (0), 5 a sleepable uprobe (the first 8
 * bytes of the string its argument points to, read with
 * bpf_copy_from_user(), which only sleepable programs may call; its
 * records go to the ring buffer "slow": sleepable programs may not use
 * perf event arrays).
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

struct attach_uprobe_event {
	__u32 pid;
	__u32 kind;
	__u64 value;
};

static __always_inline int send(void *ctx, __u32 kind, __u64 value)
{
	struct attach_uprobe_event e;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.kind = kind;
	e.value = value;
	return bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
}

SEC("uprobe")
int on_entry(struct pt_regs *ctx)
{
	return send(ctx, 1, PT_REGS_PARM1(ctx));
}

SEC("uretprobe")
int on_return(struct pt_regs *ctx)
{
	return send(ctx, 2, PT_REGS_RC(ctx));
}

SEC("uprobe//proc/self/exe:attach_uprobe_abs")
int on_abs(struct pt_regs *ctx)
{
	return send(ctx, 3, PT_REGS_PARM1(ctx));
}

SEC("perf_event")
int on_sample(void *ctx)
{
	return send(ctx, 4, 0);
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} slow SEC(".maps");

SEC("uprobe.s//proc/self/exe:attach_uprobe_sleepable")
int on_sleepable(struct pt_regs *ctx)
{
	struct attach_uprobe_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.kind = 5;
	bpf_copy_from_user(&e.value, sizeof(e.value), (const void *)PT_REGS_PARM1(ctx));
	bpf_ringbuf_output(&slow, &e, sizeof(e), 0);
	return 0;
}
