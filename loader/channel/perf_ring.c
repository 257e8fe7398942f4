// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_ring.c - walk the records of one perf ring between data_tail and
 * data_head. See perf_ring.h for the format; perfbuf.c does the system
 * calls and the memory ordering around it.
 */
#include "channel/channel.h"
#include "channel/perf_ring.h"

/* The fixed part of the two record types the walker decodes. A sample carries only
 * PERF_SAMPLE_RAW (the only sample_type perfbuf.c asks for): a u32 size, then that many bytes. */
#define SAMPLE_RAW_OFF  (sizeof(struct perf_event_header) + sizeof(uint32_t))
#define LOST_MIN_SIZE   (sizeof(struct perf_event_header) + 2 * sizeof(uint64_t))

void perf_scratch_free(struct perf_scratch *s)
{
	free(s->buf);
	s->buf = NULL;
	s->cap = 0;
}

/* Make room for need bytes; false when memory is short. Grows by doubling
 * so a stream of growing records reallocates O(log n) times. */
static int scratch_reserve(struct perf_scratch *s, size_t need)
{
	size_t cap = s->cap ? s->cap : 256;
	void *buf;

	if (need <= s->cap)
		return 1;
	while (cap < need)
		cap *= 2;
	buf = realloc(s->buf, cap);
	if (!buf)
		return 0;
	s->buf = buf;
	s->cap = cap;
	return 1;
}

/* Copy len bytes starting at counter position pos, wrapping at the end of
 * the ring. len <= r->size is the caller's promise. */
static void ring_copy(const struct perf_ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & (r->size - 1);
	uint64_t first = r->size - off;

	if (len <= first) {
		memcpy(dst, r->data + off, len);
	} else {
		memcpy(dst, r->data + off, first);
		memcpy((uint8_t *)dst + first, r->data, len - first);
	}
}

/* Drop everything that is ready: after a bad header there is no way to find
 * where the next record starts. Returns 0, what perf_ring_next() returns. */
static int resync(struct perf_ring *r, uint64_t rec_size, uint32_t type, const char *why)
{
	uint64_t dropped = r->head - r->tail;

	log_warn("perf ring of cpu %d: corrupt record at offset %llu (type %u, size %llu): %s; dropping the %llu bytes ready",
		 r->cpu, (unsigned long long)(r->tail & (r->size - 1)), type,
		 (unsigned long long)rec_size, why,
		 (unsigned long long)dropped);
	r->counts->corrupt++;
	r->counts->corrupt_bytes += dropped;
	r->tail = r->head;
	return 0;
}

/* The common case: a sample that lies whole before the end of the ring, at tail. Its size in
 * the ring, with *raw its raw size; 0 for anything else, which perf_ring_next() sorts out. The
 * checks are those of perf_ring_next() below, so both accept the same records. Everything
 * comes in as values, so that a record costs a few loads. */
static inline uint32_t whole_sample(const uint8_t *data, uint64_t size, uint64_t head,
				    uint64_t tail, uint32_t *raw)
{
	uint64_t off = tail & (size - 1);
	struct perf_event_header hdr;

	if (head - tail < SAMPLE_RAW_OFF || head - tail > size || size - off < 16)
		return 0;
	memcpy(&hdr, data + off, sizeof(hdr));
	if (hdr.type != PERF_RECORD_SAMPLE || hdr.size < SAMPLE_RAW_OFF || hdr.size % 8 ||
	    hdr.size > head - tail || hdr.size > size - off)
		return 0;
	memcpy(raw, data + off + sizeof(hdr), sizeof(*raw));
	return *raw > hdr.size - SAMPLE_RAW_OFF ? 0 : hdr.size;
}

/* perf_ring_next() in the common case; 0 when it is not that. */
static int next_whole(const struct perf_ring *r, struct perf_rec *rec)
{
	uint32_t raw;

	rec->rec_size = whole_sample(r->data, r->size, r->head, r->tail, &raw);
	if (!rec->rec_size)
		return 0;
	rec->kind = PERF_REC_SAMPLE;
	rec->size = raw;
	rec->data = r->data + (r->tail & (r->size - 1)) + SAMPLE_RAW_OFF;
	return 1;
}

