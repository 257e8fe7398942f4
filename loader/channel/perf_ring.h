/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perf_ring.h - the record walker of a perf ring, with no system calls, so
 * that it can be tested on synthetic rings (the BPF ring buffer's is in
 * rings/rings.h).
 *
 * A perf ring (the data pages of an mmapped perf event) is a byte ring of
 * size 2^n. The kernel writes records at data_head and user space consumes
 * them from data_tail: free-running 64-bit byte counters, so a record is at
 * (counter & (size - 1)). Each record starts with a struct
 * perf_event_header whose size covers the whole record, a multiple of 8. A
 * record may wrap from the end of the ring to its start; the walker hands
 * it out as one contiguous copy. Loading data_head and storing data_tail,
 * with their memory order, is the caller's business (perfbuf.c).
 */
#ifndef BPFSDK_PERF_RING_H
#define BPFSDK_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

/* What one walk found, added to by every call. */
struct perf_ring_counts {
	uint64_t samples;        /* PERF_RECORD_SAMPLE records handed out */
	uint64_t lost;           /* sum of the counts of PERF_RECORD_LOST */
	uint64_t lost_records;   /* number of PERF_RECORD_LOST records */
	uint64_t unknown;        /* records of other types, skipped */
	uint64_t corrupt;        /* bad headers; each dropped the rest */
	uint64_t corrupt_bytes;  /* bytes dropped because of them */
	uint64_t nomem;          /* wrapped samples dropped: no memory to copy */
	uint64_t copied;         /* samples that wrapped and were copied */
};

/* For records that wrap: grows to the largest, kept until perf_scratch_free(). */
struct perf_scratch {
	void *buf;
	size_t cap;
};

void perf_scratch_free(struct perf_scratch *s);

/* One ring: its data area and the two counters. */
struct perf_ring {
	const uint8_t *data;     /* the data area (not the metadata page) */
	uint64_t size;           /* bytes; a power of two, >= 8 */
	uint64_t head;           /* data_head as loaded by the caller */
	uint64_t tail;           /* data_tail: the next record to read */
	int cpu;                 /* for messages and callbacks only */
	struct perf_scratch *scratch;   /* for wrapped records; not NULL */
	struct perf_ring_counts *counts; /* not NULL */
};

/* The record at the tail of a ring, as perf_ring_next() decodes it. */
enum perf_rec_kind {
	PERF_REC_SAMPLE = 1,     /* data/size: the raw bytes the program sent */
	PERF_REC_LOST,           /* lost: how many records the kernel dropped */
};

struct perf_rec {
	enum perf_rec_kind kind;
	const void *data;        /* PERF_REC_SAMPLE: in the ring or scratch */
	uint32_t size;           /* PERF_REC_SAMPLE: bytes at data */
	uint64_t lost;           /* PERF_REC_LOST */
	uint64_t rec_size;       /* bytes the record takes in the ring */
};

/* Decode the record at r->tail without consuming it; records of unknown types are skipped and
 * counted. 1 with *rec filled, or 0 when no complete record is left before r->head.
 *
 * A corrupt header - size 0, not a multiple of 8, larger than the ring or the data available,
 * or a sample/lost record too short for its fields - cannot be stepped over: it is counted and
 * logged, and r->tail moves to r->head, dropping all that was ready. Nothing outside [data,
 * data + size) is ever read. rec->data stays valid until the tail is stored back to the kernel,
 * or for a wrapped record, the next perf_ring_next() on a ring sharing the scratch buffer. */
int perf_ring_next(struct perf_ring *r, struct perf_rec *rec);

/* Consume the record perf_ring_next() returned: r->tail += rec->rec_size, and count it. */
static inline void perf_ring_advance(struct perf_ring *r, const struct perf_rec *rec)
{
	r->tail += rec->rec_size;
	if (rec->kind == PERF_REC_SAMPLE)
		r->counts->samples++;
	else {
		r->counts->lost += rec->lost;
		r->counts->lost_records++;
	}
}

typedef void (*perf_ring_sample_fn)(void *ctx, int cpu, const void *data, uint32_t size);
typedef void (*perf_ring_lost_fn)(void *ctx, int cpu, uint64_t count);

/* Walk from r->tail to r->head, calling on_sample for each sample and
 * on_lost (may be NULL) for each PERF_RECORD_LOST. Returns the number of
 * samples handed out. r->tail is left at the first byte not consumed. */
uint64_t perf_ring_walk(struct perf_ring *r, perf_ring_sample_fn on_sample,
			perf_ring_lost_fn on_lost, void *ctx);

#endif /* BPFSDK_PERF_RING_H */
