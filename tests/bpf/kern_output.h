/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * kern_output.h - what tests/bpf/kern_output.bpf.c and its driver
 * (tests/drivers/kern_probe.c) share: the configuration the driver writes
 * before each trigger and the result the program leaves behind.
 */
#ifndef KERN_OUTPUT_H
#define KERN_OUTPUT_H

#include <linux/types.h>

/* The largest payload a test sends; patch 1's contract is checked for every
 * size from 1 to this. */
#define KERN_MAX_PAYLOAD 64

/* Slots of the "slots" map, the one the error cases use; index
 * KERN_SLOTS is the first one out of range. */
#define KERN_SLOTS 4

/* Which map the program sends to. */
enum kern_target {
	KERN_TO_EVENTS = 0,   /* "events": one BPF output event per CPU */
	KERN_TO_SLOTS = 1,    /* "slots": arranged by the driver per case */
};

struct kern_config {
	__u32 tgid;           /* only this process's triggers count */
	__u32 size;           /* bytes of payload to send, 0..KERN_MAX_PAYLOAD */
	__u64 flags;          /* bpf_perf_event_output()'s flags argument */
	__u32 target;         /* enum kern_target */
	__u32 unused;
	__u8 payload[KERN_MAX_PAYLOAD];
};

struct kern_result {
	__s64 ret;            /* what the helper returned last time */
	__u64 calls;          /* how many times the program called it */
	__u32 cpu;            /* the CPU it last ran on */
	__u32 unused;
};

#endif /* KERN_OUTPUT_H */
