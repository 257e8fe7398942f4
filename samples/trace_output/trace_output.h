/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * trace_output.h - the record the BPF side sends and the user side reads.
 *
 * One header for both sides is how the two agree on the layout: change a
 * field here and both are rebuilt. Fixed-width types only, so the layout is
 * the same for the BPF target and the host.
 */
#ifndef TRACE_OUTPUT_H
#define TRACE_OUTPUT_H

#include <linux/types.h>

/* The seed's cookie: a constant the user side checks in every record, so a
 * record that was torn, misaligned or mis-sized cannot pass unnoticed. */
#define TRACE_OUTPUT_COOKIE 0x12345678ULL

struct trace_output_event {
	__u64 pid;	/* tgid of the writer, the "pid" user space knows */
	__u64 cookie;	/* always TRACE_OUTPUT_COOKIE */
};

#endif /* TRACE_OUTPUT_H */
