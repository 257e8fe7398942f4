// SPDX-License-Identifier: GPL-2.0
/*
 * fault_co_re.bpf.c - a CO-RE object with externs for the fault walk
 * (tests/faults/): on each getppid() of target_pid, a record through a
 * perf event array with the caller's tgid read by CO-RE from its
 * task_struct and the kernel's version from a __kconfig extern.
 * Names start with flt_ so that the walk's objects are told from others.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "fault_events.h"
#include "kernel_facts.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} flt_core_ev SEC(".maps");

const volatile __u32 target_pid = 0;
__u64 flt_core_seq;

SEC("tp/syscalls/sys_enter_getppid")
int flt_core_tp(void *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct fault_event e = {};

	e.pid = BPF_CORE_READ(task, tgid);
	if (e.pid != target_pid)
		return 0;
	e.seq = (__u32)__sync_add_and_fetch(&flt_core_seq, 1);
	e.value = LINUX_KERNEL_VERSION + (CONFIG_HZ > 0 ? 0 : 1);
	bpf_perf_event_output(ctx, &flt_core_ev, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
