/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perf_overflow.h - what perf_overflow.bpf.c and its driver share.
 */
#ifndef PERF_OVERFLOW_H
#define PERF_OVERFLOW_H

/* One record: 16 bytes, the size of the seed's records. */
struct ovf_event {
	__u64 ts;       /* bpf_ktime_get_ns() */
	__u32 seq;      /* per-CPU sequence number, from OVF_PRODUCED */
	__u32 cpu;
};

/* Slots of the per-CPU counters map. */
enum {
	OVF_PRODUCED,   /* every record the program tried to send */
	OVF_ENOSPC,     /* the ring was full: -ENOSPC (perf), -EAGAIN (ring buffer) */
	OVF_OTHER_ERR,  /* any other error */
	OVF_NR_COUNTERS,
};

#endif
