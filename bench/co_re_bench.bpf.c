// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_bench.bpf.c - a CO-RE object for bench/co_re_bench: what exec and exit tracers read out
 * of task_struct and what hangs off it (parent, mm, signal, credentials, namespaces), through
 * the program's own flavoured copies of those structs, each with a layout unlike the
 * kernel's. Every field read is a CO-RE relocation the loader resolves against the kernel's
 * BTF; opening and loading this object is what the benchmark times.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct ns_common___b { unsigned int inum; } __attribute__((preserve_access_index));
struct pid_namespace___b { struct ns_common___b ns; unsigned int level; }
	__attribute__((preserve_access_index));
struct nsproxy___b { struct pid_namespace___b *pid_ns_for_children; }
	__attribute__((preserve_access_index));
struct kuid___b { unsigned int val; } __attribute__((preserve_access_index));
struct cred___b { struct kuid___b uid, gid, euid, egid; } __attribute__((preserve_access_index));
struct mm_struct___b {
	unsigned long arg_start, arg_end, env_start, start_stack, total_vm;
} __attribute__((preserve_access_index));
struct signal_struct___b { int nr_threads; int group_exit_code; }
	__attribute__((preserve_access_index));
struct task_struct___b {
	char comm[16];
	int pid, tgid;
	int prio, static_prio, normal_prio;
	unsigned int rt_priority, flags;
	int exit_code, exit_signal, pdeath_signal;
	unsigned long long start_time, utime, stime, nvcsw, nivcsw, min_flt, maj_flt;
	struct task_struct___b *real_parent, *parent, *group_leader;
	struct mm_struct___b *mm;
	struct signal_struct___b *signal;
	const struct cred___b *real_cred, *cred;
	struct nsproxy___b *nsproxy;
} __attribute__((preserve_access_index));

struct event {
	__u64 v[24];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

static __always_inline struct task_struct___b *current(void)
{
	return (struct task_struct___b *)bpf_get_current_task();
}

SEC("tp/sched/sched_process_exec")
int on_exec(void *ctx)
{
	struct task_struct___b *t = current();
	struct event e = {};

	e.v[0] = BPF_CORE_READ(t, pid);
	e.v[1] = BPF_CORE_READ(t, tgid);
	e.v[2] = BPF_CORE_READ(t, real_parent, tgid);
	e.v[3] = BPF_CORE_READ(t, parent, pid);
	e.v[4] = BPF_CORE_READ(t, group_leader, pid);
	e.v[5] = BPF_CORE_READ(t, mm, arg_start);
	e.v[6] = BPF_CORE_READ(t, mm, arg_end);
	e.v[7] = BPF_CORE_READ(t, mm, env_start);
	e.v[8] = BPF_CORE_READ(t, mm, start_stack);
	e.v[9] = BPF_CORE_READ(t, mm, total_vm);
	e.v[10] = BPF_CORE_READ(t, real_cred, uid.val);
	e.v[11] = BPF_CORE_READ(t, real_cred, gid.val);
	e.v[12] = BPF_CORE_READ(t, cred, euid.val);
	e.v[13] = BPF_CORE_READ(t, cred, egid.val);
	e.v[14] = BPF_CORE_READ(t, nsproxy, pid_ns_for_children, ns.inum);
	e.v[15] = BPF_CORE_READ(t, nsproxy, pid_ns_for_children, level);
	bpf_core_read(&e.v[16], 16, &t->comm);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("tp/sched/sched_process_exit")
int on_exit(void *ctx)
{
	struct task_struct___b *t = current();
	struct event e = {};

	e.v[0] = BPF_CORE_READ(t, pid);
	e.v[1] = BPF_CORE_READ(t, tgid);
	e.v[2] = BPF_CORE_READ(t, real_parent, tgid);
	e.v[3] = BPF_CORE_READ(t, exit_code);
	e.v[4] = BPF_CORE_READ(t, exit_signal);
	e.v[5] = BPF_CORE_READ(t, pdeath_signal);
	e.v[6] = BPF_CORE_READ(t, start_time);
	e.v[7] = BPF_CORE_READ(t, utime);
	e.v[8] = BPF_CORE_READ(t, stime);
	e.v[9] = BPF_CORE_READ(t, nvcsw);
	e.v[10] = BPF_CORE_READ(t, nivcsw);
	e.v[11] = BPF_CORE_READ(t, min_flt);
	e.v[12] = BPF_CORE_READ(t, maj_flt);
	e.v[13] = BPF_CORE_READ(t, signal, nr_threads);
	e.v[14] = BPF_CORE_READ(t, signal, group_exit_code);
	e.v[15] = BPF_CORE_READ(t, flags);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("tp/sched/sched_switch")
int on_switch(void *ctx)
{
	struct task_struct___b *t = current();
	struct event e = {};

	e.v[0] = BPF_CORE_READ(t, prio);
	e.v[1] = BPF_CORE_READ(t, static_prio);
	e.v[2] = BPF_CORE_READ(t, normal_prio);
	e.v[3] = BPF_CORE_READ(t, rt_priority);
	e.v[4] = bpf_core_field_exists(t->pdeath_signal);
	e.v[5] = bpf_core_field_size(t->comm);
	e.v[6] = bpf_core_type_exists(struct nsproxy___b);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
