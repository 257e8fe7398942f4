// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * minimal.bpf.c - libbpf-bootstrap's "minimal" on bpfsdk's headers: a
 * line in the kernel's trace pipe for every write(2) of one process, the
 * one whose pid user space puts in my_pid before load.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

int my_pid = 0;		/* .bss: set through the skeleton */

SEC("tp/syscalls/sys_enter_write")
int on_write(void *ctx)
{
	int pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != my_pid)
		return 0;
	bpf_printk("minimal: write from pid %d", pid);
	return 0;
}
