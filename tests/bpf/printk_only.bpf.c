// SPDX-License-Identifier: GPL-2.0
/*
 * printk_only.bpf.c - bpf_printk() and nothing else, as libbpf-bootstrap's
 * minimal: a line to the trace pipe for each write(2) of one process
 * (target_pid, set by the test). run relays the lines
 * (tests/bats/trace_pipe.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid;

SEC("tracepoint/syscalls/sys_enter_write")
int printk_write(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	bpf_printk("printk_write: pid %u wrote", pid);
	return 0;
}
