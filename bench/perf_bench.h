/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perf_bench.h - what perf_bench.bpf.c and perf_bench.c share.
 */
#ifndef PERF_BENCH_H
#define PERF_BENCH_H

/* One record: 16 bytes, the size of the seed's records. */
struct bench_event {
	__u64 ts;       /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 seq;      /* per-CPU count of records produced */
	__u32 cpu;
};

/* Slots of the per-CPU counters map. */
enum {
	BENCH_PRODUCED,   /* records the program tried to send */
	BENCH_ERRORS,     /* the helper failed: -ENOSPC (perf), -EAGAIN (ring) */
	BENCH_NR_COUNTERS,
};

#endif
