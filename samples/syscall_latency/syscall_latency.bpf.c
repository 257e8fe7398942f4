// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_latency.bpf.c - time one system call: note the clock when a
 * thread enters it, and when the thread leaves it send {pid, tid, return
 * value, latency} to user space with bpf_perf_event_output().
 *
 * Attached to the raw tracepoints sys_enter and sys_exit, which fire for
 * every system call of every thread: the call to time is chosen at run
 * time by its number (target_nr), not at compile time by a section name
 * like tracepoint/syscalls/sys_enter_read. See the README for the trade.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "syscall_latency.h"

/* GPL: bpf_perf_event_output() is a GPL-only helper. */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/* Set by user space before load (bsdk_obj_set_global): the number of the
 * system call to time, and the process to time it in (0: all). In .rodata,
 * so the verifier knows them as constants. */
const volatile __s64 target_nr = -1;
const volatile __u32 target_tgid = 0;

/*
 * When each thread entered the call: key pid_tgid, value the entry time in
 * ns. The key is per thread, not per process, because the threads of one
 * process can be inside the same system call at the same time; a thread,
 * though, is inside at most one, so its next sys_exit is the exit of the
 * call it entered. 10240 threads may be inside the call at once; past
 * that, update fails and those calls go untimed.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, __u64);
} start SEC(".maps");

BPFSDK_RECORD(syscall_latency_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* raw_tracepoint/sys_enter: args[0] is the struct pt_regs * of the call,
 * args[1] the system call number. */
SEC("raw_tracepoint/sys_enter")
int syscall_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id, ts;

	/* This runs for every system call on the machine: the cheapest
	 * test first. */
	if ((__s64)ctx->args[1] != target_nr)
		return 0;
	id = bpf_get_current_pid_tgid();
	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	/* Read the clock last, so our own work is not counted. */
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &id, &ts, BPF_ANY);
	return 0;
}

/* raw_tracepoint/sys_exit: args[0] is the struct pt_regs *, args[1] the
 * return value. */
SEC("raw_tracepoint/sys_exit")
int syscall_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 now = bpf_ktime_get_ns();	/* first, for the same reason */
	__u64 id = bpf_get_current_pid_tgid();
	struct syscall_latency_event e = {};
	__u64 *ts;

	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	/* The exit of a call we did not see enter - another system call,
	 * or one that began before we attached - has no entry. */
	ts = bpf_map_lookup_elem(&start, &id);
	if (!ts)
		return 0;
	e.latency_ns = now - *ts;
	e.ret = (__s64)ctx->args[1];
	e.pid = id >> 32;
	e.tid = (__u32)id;
	bpf_map_delete_elem(&start, &id);

	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
