// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_perf_ring.c - the perf ring record walker on synthetic rings.
 *
 * A small "kernel" below writes records into a ring the way perf does
 * (header, u32 size, raw bytes padded to 8, wrapping at the end), and the
 * walker must give back exactly what was written. Rings sit between
 * PROT_NONE guard pages, so a read outside the ring crashes the test
 * instead of passing silently.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "channel/channel.h"
#include "channel/perf_ring.h"
#include "check.h"

/* ---- a ring between guard pages ---------------------------------------- */

struct test_ring {
	uint8_t *map;            /* guard + ring + guard */
	size_t map_size;
	uint8_t *data;
	uint64_t size;
	uint64_t head;           /* where the "kernel" writes next */
	uint64_t tail;           /* where the walker starts */
	struct perf_scratch scratch;
	struct perf_ring_counts counts;
};

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static void ring_init(struct test_ring *t, uint64_t size, uint64_t start)
{
	size_t pg = page_size();
	size_t span = (size + pg - 1) / pg * pg;

	memset(t, 0, sizeof(*t));
	t->map_size = span + 2 * pg;
	t->map = mmap(NULL, t->map_size, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->map == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	/* The ring ends exactly where the upper guard page starts, so one
	 * byte past the end faults even when size is smaller than a page. */
	if (mprotect(t->map + pg, span, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		exit(2);
	}
	t->data = t->map + pg + (span - size);
	t->size = size;
	t->head = t->tail = start;
	memset(t->data, 0xa5, size);   /* stale bytes, never valid records */
}

static void ring_fini(struct test_ring *t)
{
	munmap(t->map, t->map_size);
	perf_scratch_free(&t->scratch);
}

static void put(struct test_ring *t, uint64_t pos, const void *src, size_t len)
{
	uint64_t off = pos & (t->size - 1);
	size_t first = len < t->size - off ? len : (size_t)(t->size - off);

	memcpy(t->data + off, src, first);
	memcpy(t->data, (const uint8_t *)src + first, len - first);
}

static uint8_t pattern(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131u + i * 7u + (i >> 8));
}

/* Write a raw sample the way the kernel does: the u32 size includes the
 * padding that makes size + data a multiple of 8. Returns the record's
 * size in the ring. */
static uint32_t put_sample(struct test_ring *t, uint32_t seq, uint32_t len)
{
	uint32_t raw = (uint32_t)((len + 4 + 7) / 8 * 8 - 4);
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE,
		.size = (uint16_t)(8 + 4 + raw),
	};
	uint8_t *buf = malloc(raw);

	for (uint32_t i = 0; i < raw; i++)
		buf[i] = pattern(seq, i);
	/* perf_event_header.size is 16 bits: records above 64 KiB do not
	 * exist, and 65536 itself is written as 0, which must be corrupt. */
	put(t, t->head, &hdr, sizeof(hdr));
	put(t, t->head + 8, &raw, 4);
	put(t, t->head + 12, buf, raw);
	free(buf);
	t->head += 8 + 4 + raw;
	return 8 + 4 + raw;
}

static void put_lost(struct test_ring *t, uint64_t lost)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_LOST, .size = 24 };
	uint64_t id = 77;

	put(t, t->head, &hdr, 8);
	put(t, t->head + 8, &id, 8);
	put(t, t->head + 16, &lost, 8);
	t->head += 24;
}

static void put_header(struct test_ring *t, uint32_t type, uint16_t size,
		       uint64_t advance)
{
	struct perf_event_header hdr = { .type = type, .size = size };

	put(t, t->head, &hdr, 8);
	t->head += advance;
}

/* ---- what the walker hands out ----------------------------------------- */

struct got {
	char kind;               /* 's' sample, 'l' lost */
	uint32_t size;
	uint64_t lost;
	int bad_byte;            /* index of first byte off the pattern, -1 */
	const void *ptr;
	uint32_t seq;            /* first byte's seq, decoded by the caller */
};

struct sink {
	struct got got[64];
	int n;
	int overflow;
	uint32_t next_seq;       /* expected pattern of the next sample */
	uint64_t mismatches;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sink *s = ctx;
	const uint8_t *p = data;
	int bad = -1;

