// SPDX-License-Identifier: GPL-2.0
/*
 * execsnoop.bpf.c - report every execve(2): who ran which command line,
 * and whether it worked.
 *
 *   sched_process_fork  note each new process's parent, for PPID
 *   sys_enter_execve    copy the first arguments while the old program's
 *                       memory, which holds them, still exists
 *   sched_process_exec  the exec worked: read them again where the kernel
 *                       has just copied them, the new program's stack
 *   sys_exit_execve     add the result and the command name, send
 *
 * Why read twice? bpf_probe_read_user() cannot take a page fault: an
 * argument in a page of the caller that nothing has touched yet (a "" in
 * a program's read-only data, say) reads as -EFAULT at entry. The copy
 * the kernel made for the new program cannot be missing, but exists only
 * when the exec works; a failed exec keeps what entry could read.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "execsnoop.h"

/* GPL: bpf_perf_event_output() and the bpf_probe_read_user*() helpers. */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/* Where child_pid sits in sched_process_fork's record. Its layout changed
 * in 6.x (the comms became __data_loc strings), so user space reads the
 * offset from the tracepoint's format file and sets it before load. */
const volatile __u32 fork_child_pid_off = 0;

struct sys_enter_execve_args {
	__u64 common;			/* type, flags, preempt count, pid */
	__s32 __syscall_nr;
	__u32 __pad;
	const char *filename;
	const char *const *argv;
	const char *const *envp;
};
_Static_assert(__builtin_offsetof(struct sys_enter_execve_args, argv) == 24, "argv");

struct sys_exit_execve_args {
	__u64 common;
	__s32 __syscall_nr;
	__u32 __pad;
	__s64 ret;
};
_Static_assert(__builtin_offsetof(struct sys_exit_execve_args, ret) == 16, "ret");

/* The parent of each process forked while we run: child tgid -> parent
 * tgid. LRU: old entries make room, and threads (which fork reports too)
 * cost nothing but a slot. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u32);
} parents SEC(".maps");

/* Just what CO-RE needs to find mm->arg_start and arg_end in the running
 * kernel's task_struct and mm_struct, wherever its build put them. */
struct mm_struct {
	unsigned long arg_start;
	unsigned long arg_end;
} __attribute__((preserve_access_index));

struct task_struct {
	struct mm_struct *mm;
} __attribute__((preserve_access_index));

/* Execs in flight, from entry to exit, keyed by thread id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct execsnoop_event);
} execs SEC(".maps");

/* 2.6 KiB of record does not fit on the 512-byte stack: built here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct execsnoop_event);
} scratch SEC(".maps");

BPFSDK_RECORD(execsnoop_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/sched/sched_process_fork")
int fork_note(void *ctx)
{
	__u32 parent = bpf_get_current_pid_tgid() >> 32;	/* the forker */
	__u32 child = 0;

	/* A field at an offset known only at load: read it as memory, since
	 * direct context access needs the offset in the instruction. */
	bpf_probe_read_kernel(&child, sizeof(child), (char *)ctx + fork_child_pid_off);
	if (child)
		bpf_map_update_elem(&parents, &child, &parent, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_execve")
int execve_enter(struct sys_enter_execve_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, zero = 0, len = 0;
	struct execsnoop_event *e;
	const char *arg;
	int i;

	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	e->argc = 0;
	e->flags = 0;
	for (i = 0; i < EXECSNOOP_ARGS_MAX; i++) {
		long n;

		if (bpf_probe_read_user(&arg, sizeof(arg), &ctx->argv[i]) || !arg)
			break;
		/* Always true (ARGS_SIZE is ARGS_MAX slots of ARG_MAX); the
		 * verifier needs to see it to accept &args[len]. */
		if (len > EXECSNOOP_ARGS_SIZE - EXECSNOOP_ARG_MAX)
			break;
		n = bpf_probe_read_user_str(&e->args[len], EXECSNOOP_ARG_MAX, arg);
		if (n <= 0) {
			e->flags |= EXECSNOOP_UNREADABLE;
			break;
		}
		if (n == EXECSNOOP_ARG_MAX)
			e->flags |= EXECSNOOP_ARG_CUT;	/* or exactly 127 bytes */
		len += (__u32)n;
		e->argc++;
	}
	if (i == EXECSNOOP_ARGS_MAX &&
	    !bpf_probe_read_user(&arg, sizeof(arg), &ctx->argv[i]) && arg)
		e->flags |= EXECSNOOP_MORE_ARGS;
	e->args_len = len;
	bpf_map_update_elem(&execs, &tid, e, BPF_ANY);
	return 0;
}

/* The exec worked and the new program's memory is set up: its arguments
 * lie one after the other, each with its NUL, between mm->arg_start and
 * arg_end - the very format of args[]. Take the first ARGS_SIZE bytes. */
SEC("tracepoint/sched/sched_process_exec")
int exec_done(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct execsnoop_event *e;
	unsigned long start, end;
	__u64 len;

	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;
	start = BPF_CORE_READ(task, mm, arg_start);
	end = BPF_CORE_READ(task, mm, arg_end);
	if (!start || end <= start)
		return 0;
	len = end - start;
	if (len > EXECSNOOP_ARGS_SIZE)
		len = EXECSNOOP_ARGS_SIZE;
	if (bpf_probe_read_user(e->args, len, (const void *)start))
		return 0;	/* keep what entry read */
	e->flags = end - start > EXECSNOOP_ARGS_SIZE ? EXECSNOOP_MORE_ARGS : 0;
	e->args[len - 1] = '\0';	/* a string cut at the end is ended */
	e->args_len = (__u32)len;
	e->argc = 0;		/* not counted here: user space counts */
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_execve")
int execve_exit(struct sys_exit_execve_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, pid = id >> 32, len;
	struct execsnoop_event *e;
	__u32 *ppid;

	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;	/* entered before we attached */
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = pid;
	e->tid = tid;
	ppid = bpf_map_lookup_elem(&parents, &pid);
	e->ppid = ppid ? *ppid : 0;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ret = (__s32)ctx->ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	len = e->args_len;
	if (len > EXECSNOOP_ARGS_SIZE)	/* read back from memory: bound it */
		len = EXECSNOOP_ARGS_SIZE;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, EXECSNOOP_HEAD_SIZE + len);
	bpf_map_delete_elem(&execs, &tid);
	return 0;
}
