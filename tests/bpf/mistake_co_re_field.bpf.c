// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_co_re_field.bpf.c - a CO-RE read of a mistyped field: start_tme
 * for task_struct's start_time. The error names the local member and the
 * kernel's one meant (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct task_struct {
	__u64 start_tme;
} __attribute__((preserve_access_index));

__u64 started;

SEC("tracepoint/syscalls/sys_enter_getppid")
int core_field_typo(void *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	started = BPF_CORE_READ(task, start_tme);
	return 0;
}