	(void)cpu;
	for (uint32_t i = 0; i < size; i++) {
		if (p[i] != pattern(s->next_seq, i)) {
			bad = (int)i;
			break;
		}
	}
	if (bad >= 0)
		s->mismatches++;
	if (s->n < (int)(sizeof(s->got) / sizeof(s->got[0]))) {
		s->got[s->n++] = (struct got){ 's', size, 0, bad, data,
					       s->next_seq };
	} else {
		s->overflow++;
	}
	s->next_seq++;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	struct sink *s = ctx;

	(void)cpu;
	if (s->n < (int)(sizeof(s->got) / sizeof(s->got[0])))
		s->got[s->n++] = (struct got){ 'l', 0, count, -1, NULL, 0 };
	else
		s->overflow++;
}

static uint64_t walk(struct test_ring *t, struct sink *s)
{
	struct perf_ring r = {
		.data = t->data, .size = t->size, .head = t->head,
		.tail = t->tail, .cpu = 3, .scratch = &t->scratch,
		.counts = &t->counts,
	};
	uint64_t n = perf_ring_walk(&r, on_sample, on_lost, s);

	t->tail = r.tail;
	return n;
}

/* ---- the tests ---------------------------------------------------------- */

static void test_empty(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	ring_init(&t, 4096, 123456 * 8);
	check_u64(walk(&t, &s), 0, "empty ring: no records");
	check_u64(t.tail, t.head, "empty ring: tail unchanged");
	ring_fini(&t);
}

static void test_plain(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	ring_init(&t, 4096, 0);
	put_sample(&t, 0, 16);
	put_sample(&t, 1, 1);
	put_sample(&t, 2, 101);
	check_u64(walk(&t, &s), 3, "three samples: all handed out");
	check_u64(t.counts.samples, 3, "three samples: counted");
	check_u64(t.tail, t.head, "three samples: tail reaches head");
	check_u64(s.got[0].size, 20, "16 bytes arrive as size 20 (kernel padding)");
	check_u64(s.got[1].size, 4, "1 byte arrives as size 4");
	check_u64(s.got[2].size, 108, "101 bytes arrive as size 108");
	check_u64(s.mismatches, 0, "three samples: contents match");
	check_u64(t.counts.copied, 0, "three samples: nothing copied");
	check(s.got[0].ptr == t.data + 12, "unwrapped sample is read in place (zero copy)");
	ring_fini(&t);
}

static void test_wrapped_payload(void)
{
	struct test_ring t;
	struct sink s = { 0 };
	uint64_t second;

	/* The header and size fit before the end, the payload does not. */
	ring_init(&t, 4096, 1000 * 4096 + 4096 - 32);
	put_sample(&t, 0, 200);
	second = t.head;
	put_sample(&t, 1, 8);
	check_u64(walk(&t, &s), 2, "wrapped payload: both samples");
	check_u64(s.mismatches, 0, "wrapped payload: contents match");
	check_u64(t.counts.copied, 1, "wrapped payload: exactly one copy");
	check(s.got[0].ptr == t.scratch.buf, "wrapped payload: handed out from the scratch buffer");
	check(s.got[1].ptr == t.data + (second + 12) % 4096, "next sample read in place again");
	ring_fini(&t);
}

static void test_header_at_end(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	/* The header is the last 8 bytes; size and payload start the ring. */
	ring_init(&t, 4096, 4096 - 8);
	put_sample(&t, 0, 60);
	check_u64(walk(&t, &s), 1, "header in the last 8 bytes: sample seen");
	check_u64(s.mismatches, 0, "header in the last 8 bytes: contents match");
	check(s.got[0].ptr == t.data + 4, "header in the last 8 bytes: payload read in place");
	ring_fini(&t);
}

static void test_wrapped_header(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	/* A tail that is not 8-aligned puts the header itself across the
	 * end. The kernel never does this, but the walker must not care. */
	for (uint64_t split = 1; split < 8; split++) {
		ring_init(&t, 4096, 4096 - split);
		memset(&s, 0, sizeof(s));
		put_sample(&t, 0, 44);
		put_sample(&t, 1, 4);
		check_u64(walk(&t, &s), 2, "header split %llu/%llu across the end: both samples",
			  (unsigned long long)split, (unsigned long long)(8 - split));
		check_u64(s.mismatches, 0, "header split %llu/%llu: contents match",
			  (unsigned long long)split, (unsigned long long)(8 - split));
		ring_fini(&t);
	}
	/* The u32 size field straddling the end. */
	ring_init(&t, 4096, 4096 - 10);
	memset(&s, 0, sizeof(s));
	put_sample(&t, 0, 28);
	check_u64(walk(&t, &s), 1, "size field split across the end: sample seen");
	check_u64(s.mismatches, 0, "size field split: contents match");
	ring_fini(&t);
}

