/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * profile.h - the key of the counts the BPF side keeps: which process was
 * on the CPU, and the ids of its user and kernel stacks in the STACK_TRACE
 * map. One count per distinct key: samples of the same stacks add up in
 * the kernel.
 */
#ifndef PROFILE_H
#define PROFILE_H

#include <linux/types.h>

#define PROFILE_COMM_LEN 16		/* TASK_COMM_LEN */
#define PROFILE_STACK_DEPTH 127		/* PERF_MAX_STACK_DEPTH */

struct profile_key {
	__u32 pid;		/* process id (tgid); 0 for the idle task */
	__s32 user_stack;	/* id in the stacks map, or -errno */
	__s32 kernel_stack;	/* id in the stacks map, or -errno */
	char comm[PROFILE_COMM_LEN];
};

#endif /* PROFILE_H */
