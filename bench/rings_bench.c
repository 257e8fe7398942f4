// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * rings_bench - what the consumers cost at many CPUs, with no kernel: the perf buffer over
 * 1, 8, 64 and 256 perf rings laid out in memory as the kernel maps them (a metadata page,
 * then the data pages), and the ring buffer consumer over one BPF ring buffer in memory (its
 * data area mapped twice, as the kernel does). This program plays the kernel: it writes the
 * records and the producer's position; the library reads them with the code that reads the
 * kernel's rings (perfbuf_new_mem() and ringbuf_new_mem() of loader/rings/rings.h, then
 * bsdk_perfbuf_consume() and bsdk_ringbuf_consume()).
 *
 * For each ring count, in each round (the ring counts alternate within a round, so that drifts
 * of a shared machine hit them all alike): drains in CPU order and drains merged by
 * timestamp, each of the same number of records spread at random over the rings, then drains
 * of rings that are all empty. The table gives the medians and ranges over the rounds.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"
#include "rings/rings.h"

static const char usage[] =
"usage: rings_bench [options]\n"
"\n"
"Time the perf buffer and ring buffer consumers over rings in memory, with\n"
"no kernel: this program writes the records (16 bytes: a timestamp and a\n"
"sequence number) and the producer's position as the kernel does, the\n"
"library's consumers read them. For each ring count of --rings:\n"
"\n"
"  cpu order   bsdk_perfbuf_consume(), default options: ns per record\n"
"  merged      the same with merge_by_ts: ns per record, and its ratio to\n"
"              CPU order beside log2(rings), the depth of its tree\n"
"  empty       drains of rings that are all empty: ns per ring, both ways,\n"
"              and in CPU order with cold caches (each drain after this\n"
"              program wrote over a few times the last-level cache)\n"
"  memory      what the default sizing takes for that many CPUs: the rings\n"
"              (a metadata page and the default data pages each) and the\n"
"              consumer's own allocations\n"
"\n"
"and the ring buffer consumer over one ring of 2 MiB, or more for a larger\n"
"--records (one ring for all CPUs): ns per record. Every drain takes the\n"
"same number of records, spread at random over the rings; the ring counts\n"
"alternate within each round. Prints a Markdown table and lines starting\n"
"with 'bench:' for scripts; a drain that misses a record or, merged, hands\n"
"one out of time order fails the run.\n"
"\n"
"options:\n"
"  -r, --rounds N      rounds of alternation (default 5)\n"
"      --rings LIST    ring counts, comma-separated (default 1,8,64,256)\n"
"  -n, --records N     records per drain (default 16384)\n"
"  -D, --drains N      drains per ring count, way and round (default 100;\n"
"                      with cold caches, at most 3)\n"
"  -v                  show the library's messages\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 after a complete run, 1 on a failure, 2 on a usage error.\n";

#define MAX_COUNTS   8
#define MAX_RINGS    4096
#define MAX_ROUNDS   1000
/* Empty drains look at this many rings in all, whatever their number. */
#define EMPTY_LOOKS  (1u << 18)
/* Cold drains per ring count and round, at most: each first writes over evict_size bytes. */
#define COLD_DRAINS  3
#define EVICT_MIN    (32ul << 20)
#define EVICT_MAX    (256ul << 20)
/* The ring buffer: the memory perf_bench gives it, or more for a larger --records. */
#define RINGBUF_MIN  (2u << 20)

static struct {
	int rounds;
	int counts[MAX_COUNTS];
	int ncounts;
	unsigned int records;
	unsigned int drains;
	int verbose;
} cfg = {
	.rounds = 5, .counts = { 1, 8, 64, 256 }, .ncounts = 4,
	.records = 16384, .drains = 100,
};

static size_t page_size;
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t clock_ts;	/* the records' timestamps: one tick per record written */

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* --------------------------------------------------------- the callback */

struct sink {
	uint64_t n;		/* records handed out */
	uint64_t sum;		/* of their timestamps */
	uint64_t last;		/* the last timestamp */
	uint64_t inversions;	/* records with a timestamp below the one before */
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sink *k = ctx;
	uint64_t ts;

	(void)cpu;
	(void)size;
	memcpy(&ts, data, sizeof(ts));
	k->inversions += ts < k->last;
	k->last = ts;
	k->sum += ts;
	k->n++;
}

