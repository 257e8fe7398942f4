// SPDX-License-Identifier: GPL-2.0
/*
 * attach_tp_btf.bpf.c - a BTF tracepoint, for tests/bats/attach_btf.bats:
 * tp_btf/sched_process_exec sees the tracepoint's typed arguments
 * (struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm) as a
 * u64 array, checked by the verifier against the kernel's BTF.
 *
 * Records, of target_pid's exec only: { u32 tgid, u32 old_pid (the
 * tracepoint's second argument), char comm[16] (already the new
 * program's name) }.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid;

struct exec_event {
	__u32 tgid;
	__u32 old_pid;
	char comm[16];
};

SEC("tp_btf/sched_process_exec")
int on_exec(__u64 *ctx)
{
	struct exec_event e = {};

	e.tgid = bpf_get_current_pid_tgid() >> 32;
	if (e.tgid != target_pid)
		return 0;
	e.old_pid = (__u32)ctx[1];
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
