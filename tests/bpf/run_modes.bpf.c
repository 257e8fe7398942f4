// SPDX-License-Identifier: GPL-2.0
/*
 * run_modes.bpf.c - a tool with two modes, written as libbpf-tools'
 * sigsnoop is: the exit of kill() and tkill() sends a record (their
 * entries save the arguments in 'values'), or, in the other mode, the
 * tracepoint signal/signal_generate does; the tool's user space loads one
 * of the two. tests/bats/run_modes.bats checks that inspect names the two
 * places its records come from, that run, attaching both, says so and how
 * to choose, and that a kill() by target_pid then shows once per mode.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid;

struct sys_enter_kill {
	__u64 common;
	long nr;
	long pid;
	long sig;
};

struct sys_exit {
	__u64 common;
	long nr;
	long ret;
};

struct signal_generate {
	__u64 common;
	int sig;
	int err;
	int code;
	char comm[16];
	int pid;
	int group;
	int result;
};

struct mode_event {
	__u32 pid;
	__u32 tpid;
	int sig;
	int ret;
	__u32 mode;	/* 1: the syscalls' exits, 2: signal_generate */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct mode_event);
} values SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

static __always_inline int enter(struct sys_enter_kill *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct mode_event e = {};

	if (id >> 32 != target_pid)
		return 0;
	e.pid = id >> 32;
	e.tpid = (__u32)ctx->pid;
	e.sig = (int)ctx->sig;
	e.mode = 1;
	bpf_map_update_elem(&values, &tid, &e, BPF_ANY);
	return 0;
}

static __always_inline int leave(struct sys_exit *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct mode_event *e = bpf_map_lookup_elem(&values, &tid);

	if (!e)
		return 0;
	e->ret = (int)ctx->ret;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
	bpf_map_delete_elem(&values, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_kill")
int kill_entry(struct sys_enter_kill *ctx) { return enter(ctx); }

SEC("tracepoint/syscalls/sys_exit_kill")
int kill_exit(struct sys_exit *ctx) { return leave(ctx); }

SEC("tracepoint/syscalls/sys_enter_tkill")
int tkill_entry(struct sys_enter_kill *ctx) { return enter(ctx); }

SEC("tracepoint/syscalls/sys_exit_tkill")
int tkill_exit(struct sys_exit *ctx) { return leave(ctx); }

SEC("tracepoint/signal/signal_generate")
int sig_trace(struct signal_generate *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct mode_event e = {};

	if (id >> 32 != target_pid)
		return 0;
	e.pid = id >> 32;
	e.tpid = (__u32)ctx->pid;
	e.sig = ctx->sig;
	e.ret = ctx->result;
	e.mode = 2;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