/* ------------------------------------------------ perf rings in memory */

/* A PERF_RECORD_SAMPLE of PERF_SAMPLE_RAW as the kernel writes bpf_perf_event_output()'s 16
 * bytes: the header, a u32 size, the bytes, padded to 8 (the size counts the padding). */
#define PERF_REC_SIZE  32
#define PERF_RAW_SIZE  20

struct perf_set {
	int n;
	struct perfbuf_footprint fp;
	size_t data_size;
	void **mem;			/* per ring: metadata page + data pages */
	uint64_t *head;			/* per ring: where the next record goes */
	struct bsdk_perfbuf *order, *merged;
	struct sink sink_order, sink_merged;
};

static void perf_set_free(struct perf_set *s)
{
	bsdk_perfbuf_free(s->order);
	bsdk_perfbuf_free(s->merged);
	for (int i = 0; s->mem && i < s->n; i++)
		if (s->mem[i] && s->mem[i] != MAP_FAILED)
			munmap(s->mem[i], page_size + s->data_size);
	free(s->mem);
	free(s->head);
}

static int perf_set_open(struct perf_set *s, int n)
{
	struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample };

	memset(s, 0, sizeof(*s));
	s->n = n;
	perfbuf_default_footprint(n, page_size, &s->fp);
	s->data_size = (size_t)s->fp.pages * page_size;
	s->mem = calloc((size_t)n, sizeof(*s->mem));
	s->head = calloc((size_t)n, sizeof(*s->head));
	if (!s->mem || !s->head)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		s->mem[i] = mmap(NULL, page_size + s->data_size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s->mem[i] == MAP_FAILED)
			return -errno;
	}
	/* Both consumers read the same rings, one after the other. */
	opts.ctx = &s->sink_order;
	s->order = perfbuf_new_mem(&opts, s->mem, (size_t)n);
	opts.ctx = &s->sink_merged;
	opts.merge_by_ts = true;
	s->merged = s->order ? perfbuf_new_mem(&opts, s->mem, (size_t)n) : NULL;
	return s->merged ? 0 : -errno;
}

/* Write cfg.records records, each into a ring chosen at random, then publish every ring's
 * data_head. Returns the sum of their timestamps, or 0 when a ring had no room. */
static uint64_t perf_fill(struct perf_set *s)
{
	uint8_t rec[PERF_REC_SIZE] = { 0 };
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = PERF_REC_SIZE };
	uint32_t raw = PERF_RAW_SIZE;
	uint64_t sum = 0;

	memcpy(rec, &hdr, sizeof(hdr));
	memcpy(rec + sizeof(hdr), &raw, sizeof(raw));
	for (unsigned int k = 0; k < cfg.records; k++) {
		int i = (int)(rnd() % (uint64_t)s->n);
		struct perf_event_mmap_page *m = s->mem[i];
		uint64_t tail = __atomic_load_n(&m->data_tail, __ATOMIC_ACQUIRE);
		uint64_t ts = ++clock_ts;

		if (s->head[i] + PERF_REC_SIZE - tail > s->data_size) {
			fprintf(stderr, "error: %d rings: ring %d is full: use fewer --records\n", s->n, i);
			return 0;
		}
		memcpy(rec + sizeof(hdr) + sizeof(raw), &ts, sizeof(ts));
		memcpy(rec + sizeof(hdr) + sizeof(raw) + sizeof(ts), &ts, sizeof(ts));
		memcpy((uint8_t *)m + page_size + (s->head[i] & (s->data_size - 1)), rec, sizeof(rec));
		s->head[i] += PERF_REC_SIZE;
		sum += ts;
	}
	for (int i = 0; i < s->n; i++)
		__atomic_store_n(&((struct perf_event_mmap_page *)s->mem[i])->data_head, s->head[i],
				 __ATOMIC_RELEASE);
	return sum;
}

