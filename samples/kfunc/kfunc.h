/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * kfunc.h - the record the BPF side sends for each do_unlinkat() that
 * returned: who removed which name, and the result.
 */
#ifndef KFUNC_H
#define KFUNC_H

#include <linux/types.h>

#define KFUNC_COMM_LEN 16		/* TASK_COMM_LEN */
#define KFUNC_NAME_MAX 256		/* bytes kept of the file name */

struct kfunc_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns() at return */
	__u32 pid;
	__u32 tid;
	__s32 ret;		/* 0 or -errno */
	__u32 name_len;		/* bytes of name[] sent, with its NUL */
	char comm[KFUNC_COMM_LEN];
	char name[KFUNC_NAME_MAX];	/* must stay last: sent in part */
};

#define KFUNC_HEAD_SIZE __builtin_offsetof(struct kfunc_event, name)

#endif /* KFUNC_H */
