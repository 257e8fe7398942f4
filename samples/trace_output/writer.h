/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * writer.h - what trace_output and trace_output_core share: the writer,
 * dd, whose write(2)s the BPF side reports, and the check of each record
 * it caused.
 */
#ifndef TRACE_OUTPUT_WRITER_H
#define TRACE_OUTPUT_WRITER_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

/* What the record callbacks check against and count. */
struct stream {
	__u64 writer_pid;
	__u64 received;
	__u64 bad;
	__u64 lost;
	int verbose;
};

/* Start `dd if=/dev/zero of=/dev/null bs=1` pinned to cpu, killed with us
 * if we die first: its pid, or -1 (said on stderr). */
pid_t start_writer(int cpu);

/* Kill and reap it; a pid <= 0 is nothing to stop. */
void stop_writer(pid_t pid);

/* The perf buffer's (and the ring buffer's) callbacks, ctx a struct
 * stream: check a record's cookie, pid and size; count what was lost. */
void stream_sample(void *ctx, int cpu, const void *data, uint32_t size);
void stream_lost(void *ctx, int cpu, uint64_t count);

#endif /* TRACE_OUTPUT_WRITER_H */
