// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_perf_ringbuf.c - the BPF ring buffer walker on synthetic rings.
 *
 * The kernel maps a BPF ring buffer's data twice in a row so records that
 * wrap look contiguous; the synthetic ring below does the same by writing
 * every byte at offset and at offset + size.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "rings/rings.h"
#include "channel/perf_ring.h"
#include "check.h"

#define RING 4096

struct syn {
	uint8_t mem[2 * RING];
	uint64_t prod;
};

static void put(struct syn *s, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t off = (pos + i) & (RING - 1);

		s->mem[off] = s->mem[off + RING] = ((const uint8_t *)src)[i];
	}
}

/* Reserve and (unless busy) commit a record of len bytes filled with
 * byte; flags are BPF_RINGBUF_BUSY_BIT / BPF_RINGBUF_DISCARD_BIT. */
static uint64_t put_rec(struct syn *s, uint32_t len, uint8_t byte,
			uint32_t flags)
{
	uint32_t hdr[2] = { len | flags, 0 };
	uint64_t at = s->prod;
	uint8_t *buf = malloc(len ? len : 1);

	memset(buf, byte, len);
	put(s, at, hdr, sizeof(hdr));
	put(s, at + 8, buf, len);
	free(buf);
	s->prod += (len + 8 + 7) / 8 * 8;
	return at;
}

struct sink {
	int n;
	uint32_t sizes[16];
	uint8_t first[16];
	int cpu;
	int bad;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sink *k = ctx;
	const uint8_t *p = data;

	for (uint32_t i = 1; i < size; i++)
		if (p[i] != p[0])
			k->bad++;
	k->cpu = cpu;
	if (k->n < 16) {
		k->sizes[k->n] = size;
		k->first[k->n] = size ? p[0] : 0;
	}
	k->n++;
}

/* on_record: counts, stops at record stop_at (1-based) with -42, and watches *seen (the
 * published consumer_pos) change: every value must be the start of a record already read,
 * never of the one being handed out or a later one. */
static struct {
	int n, stop_at;
	uint64_t *seen, last, publications;
	int bad_pos;
} stopper;

static uint64_t cons_page;

static int on_record(void *ctx, const void *data, uint32_t size)
{
	(void)ctx;
	(void)data;
	stopper.n++;
	if (stopper.seen && *stopper.seen != stopper.last) {
		stopper.last = *stopper.seen;
		stopper.publications++;
		/* Records here all have one size: a start is a multiple of it. */
		uint64_t rec = (size + 8 + 7) / 8 * 8;

		if (stopper.last % rec || stopper.last / rec >= (uint64_t)stopper.n - 1)
			stopper.bad_pos++;
	}
	return stopper.n == stopper.stop_at ? -42 : 0;
}

static struct bpf_ring ring_of(struct syn *s, uint64_t cons)
{
	struct bpf_ring r = {
		.data = s->mem, .size = RING, .prod = s->prod, .cons = cons,
	};
	return r;
}

static int warnings;

static void count_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
	if (level <= BSDK_LOG_WARN)
		warnings++;
}