/* cfg.drains fills, each drained by pb: ns per record, or NAN when a drain missed a record. */
static double perf_drains(struct perf_set *s, struct bsdk_perfbuf *pb, struct sink *k)
{
	uint64_t ns = 0, expect = 0, n0 = k->n, sum0 = k->sum;

	for (unsigned int d = 0; d < cfg.drains; d++) {
		uint64_t sum = perf_fill(s), t0;
		int got;

		if (!sum)
			return NAN;
		expect += sum;
		t0 = now_ns();
		got = bsdk_perfbuf_consume(pb);
		ns += now_ns() - t0;
		if (got != (int)cfg.records) {
			fprintf(stderr, "error: %d rings: a drain took %d records of %u\n", s->n, got,
				cfg.records);
			return NAN;
		}
	}
	if (k->n - n0 != (uint64_t)cfg.drains * cfg.records || k->sum - sum0 != expect) {
		fprintf(stderr, "error: %d rings: the records handed out are not those written\n", s->n);
		return NAN;
	}
	return (double)ns / ((double)cfg.drains * cfg.records);
}

/* Drains of rings that are all empty: ns per ring looked at. */
static double perf_empty(struct perf_set *s, struct bsdk_perfbuf *pb)
{
	unsigned int drains = EMPTY_LOOKS / (unsigned int)s->n;
	uint64_t t0;
	int got = 0;

	if (!drains)
		drains = 1;
	t0 = now_ns();
	for (unsigned int d = 0; d < drains; d++)
		got |= bsdk_perfbuf_consume(pb);
	if (got) {
		fprintf(stderr, "error: %d rings: a drain of empty rings found records\n", s->n);
		return NAN;
	}
	return (double)(now_ns() - t0) / ((double)drains * s->n);
}

/* Before each cold drain this program writes over a buffer a few times the size of the
 * last-level cache: what a consumer woken after a while of other work finds in the caches. */
static uint8_t *evict_buf;
static size_t evict_size;

static int evict_init(void)
{
	long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);

	evict_size = 4 * (size_t)(llc > 0 ? llc : 32l << 20);
	if (evict_size < EVICT_MIN)
		evict_size = EVICT_MIN;
	if (evict_size > EVICT_MAX)
		evict_size = EVICT_MAX;
	evict_buf = malloc(evict_size);
	if (!evict_buf)
		return -ENOMEM;
	memset(evict_buf, 1, evict_size);
	return 0;
}

/* Drains of empty rings, each with cold caches: ns per ring; only the drains are timed. */
static double perf_empty_cold(struct perf_set *s, struct bsdk_perfbuf *pb)
{
	unsigned int drains = cfg.drains < COLD_DRAINS ? cfg.drains : COLD_DRAINS;
	uint64_t ns = 0, t0;
	int got = 0;

	for (unsigned int d = 0; d < drains; d++) {
		for (size_t i = 0; i < evict_size; i += 64)
			evict_buf[i]++;
		t0 = now_ns();
		got |= bsdk_perfbuf_consume(pb);
		ns += now_ns() - t0;
	}
	if (got) {
		fprintf(stderr, "error: %d rings: a drain of empty rings found records\n", s->n);
		return NAN;
	}
	return (double)ns / ((double)drains * s->n);
}

/* --------------------------------------------- a BPF ring buffer in memory */

/* bpf_ringbuf_output() of 16 bytes: an 8-byte header (the length, BUSY and DISCARD clear: a
 * committed record; the page offset, unused here), the bytes, padded to 8. */
#define RB_REC_SIZE 24

struct ring_set {
	size_t size;
	uint64_t *consumer_pos;		/* a page of its own, as the kernel maps it */
	uint64_t *producer_pos;
	uint8_t *data;			/* size bytes, mapped twice in a row */
	struct bsdk_ringbuf *rb;
	struct sink sink;
};

static void ring_set_free(struct ring_set *s)
{
	bsdk_ringbuf_free(s->rb);
	if (s->consumer_pos)
		munmap(s->consumer_pos, 2 * page_size);
	if (s->data)
		munmap(s->data, 2 * s->size);
}

/* The data area mapped twice from one memfd, so that a record that wraps reads as one. */
static uint8_t *map_twice(size_t size)
{
	int fd = memfd_create("rings_bench", MFD_CLOEXEC);
	uint8_t *p = MAP_FAILED;

	if (fd >= 0 && !ftruncate(fd, (off_t)size))
		p = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED &&
	    (mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	     mmap(p + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)) {
		munmap(p, 2 * size);
		p = MAP_FAILED;
	}
	if (fd >= 0)
		close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static int ring_set_open(struct ring_set *s)
{
	struct bsdk_ringbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample, .ctx = &s->sink };
	uint8_t *pages;

	memset(s, 0, sizeof(*s));
	s->size = RINGBUF_MIN;
	while (s->size < 2ull * cfg.records * RB_REC_SIZE)
		s->size *= 2;
	pages = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return -errno;
	s->consumer_pos = (uint64_t *)pages;
	s->producer_pos = (uint64_t *)(pages + page_size);
	s->data = map_twice(s->size);
	if (!s->data)
		return -errno;
	s->rb = ringbuf_new_mem(&opts, s->consumer_pos, s->producer_pos, s->data, s->size);
	return s->rb ? 0 : -errno;
}