static void test_large_records(void)
{
	struct test_ring t;
	struct sink s = { 0 };
	size_t cap_after_first;

	ring_init(&t, 65536, 65536 - 1024);
	put_sample(&t, 0, 10000);
	put_sample(&t, 1, 5000);
	check_u64(walk(&t, &s), 2, "10000- and 5000-byte samples, the first wrapping");
	check_u64(s.mismatches, 0, "records larger than 4 KiB: contents match");
	check_u64(s.got[0].size, 10004, "10000 bytes arrive as size 10004");
	cap_after_first = t.scratch.cap;
	check(cap_after_first >= 10004, "scratch grew to hold the wrapped record (cap %zu)",
	      cap_after_first);

	/* A larger wrapped record grows the same buffer again. */
	memset(&s, 0, sizeof(s));
	t.head = t.tail = 5 * 65536 - 100;
	put_sample(&t, 0, 40000);
	check_u64(walk(&t, &s), 1, "40000-byte sample wrapping");
	check_u64(s.mismatches, 0, "40000-byte sample: contents match");
	check(t.scratch.cap >= 40004, "scratch grew again (cap %zu)", t.scratch.cap);
	ring_fini(&t);
}

/* Every record size the header can express, 8 bytes at a time, at a
 * position that is in place, one where the payload wraps right after the
 * size field, and one in the middle of the payload. */
static void test_every_size(void)
{
	static const char *const where[] = {
		"in place", "wrapping after the size field", "wrapping mid-payload",
	};
	uint64_t ring = 65536;

	for (int w = 0; w < 3; w++) {
		struct test_ring t;
		uint64_t bad = 0, first_bad = 0, checked = 0;

		ring_init(&t, ring, 0);
		for (uint32_t rec = 16; rec <= 65528; rec += 8) {
			struct sink s = { 0 };
			uint64_t start;

			if (w == 0)
				start = 0;
			else if (w == 1)
				start = ring - 16;
			else
				start = ring - (rec / 2 / 8 * 8);
			t.head = t.tail = 7 * ring + start;
			put_sample(&t, rec, rec - 12);
			s.next_seq = rec;
			if (walk(&t, &s) != 1 || s.mismatches ||
			    s.got[0].size != rec - 12 || t.tail != t.head) {
				if (!bad++)
					first_bad = rec;
			}
			checked++;
		}
		if (!check_u64(bad, 0, "every sample record size 16..65528 %s (%llu sizes)",
			       where[w], (unsigned long long)checked))
			check_diag("  first failing record size: %llu",
				   (unsigned long long)first_bad);
		ring_fini(&t);
	}

	/* Size 8: a header alone. Not a valid sample, but a valid record of
	 * another type, skipped. */
	{
		struct test_ring t;
		struct sink s = { 0 };

		ring_init(&t, 4096, 4096 - 8);
		put_header(&t, 42, 8, 8);
		put_sample(&t, 0, 8);
		check_u64(walk(&t, &s), 1, "an 8-byte record is skipped, the next sample seen");
		check_u64(t.counts.unknown, 1, "the 8-byte record counted as unknown");
		ring_fini(&t);
	}

	/* A record exactly the size of the ring, wrapping. */
	{
		struct test_ring t;
		struct sink s = { 0 };

		ring_init(&t, 32768, 32768 - 64);
		put_sample(&t, 9, 32768 - 12);
		s.next_seq = 9;
		check_u64(walk(&t, &s), 1, "a record as large as the ring (32 KiB)");
		check_u64(s.mismatches, 0, "the ring-sized record: contents match");
		ring_fini(&t);
	}
}

