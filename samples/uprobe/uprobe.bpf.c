// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe.bpf.c - probes in user programs: the line bash's readline()
 * returns, and the arguments and return value of any function.
 *
 * A uprobe is a breakpoint the kernel writes into a program's code: when a
 * process runs that instruction it traps, and the kernel runs our program
 * with the process's registers as context - the same struct pt_regs a
 * kprobe gets, so BPF_KPROBE() and PT_REGS_*() work unchanged. A
 * uretprobe runs when the function returns, with the return value in
 * PT_REGS_RC().
 *
 * The section names give each program's kind and a default place; the
 * user side chooses the real place at run time with
 * bsdk_prog_set_attach_target(), and loads only the programs of the mode
 * asked for.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
/* struct pt_regs as user space knows it: libbpf's bpf_tracing.h needs it
 * when there is no vmlinux.h; ours has its own and ignores it. */
#include <asm/ptrace.h>
#include <bpf/bpf_tracing.h>
#include "uprobe.h"

/* GPL: bpf_perf_event_output() and bpf_probe_read_user_str(). */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/* Set before load: the process to trace (0: any). */
const volatile __u32 target_tgid = 0;

/* Calls in flight: entry time and arguments, keyed by thread. */
struct call {
	__u64 ts_ns;
	__u64 args[UPROBE_ARGS_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct call);
} calls SEC(".maps");

/* 344 bytes of record are too many for the 512-byte stack together with
 * what the helpers need: one per-CPU slot. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uprobe_event);
} scratch SEC(".maps");

BPFSDK_RECORD(uprobe_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

static __always_inline struct uprobe_event *event_start(__u64 id, __u32 kind)
{
	__u32 zero = 0;
	struct uprobe_event *e = bpf_map_lookup_elem(&scratch, &zero);

	if (!e)
		return NULL;
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->kind = kind;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

/* char *readline(const char *prompt) returns the line typed, without its
 * newline, in memory bash has just written: readable at once. */
SEC("uretprobe//bin/bash:readline")
int BPF_KRETPROBE(readline_return, const char *line)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct uprobe_event *e;
	long len;

	if (!line || (target_tgid && (__u32)(id >> 32) != target_tgid))
		return 0;	/* NULL: end of input */
	e = event_start(id, UPROBE_LINE);
	if (!e)
		return 0;
	len = bpf_probe_read_user_str(e->line, sizeof(e->line), line);
	if (len < 0)
		len = 0;
	if (len > UPROBE_LINE_MAX)	/* the verifier's bound, kept visible */
		len = UPROBE_LINE_MAX;
	e->len = (__u32)len;
	e->duration_ns = 0;
	e->ret = 0;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, UPROBE_HEAD_SIZE + len);
	return 0;
}

/* Entry of the traced function: what is in the argument registers now is
 * gone by the return, so keep it for the uretprobe. */
SEC("uprobe//bin/true:main")
int BPF_KPROBE(func_entry)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct call c;

	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	c.ts_ns = bpf_ktime_get_ns();
	c.args[0] = PT_REGS_PARM1(ctx);
	c.args[1] = PT_REGS_PARM2(ctx);
	c.args[2] = PT_REGS_PARM3(ctx);
	c.args[3] = PT_REGS_PARM4(ctx);
	c.args[4] = PT_REGS_PARM5(ctx);
	bpf_map_update_elem(&calls, &tid, &c, BPF_ANY);
	return 0;
}

SEC("uretprobe//bin/true:main")
int BPF_KRETPROBE(func_return, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct uprobe_event *e;
	struct call *c;

	c = bpf_map_lookup_elem(&calls, &tid);
	if (!c)
		return 0;	/* entered before we attached, or filtered */
	e = event_start(id, UPROBE_CALL);
	if (e) {
		e->duration_ns = e->ts_ns - c->ts_ns;
		e->ret = ret;
		for (int i = 0; i < UPROBE_ARGS_MAX; i++)
			e->args[i] = c->args[i];
		e->len = 0;
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, UPROBE_HEAD_SIZE);
	}
	bpf_map_delete_elem(&calls, &tid);
	return 0;
}
