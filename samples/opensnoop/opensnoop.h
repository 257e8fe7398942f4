/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * opensnoop.h - the record the BPF side sends for each openat(2) and the
 * user side reads.
 *
 * The record has a fixed head and a variable tail: the path. The BPF side
 * sends the head plus only the path bytes it actually read, so a record for
 * "/etc/passwd" costs 56 + 12 bytes, not 56 + 4096. The user side must
 * therefore never assume the whole struct arrived: path_len says how much
 * of path[] is there.
 */
#ifndef OPENSNOOP_H
#define OPENSNOOP_H

#include <linux/types.h>

#define OPENSNOOP_COMM_LEN 16		/* TASK_COMM_LEN */
#define OPENSNOOP_PATH_MAX 4096		/* PATH_MAX, a power of two */

struct opensnoop_event {
	__u64 ts_ns;	/* bpf_ktime_get_ns() at return: orders the CPUs */
	__u32 pid;	/* process id (the kernel's tgid) */
	__u32 tid;	/* thread id (the kernel's pid) */
	__u32 uid;
	__s32 flags;	/* openat's flags: O_RDONLY, O_CREAT, ... */
	__s32 dfd;	/* the directory fd, AT_FDCWD (-100) for "here" */
	__s32 ret;	/* the new fd, or -errno */
	__s32 path_len;	/* bytes of path[] sent, with its NUL; 0 when the
			 * read failed, and then path_err says why */
	__s32 path_err;	/* -errno of bpf_probe_read_user_str(), or 0 */
	char comm[OPENSNOOP_COMM_LEN];
	char path[OPENSNOOP_PATH_MAX];	/* must stay last: sent in part */
};

/* What the BPF side sends before the path: the smallest valid record. */
#define OPENSNOOP_HEAD_SIZE __builtin_offsetof(struct opensnoop_event, path)

#endif /* OPENSNOOP_H */