static void test_lost_in_middle(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	ring_init(&t, 4096, 4096 - 40);
	put_sample(&t, 0, 16);
	put_lost(&t, 5);               /* wraps: 16 bytes before the end */
	put_sample(&t, 1, 16);
	put_lost(&t, 1000000);
	check_u64(walk(&t, &s), 2, "LOST in the middle: two samples");
	check_u64(s.n, 4, "LOST in the middle: four callbacks");
	check(s.got[0].kind == 's' && s.got[1].kind == 'l' &&
	      s.got[2].kind == 's' && s.got[3].kind == 'l',
	      "LOST in the middle: callbacks in ring order (sample, lost, sample, lost)");
	check_u64(s.got[1].lost, 5, "first LOST count");
	check_u64(s.got[3].lost, 1000000, "second LOST count");
	check_u64(t.counts.lost, 1000005, "LOST counts summed");
	check_u64(t.counts.lost_records, 2, "LOST records counted");
	check_u64(s.mismatches, 0, "samples around LOST: contents match");
	ring_fini(&t);
}

static void test_unknown_type(void)
{
	struct test_ring t;
	struct sink s = { 0 };

	ring_init(&t, 4096, 2048);
	put_sample(&t, 0, 16);
	put_header(&t, PERF_RECORD_THROTTLE, 48, 48);
	put_header(&t, 0x7fff, 3968, 3968);    /* payload wraps, never read */
	put_sample(&t, 1, 16);
	check_u64(walk(&t, &s), 2, "unknown types: the samples around them");
	check_u64(t.counts.unknown, 2, "unknown types: skipped and counted");
	check_u64(t.counts.corrupt, 0, "unknown types: not corrupt");
	check_u64(t.tail, t.head, "unknown types: tail reaches head");
	check_u64(s.mismatches, 0, "unknown types: samples intact");
	ring_fini(&t);
}

/* A corrupt header: the samples before it are delivered, then the walker
 * drops all that is ready and stops - no loop, no read outside the ring. */
static void corrupt_case(const char *name, void (*damage)(struct test_ring *))
{
	struct test_ring t;
	struct sink s = { 0 };
	uint64_t n;

	ring_init(&t, 4096, 4096 - 24);
	put_sample(&t, 0, 16);
	damage(&t);
	put_sample(&t, 1, 16);   /* after the damage: lost in the resync */
	n = walk(&t, &s);
	check_u64(n, 1, "%s: the sample before it delivered", name);
	check_u64(t.counts.corrupt, 1, "%s: counted as corrupt", name);
	check_u64(t.tail, t.head, "%s: resynced to data_head", name);
	check_u64(s.mismatches, 0, "%s: delivered sample intact", name);
	/* Walking again finds nothing: the state is sane after a resync. */
	check_u64(walk(&t, &s), 0, "%s: nothing left after resync", name);
	ring_fini(&t);
}

static void dmg_size0(struct test_ring *t) { put_header(t, PERF_RECORD_SAMPLE, 0, 16); }
static void dmg_unaligned(struct test_ring *t) { put_header(t, PERF_RECORD_SAMPLE, 20, 24); }
static void dmg_past_head(struct test_ring *t) { put_header(t, PERF_RECORD_SAMPLE, 4000, 16); }
static void dmg_past_ring(struct test_ring *t) { put_header(t, 99, 8192, 16); }
static void dmg_short_sample(struct test_ring *t) { put_header(t, PERF_RECORD_SAMPLE, 8, 8); }
static void dmg_short_lost(struct test_ring *t) { put_header(t, PERF_RECORD_LOST, 16, 16); }

static void dmg_raw_too_big(struct test_ring *t)
{
	uint32_t raw = 13;

	put_header(t, PERF_RECORD_SAMPLE, 24, 0);
	put(t, t->head + 8, &raw, 4);
	t->head += 24;
}

static void test_corrupt(void)
{
	corrupt_case("header size 0", dmg_size0);
	corrupt_case("header size not a multiple of 8", dmg_unaligned);
	corrupt_case("record ending past data_head", dmg_past_head);
	corrupt_case("record larger than the ring", dmg_past_ring);
	corrupt_case("sample too short for its size field", dmg_short_sample);
	corrupt_case("LOST record too short", dmg_short_lost);
	corrupt_case("raw size running past the record", dmg_raw_too_big);

	/* Counters that make no sense: head behind tail, head too far. */
	{
		struct test_ring t;
		struct sink s = { 0 };

		ring_init(&t, 4096, 8192);
		t.head = t.tail - 8;
		check_u64(walk(&t, &s), 0, "data_head behind data_tail: nothing delivered");
		check_u64(t.tail, t.head, "data_head behind data_tail: resynced");
		check_u64(t.counts.corrupt, 1, "data_head behind data_tail: counted");
		t.head = t.tail + 4096 + 8;
		check_u64(walk(&t, &s), 0, "data_head a ring and more ahead: nothing delivered");
		check_u64(t.counts.corrupt, 2, "data_head a ring and more ahead: counted");
		t.head = t.tail + 4;
		walk(&t, &s);
		check_u64(t.counts.corrupt, 3, "4 bytes ready (half a header): counted");
		ring_fini(&t);
	}
}

