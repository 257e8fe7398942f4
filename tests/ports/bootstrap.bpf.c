// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bootstrap.bpf.c - libbpf-bootstrap's "bootstrap", on bpfsdk's headers:
 * a record for every exec (pid, parent, command, file) and every process
 * exit (exit status, how long it lived since its exec), through a ring
 * buffer. A knob set before load keeps only the exits of processes that
 * lived at least min_duration_ns, and then drops the exec records.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "bootstrap.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load; 0 reports every exec and exit. */
const volatile __u64 min_duration_ns = 0;

/* When each process we saw exec started: pid -> ns. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u64);
} exec_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rb SEC(".maps");

/* The fields read from the running kernel's task_struct, wherever its
 * build put them (CO-RE). */
struct task_struct {
	int exit_code;
	int tgid;
	struct task_struct *real_parent;
} __attribute__((preserve_access_index));

/* sched_process_exec's record: the file name is a __data_loc string,
 * its offset from the start of the record in the low 16 bits. */
struct exec_args {
	__u64 common;
	__u32 filename_loc;
	__s32 pid;
	__s32 old_pid;
};

static void fill(struct boot_event *e, __u32 pid)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	e->pid = pid;
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	bpf_get_current_comm(e->comm, sizeof(e->comm));
}

SEC("tp/sched/sched_process_exec")
int on_exec(struct exec_args *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 now = bpf_ktime_get_ns();
	struct boot_event *e;

	bpf_map_update_elem(&exec_start, &pid, &now, BPF_ANY);
	if (min_duration_ns)
		return 0;	/* only long-lived exits are wanted */
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	fill(e, pid);
	e->is_exit = 0;
	e->exit_code = 0;
	e->duration_ns = 0;
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename),
				  (char *)ctx + (ctx->filename_loc & 0xffff));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp/sched/sched_process_exit")
int on_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), duration = 0, *start;
	__u32 pid = id >> 32;
	struct task_struct *task;
	struct boot_event *e;

	if (pid != (__u32)id)
		return 0;	/* a thread ended, not the process */
	start = bpf_map_lookup_elem(&exec_start, &pid);
	if (start) {
		duration = bpf_ktime_get_ns() - *start;
		bpf_map_delete_elem(&exec_start, &pid);
	}
	if (min_duration_ns && duration < min_duration_ns)
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 0;
	fill(e, pid);
	task = (struct task_struct *)bpf_get_current_task();
	e->is_exit = 1;
	e->exit_code = (BPF_CORE_READ(task, exit_code) >> 8) & 0xff;
	e->duration_ns = duration;
	e->filename[0] = '\0';
	bpf_ringbuf_submit(e, 0);
	return 0;
}
