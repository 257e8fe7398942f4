/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * syscall_latency.h - the record the BPF side sends when a traced system
 * call returns, and the user side reads.
 */
#ifndef SYSCALL_LATENCY_H
#define SYSCALL_LATENCY_H

#include <linux/types.h>

struct syscall_latency_event {
	__u64 latency_ns;	/* from entry to exit, bpf_ktime_get_ns() */
	__s64 ret;		/* what the call returned: >= 0, or -errno */
	__u32 pid;		/* process id (the kernel's tgid) */
	__u32 tid;		/* thread id (the kernel's pid) */
};

#endif /* SYSCALL_LATENCY_H */
