/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * uprobe.h - the record the BPF side sends for each line bash reads, or
 * for each call of the traced function that returned.
 */
#ifndef UPROBE_H
#define UPROBE_H

#include <linux/types.h>

#define UPROBE_COMM_LEN 16		/* TASK_COMM_LEN */
#define UPROBE_LINE_MAX 256		/* bytes kept of a line, with its NUL */
#define UPROBE_ARGS_MAX 5		/* PT_REGS_PARM1..5 */

enum uprobe_kind {
	UPROBE_LINE = 1,	/* readline() returned line[] */
	UPROBE_CALL = 2,	/* the function returned ret, called with args[] */
};

struct uprobe_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns() at return */
	__u64 duration_ns;	/* CALL: from entry to return */
	__u32 pid;
	__u32 tid;
	__u32 kind;		/* enum uprobe_kind */
	__u32 len;		/* LINE: bytes of line[] sent, with the NUL */
	__s64 ret;		/* CALL: the return value (rax) */
	__u64 args[UPROBE_ARGS_MAX];	/* CALL: the first five arguments */
	char comm[UPROBE_COMM_LEN];
	char line[UPROBE_LINE_MAX];	/* must stay last: sent in part */
};

#define UPROBE_HEAD_SIZE __builtin_offsetof(struct uprobe_event, line)

#endif /* UPROBE_H */
