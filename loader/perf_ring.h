/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perf_ring.h - the record walker of a perf ring, with no system calls in
 * it, so that it can be tested on synthetic rings.
 *
 * A perf ring (the data pages of an mmapped perf event) is a byte ring of
 * size 2^n. The kernel writes records at data_head and user space consumes
 * them from data_tail; both are free-running 64-bit byte counters, so the
 * position of a record in the ring is (counter & (size - 1)). Each record
 * starts with a struct perf_event_header whose size covers the whole record
 * and is a multiple of 8. A record may wrap from the end of the ring to its
 * start; the walker hands such a record out as one contiguous copy.
 *
 * Who loads data_head and who stores data_tail, with which memory order, is
 * the caller's business (perfbuf.c): the walker only moves between the two
 * numbers it is given.
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

/* A reusable buffer for records that wrap. It grows to the largest wrapped
 * record seen and is kept until perf_scratch_free(). */
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

/* Decode the record at r->tail without consuming it. Records of unknown
 * types are skipped (r->tail moves past them) and counted. Returns 1 with
 * *rec filled, or 0 when no complete record is left before r->head.
 *
 * A corrupt header - size 0, not a multiple of 8, larger than the ring or
 * than the data available, or a sample/lost record too short for its own
 * fields - can not be stepped over safely: the walker counts it, logs it,
 * and resynchronises by moving r->tail to r->head, dropping everything that
 * was ready. It never reads outside [data, data + size).
 *
 * rec->data stays valid until the tail is stored back to the kernel (for a
 * record in the ring) or until the next perf_ring_next() on a ring sharing
 * the same scratch buffer (for a wrapped record). */
int perf_ring_next(struct perf_ring *r, struct perf_rec *rec);

/* Consume the record perf_ring_next() returned: r->tail += rec->rec_size,
 * and count it. */
static inline void perf_ring_advance(struct perf_ring *r,
				     const struct perf_rec *rec)
{
	r->tail += rec->rec_size;
	if (rec->kind == PERF_REC_SAMPLE)
		r->counts->samples++;
	else {
		r->counts->lost += rec->lost;
		r->counts->lost_records++;
	}
}

typedef void (*perf_ring_sample_fn)(void *ctx, int cpu, const void *data,
				    uint32_t size);
typedef void (*perf_ring_lost_fn)(void *ctx, int cpu, uint64_t count);

/* Walk from r->tail to r->head, calling on_sample for each sample and
 * on_lost (may be NULL) for each PERF_RECORD_LOST. Returns the number of
 * samples handed out. r->tail is left at the first byte not consumed. */
uint64_t perf_ring_walk(struct perf_ring *r, perf_ring_sample_fn on_sample,
			perf_ring_lost_fn on_lost, void *ctx);

/* ---- the BPF ring buffer (BPF_MAP_TYPE_RINGBUF) ----------------------
 *
 * One ring for all CPUs. Each record starts with an 8-byte header: a u32
 * length whose top bits say the record is still being written (BUSY) or
 * was thrown away by its producer (DISCARD), and a u32 the kernel uses to
 * find its page. The record takes round_up(8 + length, 8) bytes. The
 * kernel maps the data area twice in a row, so a record that wraps is
 * still contiguous in user space: no copy is ever needed.
 */
struct bpf_ring {
	const uint8_t *data;     /* the data area (mapped twice: 2 * size) */
	uint64_t size;           /* bytes, a power of two */
	uint64_t prod;           /* producer_pos as loaded by the caller */
	uint64_t cons;           /* consumer_pos: the next record */
	uint64_t received;       /* counters, added to */
	uint64_t discarded;
	uint64_t corrupt;
};

/* Hand every committed record between cons and prod to on_sample (with cpu
 * -1), stopping at the first record still BUSY. A length that cannot be
 * right (the record would run past prod or be larger than the ring) is
 * counted as corrupt and skips to prod. Returns the number handed out; the
 * BUSY bit must be read with acquire order, which this function does. */
uint64_t bpf_ring_walk(struct bpf_ring *r, perf_ring_sample_fn on_sample,
		       void *ctx);

#endif /* BPFSDK_PERF_RING_H */