static uint64_t ring_fill(struct ring_set *s)
{
	uint64_t prod = *s->producer_pos, sum = 0;
	uint64_t cons = __atomic_load_n(s->consumer_pos, __ATOMIC_ACQUIRE);
	uint8_t rec[RB_REC_SIZE] = { 0 };
	uint32_t len = 16;

	memcpy(rec, &len, sizeof(len));
	if (prod + (uint64_t)cfg.records * RB_REC_SIZE - cons > s->size) {
		fprintf(stderr, "error: ring buffer: no room for %u records\n", cfg.records);
		return 0;
	}
	for (unsigned int k = 0; k < cfg.records; k++) {
		uint64_t ts = ++clock_ts;

		memcpy(rec + 8, &ts, sizeof(ts));
		memcpy(rec + 16, &ts, sizeof(ts));
		memcpy(s->data + (prod & (s->size - 1)), rec, sizeof(rec));
		prod += RB_REC_SIZE;
		sum += ts;
	}
	__atomic_store_n(s->producer_pos, prod, __ATOMIC_RELEASE);
	return sum;
}

static double ring_drains(struct ring_set *s)
{
	uint64_t ns = 0, expect = 0, n0 = s->sink.n, sum0 = s->sink.sum;

	for (unsigned int d = 0; d < cfg.drains; d++) {
		uint64_t sum = ring_fill(s), t0;
		int got;

		if (!sum)
			return NAN;
		expect += sum;
		t0 = now_ns();
		got = bsdk_ringbuf_consume(s->rb);
		ns += now_ns() - t0;
		if (got != (int)cfg.records) {
			fprintf(stderr, "error: ring buffer: a drain took %d records of %u\n", got,
				cfg.records);
			return NAN;
		}
	}
	if (s->sink.n - n0 != (uint64_t)cfg.drains * cfg.records || s->sink.sum - sum0 != expect) {
		fprintf(stderr, "error: ring buffer: the records handed out are not those written\n");
		return NAN;
	}
	return (double)ns / ((double)cfg.drains * cfg.records);
}

/* ------------------------------------------------------------ statistics */