int main(void)
{
	static struct syn s;
	struct bpf_ring r;
	struct sink k;

	bsdk_set_log(count_log, NULL);

	/* Plain records, one discarded in between. */
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	put_rec(&s, 16, 0x11, 0);
	put_rec(&s, 5, 0x22, BPF_RINGBUF_DISCARD_BIT);
	put_rec(&s, 100, 0x33, 0);
	r = ring_of(&s, 0);
	check_u64(bpf_ring_walk(&r, on_sample, &k), 2, "two committed records, one discarded");
	check_u64(r.discarded, 1, "the discarded record counted");
	check_u64(r.cons, s.prod, "consumer reaches the producer");
	check_u64(k.sizes[0], 16, "first record: exact length (no padding reported)");
	check_u64(k.sizes[1], 100, "second record: exact length");
	check_u64(k.first[1], 0x33, "second record: its own bytes");
	check_i64(k.cpu, -1, "ring buffer records carry cpu -1");
	check_i64(k.bad, 0, "record contents intact");

	/* A record that wraps, read through the double mapping. */
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	s.prod = 10 * RING + RING - 24;
	put_rec(&s, 300, 0x44, 0);
	r = ring_of(&s, 10 * RING + RING - 24);
	check_u64(bpf_ring_walk(&r, on_sample, &k), 1, "wrapping record handed out");
	check_i64(k.bad, 0, "wrapping record contiguous and intact");

	/* A BUSY record stops the walk, even with committed ones after. */
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	put_rec(&s, 8, 0x55, 0);
	put_rec(&s, 8, 0x66, BPF_RINGBUF_BUSY_BIT);
	put_rec(&s, 8, 0x77, 0);
	r = ring_of(&s, 0);
	check_u64(bpf_ring_walk(&r, on_sample, &k), 1, "walk stops at a BUSY record");
	check_u64(r.cons, 16, "consumer left at the BUSY record");
	/* Commit it: the walk resumes where it stopped. */
	{
		uint32_t len = 8;

		put(&s, 16, &len, 4);
	}
	check_u64(bpf_ring_walk(&r, on_sample, &k), 2, "after commit: the rest");
	check_u64(r.cons, s.prod, "after commit: consumer reaches the producer");

	/* Impossible lengths: counted, resynced, no read outside. */
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	put_rec(&s, 8, 0x12, 0);
	{
		uint32_t hdr[2] = { RING, 0 };   /* larger than the ring */

		put(&s, s.prod, hdr, 8);
		s.prod += 16;
	}
	r = ring_of(&s, 0);
	check_u64(bpf_ring_walk(&r, on_sample, &k), 1, "record before a corrupt length delivered");
	check_u64(r.corrupt, 1, "length larger than the ring: corrupt");
	check_u64(r.cons, s.prod, "corrupt length: resynced to the producer");

	memset(&s, 0, sizeof(s));
	{
		uint32_t hdr[2] = { 64, 0 };     /* runs past producer_pos */

		put(&s, 0, hdr, 8);
		s.prod = 16;
	}
	r = ring_of(&s, 0);
	check_u64(bpf_ring_walk(&r, on_sample, &k), 0, "record running past producer_pos not delivered");
	check_u64(r.corrupt, 1, "record running past producer_pos: corrupt");

	check_i64(warnings, 2, "each corrupt length logged once");

	/* A callback that stops the walk: the record is consumed, the rest left. */
	memset(&s, 0, sizeof(s));
	memset(&stopper, 0, sizeof(stopper));
	for (int i = 0; i < 5; i++)
		put_rec(&s, 8, (uint8_t)(0x10 + i), 0);
	r = ring_of(&s, 0);
	r.on_record = on_record;
	stopper.stop_at = 3;
	check_u64(bpf_ring_walk(&r, NULL, &stopper), 3, "walk stopped after the third record");
	check_i64(r.stop, -42, "the callback's value kept");
	check_u64(r.cons, 3 * 16, "the stopping record is consumed, the rest is not");
	stopper.stop_at = 0;
	check_u64(bpf_ring_walk(&r, NULL, &stopper), 2, "the next walk takes the rest");
	check_i64(r.stop, 0, "no stop this time");
	check_u64(stopper.n, 5, "every record once");

	/* Progress is published mid-walk, one record short, every BPF_RING_PUBLISH_EVERY records. */
	memset(&s, 0, sizeof(s));
	memset(&stopper, 0, sizeof(stopper));
	for (int i = 0; i < 100; i++)
		put_rec(&s, 16, (uint8_t)i, 0);
	r = ring_of(&s, 0);
	r.on_record = on_record;
	r.consumer_pos = &cons_page;
	cons_page = 0;
	stopper.seen = &cons_page;
	check_u64(bpf_ring_walk(&r, NULL, &stopper), 100, "100 records");
	check_u64(stopper.publications, 100 / BPF_RING_PUBLISH_EVERY, "published every %d records", BPF_RING_PUBLISH_EVERY);
	check_u64(cons_page, 95 * 24, "last mid-walk publication: the start of the 96th record");
	check_u64(r.last, 99 * 24, "last: the start of the last record");
	check_u64(r.published, cons_page, "published tracks what was stored");
	check_i64(stopper.bad_pos, 0, "every publication the start of a record already read");
	return check_done();
}
