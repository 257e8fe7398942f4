/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * payload.h - the record the BPF side sends for each write(2): a fixed head,
 * then the first bytes of the data written.
 *
 * The record is as long as the data it carries, not as long as the largest
 * one: a 5-byte write costs HEAD + 5 bytes of ring, a 1000-byte one HEAD +
 * 1000. The kernel pads every record of a perf ring to a multiple of 8
 * bytes, so the user side is told a size that may be larger than what was
 * sent; len, not that size, is how many bytes of data[] are real.
 */
#ifndef PAYLOAD_H
#define PAYLOAD_H

#include <linux/types.h>

#define PAYLOAD_COMM_LEN 16		/* TASK_COMM_LEN */
#define PAYLOAD_SNAP_MAX 4096		/* --snap's upper bound, a power of two */

struct payload_event {
	__u64 ts_ns;	/* bpf_ktime_get_ns() at entry: orders the CPUs */
	__u64 count;	/* bytes the caller asked to write: the true length */
	__u32 pid;	/* process id (the kernel's tgid) */
	__u32 tid;	/* thread id */
	__s32 fd;	/* the file descriptor written to */
	__u32 len;	/* bytes of data[] sent: min(count, snap) */
	__s32 err;	/* -errno of bpf_probe_read_user(), or 0 */
	__u32 pad;
	char comm[PAYLOAD_COMM_LEN];
	__u8 data[PAYLOAD_SNAP_MAX];	/* must stay last: sent in part */
};

/* What the BPF side sends before the data: the smallest valid record. */
#define PAYLOAD_HEAD_SIZE __builtin_offsetof(struct payload_event, data)

#endif /* PAYLOAD_H */