struct stat3 {
	double med, min, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct stat3 stat_of(const double *v, int n)
{
	double s[MAX_ROUNDS];
	struct stat3 st;

	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	st.min = s[0];
	st.max = s[n - 1];
	st.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return st;
}

/* "1.00 MiB" style for the table; the bench: lines carry bytes. */
static const char *human_bytes(double v, char *buf, size_t len)
{
	if (v >= 1 << 20)
		snprintf(buf, len, "%.2f MiB", v / (1 << 20));
	else
		snprintf(buf, len, "%.1f KiB", v / 1024);
	return buf;
}

/* ------------------------------------------------------------- the run */

/* Per ring count and round, ns: per record in CPU order and merged, per empty ring in CPU
 * order, merged, and in CPU order with cold caches. */
enum { M_ORDER, M_MERGED, M_EMPTY, M_EMPTY_MERGED, M_EMPTY_COLD, M_COUNT };
static double res[MAX_COUNTS][M_COUNT][MAX_ROUNDS];
static double ring_res[MAX_ROUNDS];

static int one_round(struct perf_set *sets, struct ring_set *ring, int r)
{
	for (int c = 0; c < cfg.ncounts; c++) {
		struct perf_set *s = &sets[c];

		res[c][M_ORDER][r] = perf_drains(s, s->order, &s->sink_order);
		res[c][M_MERGED][r] = perf_drains(s, s->merged, &s->sink_merged);
		res[c][M_EMPTY][r] = perf_empty(s, s->order);
		res[c][M_EMPTY_MERGED][r] = perf_empty(s, s->merged);
		for (int m = 0; m < M_EMPTY_COLD; m++)
			if (isnan(res[c][m][r]))
				return -1;
		if (s->sink_merged.inversions) {
			fprintf(stderr, "error: %d rings: %llu records merged out of time order\n",
				s->n, (unsigned long long)s->sink_merged.inversions);
			return -1;
		}
	}
	ring_res[r] = ring_drains(ring);
	if (isnan(ring_res[r]))
		return -1;
	/* Last: what they leave in the caches is nothing the others should pay for. */
	for (int c = 0; c < cfg.ncounts; c++) {
		res[c][M_EMPTY_COLD][r] = perf_empty_cold(&sets[c], sets[c].order);
		if (isnan(res[c][M_EMPTY_COLD][r]))
			return -1;
	}
	return 0;
}

static void print_table(const struct perf_set *sets)
{
	struct stat3 first = stat_of(res[0][M_ORDER], cfg.rounds);
	char a[32], b[32];

	printf("| rings | pages per ring | CPU order ns/record (range) | / first row | merged ns/record (range) | merged / CPU order | log2(rings) | empty ring ns, CPU order (range) | empty ring ns, merged (range) | empty ring ns, cold caches (range) | memory: rings + consumer |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int c = 0; c < cfg.ncounts; c++) {
		struct stat3 st[M_COUNT];

		for (int m = 0; m < M_COUNT; m++)
			st[m] = stat_of(res[c][m], cfg.rounds);
		printf("| %d | %u | %.2f (%.2f–%.2f) | %.2f | %.2f (%.2f–%.2f) | %.2f | %.0f | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %.1f (%.1f–%.1f) | %s + %s |\n",
		       sets[c].n, sets[c].fp.pages,
		       st[M_ORDER].med, st[M_ORDER].min, st[M_ORDER].max, st[M_ORDER].med / first.med,
		       st[M_MERGED].med, st[M_MERGED].min, st[M_MERGED].max,
		       st[M_MERGED].med / st[M_ORDER].med, log2(sets[c].n),
		       st[M_EMPTY].med, st[M_EMPTY].min, st[M_EMPTY].max,
		       st[M_EMPTY_MERGED].med, st[M_EMPTY_MERGED].min, st[M_EMPTY_MERGED].max,
		       st[M_EMPTY_COLD].med, st[M_EMPTY_COLD].min, st[M_EMPTY_COLD].max,
		       human_bytes((double)sets[c].fp.mapped, a, sizeof(a)),
		       human_bytes((double)sets[c].fp.heap, b, sizeof(b)));
	}
}

static void print_results(const struct perf_set *sets, const struct ring_set *ring)
{
	struct stat3 rs = stat_of(ring_res, cfg.rounds);
	uint64_t written = (uint64_t)cfg.rounds * cfg.drains * cfg.records;

	print_table(sets);
	printf("\n| ring buffer | rings | ns/record (range) |\n|---|---:|---:|\n");
	printf("| bsdk-ringbuf | 1 | %.2f (%.2f–%.2f) |\n", rs.med, rs.min, rs.max);
	printf("\nns/record: a drain's time over its records, %u records per drain spread at random over the rings\n",
	       cfg.records);
	printf("empty ring: a drain's time over its rings when they are all empty; cold: each drain after writing over %zu MiB\n",
	       evict_size >> 20);
	printf("memory: the default pages per CPU for that many CPUs, each ring with its metadata page, + the consumer's allocations\n\n");
	for (int c = 0; c < cfg.ncounts; c++) {
		const struct perf_set *s = &sets[c];
		struct stat3 st[M_COUNT];

		for (int m = 0; m < M_COUNT; m++)
			st[m] = stat_of(res[c][m], cfg.rounds);
		printf("bench: rings name=perf rings=%d rounds=%d records=%llu drained=%llu drained_merged=%llu pages=%u order_ns_per_record=%.3f order_ns_per_record_min=%.3f order_ns_per_record_max=%.3f merged_ns_per_record=%.3f merged_ns_per_record_min=%.3f merged_ns_per_record_max=%.3f merged_vs_order=%.3f log2_rings=%.3f empty_ns_per_ring=%.3f empty_ns_per_ring_min=%.3f empty_ns_per_ring_max=%.3f empty_merged_ns_per_ring=%.3f empty_merged_ns_per_ring_min=%.3f empty_merged_ns_per_ring_max=%.3f empty_cold_ns_per_ring=%.3f empty_cold_ns_per_ring_min=%.3f empty_cold_ns_per_ring_max=%.3f mapped_bytes=%zu heap_bytes=%zu\n",
		       s->n, cfg.rounds, (unsigned long long)written,
		       (unsigned long long)s->sink_order.n, (unsigned long long)s->sink_merged.n,
		       s->fp.pages, st[M_ORDER].med, st[M_ORDER].min, st[M_ORDER].max,
		       st[M_MERGED].med, st[M_MERGED].min, st[M_MERGED].max,
		       st[M_MERGED].med / st[M_ORDER].med, log2(s->n),
		       st[M_EMPTY].med, st[M_EMPTY].min, st[M_EMPTY].max,
		       st[M_EMPTY_MERGED].med, st[M_EMPTY_MERGED].min, st[M_EMPTY_MERGED].max,
		       st[M_EMPTY_COLD].med, st[M_EMPTY_COLD].min, st[M_EMPTY_COLD].max,
		       s->fp.mapped, s->fp.heap);
	}
	printf("bench: rings name=ringbuf rings=1 rounds=%d records=%llu drained=%llu size=%zu ns_per_record=%.3f ns_per_record_min=%.3f ns_per_record_max=%.3f\n",
	       cfg.rounds, (unsigned long long)written, (unsigned long long)ring->sink.n,
	       ring->size, rs.med, rs.min, rs.max);
}

/* ---------------------------------------------------------------- options */

static long parse_num(const char *opt, const char *arg, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < min || v > max) {
		fprintf(stderr, "error: %s '%s' is not a number from %ld to %ld\n", opt, arg, min, max);
		exit(2);
	}
	return v;
}

