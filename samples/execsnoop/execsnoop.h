/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * execsnoop.h - the record the BPF side sends for each execve(2).
 *
 * A fixed head, then the arguments as NUL-terminated strings one after the
 * other ("ls\0-l\0/tmp\0"), args_len bytes in all: the record is as long
 * as the command line, at most EXECSNOOP_ARGS_SIZE bytes. When the exec
 * worked they are the first ARGS_SIZE bytes of the new program's command
 * line; when it failed, up to EXECSNOOP_ARGS_MAX arguments of
 * EXECSNOOP_ARG_MAX bytes each, as the caller passed them.
 */
#ifndef EXECSNOOP_H
#define EXECSNOOP_H

#include <linux/types.h>

#define EXECSNOOP_COMM_LEN 16		/* TASK_COMM_LEN */
#define EXECSNOOP_ARGS_MAX 20		/* arguments kept */
#define EXECSNOOP_ARG_MAX 128		/* bytes kept of each, with its NUL */
#define EXECSNOOP_ARGS_SIZE (EXECSNOOP_ARGS_MAX * EXECSNOOP_ARG_MAX)

/* flags */
#define EXECSNOOP_MORE_ARGS 1		/* more than fits: arguments left out */
#define EXECSNOOP_ARG_CUT 2		/* an argument was cut at ARG_MAX - 1 */
#define EXECSNOOP_UNREADABLE 4		/* an argument could not be read */

struct execsnoop_event {
	__u64 ts_ns;	/* bpf_ktime_get_ns() at return */
	__u32 pid;	/* process id (the kernel's tgid) */
	__u32 tid;
	__u32 ppid;	/* the process that forked it; 0: forked before we started */
	__u32 uid;
	__s32 ret;	/* 0, or -errno when the exec failed */
	__u32 argc;	/* arguments in args[], or 0: count its strings */
	__u32 args_len;	/* bytes of args[] sent */
	__u32 flags;	/* EXECSNOOP_* */
	char comm[EXECSNOOP_COMM_LEN];	/* at return: the new program's */
	char args[EXECSNOOP_ARGS_SIZE];	/* must stay last: sent in part */
};

#define EXECSNOOP_HEAD_SIZE __builtin_offsetof(struct execsnoop_event, args)

#endif /* EXECSNOOP_H */