/* Random bytes and random counters: the walk must end and stay inside the
 * ring (the guard pages catch it otherwise). */
static void test_garbage(void)
{
	struct test_ring t;
	uint64_t rounds = 20000, ended = 0, outside = 0, overlap = 0, again = 0, resyncs = 0;
	uint64_t delivered = 0;

	srand(12345);
	ring_init(&t, 1024, 0);
	for (uint64_t i = 0; i < rounds; i++) {
		struct sink s = { 0 };
		uint64_t tail0, bytes = 0, corrupt0 = t.counts.corrupt;

		for (uint64_t b = 0; b < t.size; b++)
			t.data[b] = (uint8_t)rand();
		/* Now and then make headers plausible so walks go deep. */
		if (i & 1) {
			for (uint64_t b = 0; b < t.size; b += 8) {
				/* type 0..11 (9 is a sample, 2 lost), misc 0, size 8..128;
				 * the word after a header, a sample's size, is then small */
				uint16_t size = (uint16_t)(8 * (1 + rand() % 16));

				memset(t.data + b, 0, 8);
				t.data[b] = (uint8_t)(rand() % 12);
				memcpy(t.data + b + 6, &size, 2);
			}
		}
		t.tail = tail0 = (uint64_t)rand() * 8;
		t.head = t.tail + (uint64_t)(rand() % 1100);
		walk(&t, &s);
		ended += t.tail == t.head;
		/* What was handed out lies in the ring or the scratch copy, and
		 * the samples (12 bytes of header and size each) fit in what the
		 * head made ready: nothing read twice, nothing from outside. */
		for (int k = 0; k < s.n; k++) {
			const uint8_t *p = s.got[k].ptr;
			uint32_t n = s.got[k].size;

			if (s.got[k].kind != 's')
				continue;
			bytes += 12 + (uint64_t)n;
			if (!((p >= t.data && p + n <= t.data + t.size) ||
			      (t.scratch.buf && p >= (const uint8_t *)t.scratch.buf &&
			       p + n <= (const uint8_t *)t.scratch.buf + t.scratch.cap)))
				outside++;
		}
		delivered += (uint64_t)s.n;
		overlap += bytes > t.head - tail0;
		/* a walk stops at the first corrupt header, and the next finds nothing */
		resyncs += t.counts.corrupt - corrupt0 > 1;
		again += walk(&t, &s) != 0;
	}
	check_u64(ended, rounds, "random rings: every walk ends at data_head");
	check_u64(outside, 0, "random rings: every sample lies in the ring or the scratch copy");
	check_u64(overlap, 0, "random rings: the samples fit in the bytes data_head made ready");
	check_u64(resyncs, 0, "random rings: at most one corrupt header counted per walk");
	check_u64(again, 0, "random rings: a second walk with the same data_head finds nothing");
	check(delivered > rounds / 4, "random rings: the walks went deep (%llu records handed out)",
	      (unsigned long long)delivered);
	ring_fini(&t);
}

/* Log messages from the walker would clutter the TAP stream; count them. */
static int warnings;

static void quiet_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
	if (level <= BSDK_LOG_WARN)
		warnings++;
}

int main(void)
{
	bsdk_set_log(quiet_log, NULL);

	test_empty();
	test_plain();
	test_wrapped_payload();
	test_header_at_end();
	test_wrapped_header();
	test_large_records();
	test_every_size();
	test_lost_in_middle();
	test_unknown_type();

	warnings = 0;
	test_corrupt();
	/* seven damaged headers and three impossible counters: one warning each */
	check_i64(warnings, 10, "every corrupt header was logged as a warning, once");
	test_garbage();
	return check_done();
}