static void parse_rings(const char *arg)
{
	char *list = strdup(arg), *save = NULL, *tok;

	if (!list)
		exit(1);
	cfg.ncounts = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cfg.ncounts == MAX_COUNTS) {
			fprintf(stderr, "error: --rings: at most %d ring counts\n", MAX_COUNTS);
			exit(2);
		}
		cfg.counts[cfg.ncounts++] = (int)parse_num("--rings", tok, 1, MAX_RINGS);
	}
	free(list);
	if (!cfg.ncounts) {
		fprintf(stderr, "error: --rings: no ring count given\n");
		exit(2);
	}
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "rings", required_argument, NULL, 'R' },
		{ "records", required_argument, NULL, 'n' },
		{ "drains", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "r:n:D:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': cfg.rounds = (int)parse_num("--rounds", optarg, 1, MAX_ROUNDS); break;
		case 'R': parse_rings(optarg); break;
		case 'n': cfg.records = (unsigned int)parse_num("--records", optarg, 1, 1 << 20); break;
		case 'D': cfg.drains = (unsigned int)parse_num("--drains", optarg, 1, 100000); break;
		case 'v': cfg.verbose++; break;
		case 'h': fputs(usage, stdout); exit(0);
		default: fputs("try 'rings_bench --help'\n", stderr); exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\ntry 'rings_bench --help'\n",
			argv[optind]);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	static struct perf_set sets[MAX_COUNTS];
	struct ring_set ring = { 0 };
	int ret = 1, err = 0;

	parse_args(argc, argv);
	if (cfg.verbose)
		bsdk_set_log_level(cfg.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	for (int c = 0; c < cfg.ncounts && !err; c++)
		err = perf_set_open(&sets[c], cfg.counts[c]);
	if (!err)
		err = ring_set_open(&ring);
	if (!err)
		err = evict_init();
	if (err) {
		fprintf(stderr, "error: setting up the rings: %s\n", strerror(-err));
		goto out;
	}
	printf("# rings_bench: %d rounds, %u drains of %u records (16 bytes each) per ring count and way, %zu-byte pages\n\n",
	       cfg.rounds, cfg.drains, cfg.records, page_size);
	for (int r = 0; r < cfg.rounds; r++)
		if (one_round(sets, &ring, r))
			goto out;
	print_results(sets, &ring);
	ret = 0;
out:
	for (int c = 0; c < cfg.ncounts; c++)
		perf_set_free(&sets[c]);
	ring_set_free(&ring);
	free(evict_buf);
	return ret;
}