int perf_ring_next(struct perf_ring *r, struct perf_rec *rec)
{
	struct perf_event_header hdr;
	uint64_t avail, off;
	uint32_t raw_size;

	if (next_whole(r, rec))
		return 1;
	for (;;) {
		avail = r->head - r->tail;
		if (avail == 0)
			return 0;
		/* The kernel advances data_head only past whole records, so a partial header or
		 * more data than the ring holds means the counters themselves are bad. */
		if (avail < sizeof(hdr) || avail > r->size)
			return resync(r, avail, 0, avail < sizeof(hdr) ?
				      "less than a header before data_head" :
				      "data_head is more than the ring size ahead of data_tail");

		ring_copy(r, r->tail, &hdr, sizeof(hdr));
		if (hdr.size == 0 || hdr.size % 8)
			return resync(r, hdr.size, hdr.type,
				      hdr.size ? "size is not a multiple of 8" : "size is 0");
		if (hdr.size > avail)
			return resync(r, hdr.size, hdr.type, "record ends past data_head");

		switch (hdr.type) {
		case PERF_RECORD_SAMPLE:
			if (hdr.size < SAMPLE_RAW_OFF)
				return resync(r, hdr.size, hdr.type, "too short for a raw sample");
			ring_copy(r, r->tail + sizeof(hdr), &raw_size, sizeof(raw_size));
			if (raw_size > hdr.size - SAMPLE_RAW_OFF)
				return resync(r, hdr.size, hdr.type,
					      "raw size runs past the record");
			rec->kind = PERF_REC_SAMPLE;
			rec->size = raw_size;
			rec->rec_size = hdr.size;
			off = (r->tail + SAMPLE_RAW_OFF) & (r->size - 1);
			if (off + raw_size <= r->size) {
				/* The common case: no copy at all. */
				rec->data = r->data + off;
				return 1;
			}
			/* The payload wraps: hand out one contiguous copy. */
			if (!scratch_reserve(r->scratch, raw_size)) {
				log_warn("perf ring of cpu %d: out of memory copying a wrapped record of %u bytes; record dropped", r->cpu, raw_size);
				r->counts->nomem++;
				r->tail += hdr.size;
				continue;
			}
			ring_copy(r, r->tail + SAMPLE_RAW_OFF, r->scratch->buf, raw_size);
			r->counts->copied++;
			rec->data = r->scratch->buf;
			return 1;

		case PERF_RECORD_LOST: {
			uint64_t id_lost[2];

			if (hdr.size < LOST_MIN_SIZE)
				return resync(r, hdr.size, hdr.type, "too short for a lost record");
			ring_copy(r, r->tail + sizeof(hdr), id_lost, sizeof(id_lost));
			rec->kind = PERF_REC_LOST;
			rec->data = NULL;
			rec->size = 0;
			rec->lost = id_lost[1];
			rec->rec_size = hdr.size;
			return 1;
		}

		default:
			/* Well-formed but not ours (a future record type, or one a changed attr
			 * enables): its size says where the next one starts. */
			log_debug("perf ring of cpu %d: skipping record type %u (%u bytes)", r->cpu, hdr.type, hdr.size);
			r->counts->unknown++;
			r->tail += hdr.size;
			continue;
		}
	}
}

uint64_t perf_ring_walk(struct perf_ring *r, perf_ring_sample_fn on_sample,
			perf_ring_lost_fn on_lost, void *ctx)
{
	const uint8_t *data = r->data;
	const uint64_t size = r->size, mask = size - 1, head = r->head;
	uint64_t tail = r->tail, fast = 0, n = 0;
	struct perf_rec rec;
	uint32_t rec_size, raw;

	for (;;) {
		/* The fast path, taken for nearly every record, in locals; anything else goes to
		 * perf_ring_next(), which knows every case. */
		while ((rec_size = whole_sample(data, size, head, tail, &raw))) {
			if (on_sample)
				on_sample(ctx, r->cpu, data + (tail & mask) + SAMPLE_RAW_OFF, raw);
			tail += rec_size;
			fast++;
		}
		r->tail = tail;

		if (!perf_ring_next(r, &rec))
			break;
		if (rec.kind == PERF_REC_SAMPLE) {
			if (on_sample)
				on_sample(ctx, r->cpu, rec.data, rec.size);
			n++;
		} else if (on_lost) {
			on_lost(ctx, r->cpu, rec.lost);
		}
		perf_ring_advance(r, &rec);
		tail = r->tail;
	}
	r->counts->samples += fast;
	return n + fast;
}
