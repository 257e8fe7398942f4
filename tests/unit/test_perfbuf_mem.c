// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_perfbuf_mem.c - the perf buffer and ring buffer consumers over rings in memory
 * (perfbuf_new_mem(), ringbuf_new_mem()): what bsdk_perfbuf_consume() hands out in CPU order
 * and merged by timestamp - ties, records that wrap, lost reports, one ring or many, rings
 * that run dry in the middle of the merge - and what the default sizing takes
 * (perfbuf_default_footprint()). No kernel: the test writes the records and data_head.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "rings/rings.h"
#include "channel/perf_ring.h"
#include "check.h"

#define MAX_RINGS 64
#define MAX_GOT   4096

static size_t page;

/* ---- perf rings: a metadata page and one data page each ------------------ */

struct rings {
	size_t n;
	void *mem[MAX_RINGS];
	uint64_t head[MAX_RINGS];
};

static struct perf_event_mmap_page *meta(struct rings *r, size_t i)
{
	return r->mem[i];
}

static void rings_init(struct rings *r, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->mem[i] = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (r->mem[i] == MAP_FAILED)
			exit(2);
	}
}

static void rings_fini(struct rings *r)
{
	for (size_t i = 0; i < r->n; i++)
		munmap(r->mem[i], 2 * page);
}

static void put(struct rings *r, size_t i, const void *src, size_t len)
{
	uint8_t *data = (uint8_t *)r->mem[i] + page;

	for (size_t k = 0; k < len; k++)
		data[(r->head[i] + k) & (page - 1)] = ((const uint8_t *)src)[k];
	r->head[i] += len;
}

/* A sample of len bytes (a multiple of 8, at least 16): ts, then seq, then zeros; the raw size
 * counts the 4 bytes of padding, as the kernel writes it. */
static void put_sample(struct rings *r, size_t i, uint64_t ts, uint64_t seq, uint32_t len)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = (uint16_t)(12 + len + 4) };
	uint32_t raw = len + 4;
	uint8_t body[256] = { 0 };

	memcpy(body, &ts, 8);
	memcpy(body + 8, &seq, 8);
	put(r, i, &hdr, sizeof(hdr));
	put(r, i, &raw, sizeof(raw));
	put(r, i, body, raw);
}

static void put_lost(struct rings *r, size_t i, uint64_t lost)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_LOST, .size = 24 };
	uint64_t id = 1;

	put(r, i, &hdr, sizeof(hdr));
	put(r, i, &id, sizeof(id));
	put(r, i, &lost, sizeof(lost));
}

static void publish(struct rings *r)
{
	for (size_t i = 0; i < r->n; i++)
		__atomic_store_n(&meta(r, i)->data_head, r->head[i], __ATOMIC_RELEASE);
}

/* ---- what the consumer hands out ------------------------------------------ */

struct got {
	size_t n;
	int cpu[MAX_GOT];
	uint64_t ts[MAX_GOT], seq[MAX_GOT];
	uint64_t lost;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct got *g = ctx;

	if (g->n == MAX_GOT || size < 16)
		return;
	g->cpu[g->n] = cpu;
	memcpy(&g->ts[g->n], data, 8);
	memcpy(&g->seq[g->n], (const uint8_t *)data + 8, 8);
	g->n++;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	(void)cpu;
	((struct got *)ctx)->lost += count;
}

static struct bsdk_perfbuf *open_pb(struct rings *r, struct got *g, bool merge)
{
	struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .pages = 1, .on_sample = on_sample,
					  .on_lost = on_lost, .ctx = g, .merge_by_ts = merge };

	memset(g, 0, sizeof(*g));
	return perfbuf_new_mem(&opts, r->mem, r->n);
}

static bool in_ts_order(const struct got *g)
{
	for (size_t k = 1; k < g->n; k++)
		if (g->ts[k] < g->ts[k - 1] ||
		    (g->ts[k] == g->ts[k - 1] && g->cpu[k] < g->cpu[k - 1]))
			return false;
	return true;
}

static void test_cpu_order_and_merge(void)
{
	struct rings r;
	struct got g;
	struct bsdk_perfbuf *pb;
	bool cpu_order = true;

	/* Ring i holds ts i, i+3, i+6 ...: interleaved across the rings. */
	rings_init(&r, 3);
	for (uint64_t k = 0; k < 30; k++)
		put_sample(&r, k % 3, k, k, 16);
	publish(&r);
	pb = open_pb(&r, &g, false);
	check(pb != NULL, "a perf buffer over three rings in memory");
	check_i64(bsdk_perfbuf_consume(pb), 30, "CPU order: every record");
	for (size_t k = 1; k < g.n; k++)
		cpu_order &= g.cpu[k] >= g.cpu[k - 1];
	check(cpu_order, "CPU order: ring by ring");
	for (size_t i = 0; i < 3; i++)
		check_u64(meta(&r, i)->data_tail, r.head[i], "ring %zu: data_tail given back", i);
	check_i64(bsdk_perfbuf_consume(pb), 0, "nothing twice");
	bsdk_perfbuf_free(pb);
	check_u64(meta(&r, 0)->data_head, r.head[0], "free leaves the caller's memory mapped");

	for (uint64_t k = 30; k < 60; k++)
		put_sample(&r, (k * 7) % 3, k, k, 16);
	publish(&r);
	pb = open_pb(&r, &g, true);
	check_i64(bsdk_perfbuf_consume(pb), 30, "merged: every record");
	check(in_ts_order(&g) && g.ts[0] == 30 && g.ts[29] == 59, "merged: in time order");
	bsdk_perfbuf_free(pb);
	rings_fini(&r);
}

/* Equal timestamps go by ring index; a ring that runs dry leaves the others to finish. */
static void test_ties_and_dry_rings(void)
{
	struct rings r;
	struct got g;
	struct bsdk_perfbuf *pb;

	rings_init(&r, 4);
	put_sample(&r, 3, 5, 0, 16);
	put_sample(&r, 1, 5, 1, 16);
	put_sample(&r, 2, 5, 2, 16);
	put_sample(&r, 2, 6, 3, 16);
	for (uint64_t k = 0; k < 20; k++)	/* ring 0 goes on alone */
		put_sample(&r, 0, 7 + k, 4 + k, 16);
	publish(&r);
	pb = open_pb(&r, &g, true);
	check_i64(bsdk_perfbuf_consume(pb), 24, "merged: every record");
	check(g.cpu[0] == 1 && g.cpu[1] == 2 && g.cpu[2] == 3 && g.seq[3] == 3,
	      "equal timestamps: the lower ring first");
	check(in_ts_order(&g) && g.seq[23] == 23, "ring 0 finishes alone, in order");
	bsdk_perfbuf_free(pb);
	rings_fini(&r);
}

/* Records that wrap are copied, one scratch buffer per ring, so that two wrapped records wait
 * in the merge at once; a lost report goes to on_lost on the way. */
static void test_wrapped_and_lost(void)
{
	struct rings r;
	struct got g;
	struct bsdk_perfbuf *pb;
	struct bsdk_perfbuf_stats st;

	rings_init(&r, 2);
	for (size_t i = 0; i < 2; i++) {
		r.head[i] = page - 16;	/* the next record wraps */
		meta(&r, i)->data_tail = r.head[i];
	}
	put_sample(&r, 0, 10, 100, 40);
	put_sample(&r, 1, 11, 101, 40);
	put_lost(&r, 0, 7);
	put_sample(&r, 0, 12, 102, 16);
	put_sample(&r, 1, 9, 99, 16);	/* out of order within its ring: stays after 101 */
	publish(&r);
	pb = open_pb(&r, &g, true);
	check_i64(bsdk_perfbuf_consume(pb), 4, "merged: wrapped records too");
	check(g.n == 4 && g.seq[0] == 100 && g.seq[1] == 101 && g.seq[2] == 99 && g.seq[3] == 102,
	      "merged: each wrapped record intact, each ring's own order kept");
	check_u64(g.lost, 7, "the lost report handed out");
	bsdk_perfbuf_stats(pb, &st);
	check_u64(st.copied, 2, "both wrapped records copied");
	check_u64(st.received, 4, "received counted");
	bsdk_perfbuf_free(pb);
	rings_fini(&r);
}

/* One ring, merged: its own order, many records. */
static void test_one_ring(void)
{
	struct rings r;
	struct got g;
	struct bsdk_perfbuf *pb;

	rings_init(&r, 1);
	for (uint64_t k = 0; k < 100; k++)
		put_sample(&r, 0, 1000 - k % 2, k, 16);
	publish(&r);
	pb = open_pb(&r, &g, true);
	check_i64(bsdk_perfbuf_consume(pb), 100, "one ring merged: every record");
	check(g.seq[0] == 0 && g.seq[99] == 99, "one ring merged: the ring's own order");
	bsdk_perfbuf_free(pb);
	rings_fini(&r);
}

/* The merge against the plain one: at each step, of the records at the head of every ring, the
 * first by (ts, ring). Rings of random lengths (some empty, some running dry early), few
 * distinct timestamps (many ties), some rings not in order themselves. */
static void test_merge_random(void)
{
	static struct got g;
	uint64_t seed = 12345, want_ring[MAX_GOT], want_seq[MAX_GOT];
	int bad = 0, trials = 300;

	for (int trial = 0; trial < trials && !bad; trial++) {
		uint64_t ts[MAX_RINGS][24], seq[MAX_RINGS][24], next = 0;
		size_t len[MAX_RINGS], at[MAX_RINGS] = { 0 }, nwant = 0;
		struct bsdk_perfbuf *pb;
		struct rings r;

#define RND() (seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33)
		rings_init(&r, 1 + RND() % 40);
		for (size_t i = 0; i < r.n; i++) {
			len[i] = RND() % 3 ? RND() % 24 : 0;
			for (size_t j = 0; j < len[i]; j++) {
				ts[i][j] = RND() % 2 ? j * 3 + RND() % 8 : RND() % 16;
				seq[i][j] = next++;
				put_sample(&r, i, ts[i][j], seq[i][j], 16);
			}
		}
#undef RND
		publish(&r);
		for (;;) {
			size_t best = r.n;

			for (size_t i = 0; i < r.n; i++)
				if (at[i] < len[i] && (best == r.n || ts[i][at[i]] < ts[best][at[best]]))
					best = i;
			if (best == r.n)
				break;
			want_ring[nwant] = best;
			want_seq[nwant++] = seq[best][at[best]++];
		}
		pb = open_pb(&r, &g, true);
		bad = bsdk_perfbuf_consume(pb) != (int)nwant || g.n != nwant;
		for (size_t k = 0; k < g.n && !bad; k++)
			bad = (uint64_t)g.cpu[k] != want_ring[k] || g.seq[k] != want_seq[k];
		if (bad)
			check_diag("trial %d: %zu rings, %zu records: differs", trial, r.n, nwant);
		bsdk_perfbuf_free(pb);
		rings_fini(&r);
	}
	check(!bad, "merged as the plain merge does, %d random sets of rings", trials);
}

static void test_footprint(void)
{
	static const int ncpu[] = { 1, 8, 64, 256, 1024 };
	static const unsigned int pages[] = { 256, 256, 32, 16, 16 };
	struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample };
	struct perfbuf_footprint f, prev = { 0 };
	struct bsdk_perfbuf_stats st;
	struct bsdk_perfbuf *pb;
	struct rings r;
	struct got g;

	if (page != 4096) {
		check_diag("the default sizing's figures below are for 4 KiB pages: skipped");
		return;
	}
	for (size_t i = 0; i < sizeof(ncpu) / sizeof(ncpu[0]); i++) {
		perfbuf_default_footprint(ncpu[i], page, &f);
		check_u64(f.pages, pages[i], "ncpu %d: default pages per ring", ncpu[i]);
		check_u64(f.mapped, (uint64_t)ncpu[i] * (1 + pages[i]) * page,
			  "ncpu %d: a metadata page and the data pages per ring", ncpu[i]);
		check(f.heap > prev.heap, "ncpu %d: the consumer's allocations grow with the rings", ncpu[i]);
		prev = f;
	}
	/* pages 0: the default for as many CPUs as rings. */
	memset(&r, 0, sizeof(r));
	r.n = 8;
	for (size_t i = 0; i < r.n; i++)
		r.mem[i] = mmap(NULL, (1 + 256) * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	opts.ctx = &g;
	pb = perfbuf_new_mem(&opts, r.mem, r.n);
	bsdk_perfbuf_stats(pb, &st);
	check(pb && st.pages == 256 && st.cpus == 8, "pages 0: the default for 8 CPUs");
	bsdk_perfbuf_free(pb);
	for (size_t i = 0; i < r.n; i++)
		munmap(r.mem[i], (1 + 256) * page);
	errno = 0;
	check(perfbuf_new_mem(&opts, r.mem, 0) == NULL && errno == EINVAL, "no ring: EINVAL");
}

/* ---- a BPF ring buffer: the data area written twice stands for the double mapping ---- */

static void test_ringbuf(void)
{
	uint64_t *pos = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *data = calloc(2, page);
	struct bsdk_ringbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample };
	uint64_t *cons = pos, *prod = (uint64_t *)((uint8_t *)pos + page);
	struct bsdk_ringbuf *rb;
	struct got g = { 0 };

	opts.ctx = &g;
	for (uint64_t k = 0; k < 10; k++) {
		uint32_t hdr[2] = { 16, 0 };

		memcpy(data + *prod, hdr, 8);
		memcpy(data + *prod + 8, &k, 8);
		memcpy(data + *prod + 16, &k, 8);
		*prod += 24;
	}
	memcpy(data + page, data, page);
	rb = ringbuf_new_mem(&opts, cons, prod, data, page);
	check(rb != NULL, "a ring buffer in memory");
	check_i64(bsdk_ringbuf_consume(rb), 10, "every record");
	check(g.n == 10 && g.cpu[0] == -1 && g.seq[9] == 9, "in order, cpu -1");
	bsdk_ringbuf_free(rb);
	check_u64(*cons, *prod, "consumer_pos given back at free, the memory left mapped");
	errno = 0;
	check(ringbuf_new_mem(&opts, cons, prod, data, 3000) == NULL && errno == EINVAL,
	      "a size that is not a power of two: EINVAL");
	free(data);
	munmap(pos, 2 * page);
}

/* ---- handlers written with libbpf's types (sample_cb, lost_cb) ---------------------------- */

static void libbpf_sample(void *ctx, int cpu, void *data, __u32 size)
{
	on_sample(ctx, cpu, data, size);
}

static void libbpf_lost(void *ctx, int cpu, __u64 cnt)
{
	on_lost(ctx, cpu, cnt);
}

static int libbpf_record(void *ctx, void *data, size_t size)
{
	struct got *g = ctx;

	on_sample(ctx, -1, data, (uint32_t)size);
	return g->n == 3 ? -42 : 0;	/* stop after the third, as libbpf's callers may */
}

static void test_libbpf_types(void)
{
	struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .pages = 1, .sample_cb = libbpf_sample,
					  .lost_cb = libbpf_lost };
	uint64_t *pos = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct bsdk_ringbuf_opts ro = { .sz = sizeof(ro), .sample_cb = libbpf_record };
	uint8_t *data = calloc(2, page);
	struct bsdk_perfbuf *pb;
	struct bsdk_ringbuf *rb;
	struct rings r;
	struct got g = { 0 };

	for (int merge = 0; merge < 2; merge++) {
		rings_init(&r, 2);
		put_sample(&r, 1, 2, 20, 16);
		put_lost(&r, 0, 5);
		put_sample(&r, 0, 1, 10, 16);
		publish(&r);
		memset(&g, 0, sizeof(g));
		opts.ctx = &g;
		opts.merge_by_ts = merge;
		pb = perfbuf_new_mem(&opts, r.mem, r.n);
		check(pb != NULL, "perf buffer, libbpf's types%s", merge ? ", merged" : "");
		check_i64(pb ? bsdk_perfbuf_consume(pb) : -1, 2, "sample_cb: every record");
		check(g.n == 2 && g.seq[0] == 10 && g.cpu[0] == 0 && g.seq[1] == 20 &&
		      g.cpu[1] == 1 && g.lost == 5, "sample_cb and lost_cb: the caller's ctx, cpu, data, size, count");
		bsdk_perfbuf_free(pb);
		rings_fini(&r);
	}
	opts.on_sample = on_sample;
	rings_init(&r, 1);
	errno = 0;
	check(perfbuf_new_mem(&opts, r.mem, r.n) == NULL && errno == EINVAL,
	      "on_sample and sample_cb both set: EINVAL");
	rings_fini(&r);

	ro.ctx = &g;
	memset(&g, 0, sizeof(g));
	for (uint64_t k = 0; k < 5; k++) {
		uint32_t hdr[2] = { 16, 0 };

		memcpy(data + *(pos + page / 8), hdr, 8);
		memcpy(data + *(pos + page / 8) + 16, &k, 8);
		*(pos + page / 8) += 24;
	}
	memcpy(data + page, data, page);
	rb = ringbuf_new_mem(&ro, pos, pos + page / 8, data, page);
	check(rb != NULL, "ring buffer, libbpf's type");
	check_i64(rb ? bsdk_ringbuf_consume(rb) : -1, -42, "sample_cb: its stop value returned");
	check(g.n == 3 && g.seq[2] == 2, "sample_cb: records in order, the drain stopped after 3");
	check_i64(rb ? bsdk_ringbuf_consume(rb) : -1, 2, "the rest on the next drain");
	bsdk_ringbuf_free(rb);
	ro.on_sample = on_sample;
	errno = 0;
	check(ringbuf_new_mem(&ro, pos, pos + page / 8, data, page) == NULL && errno == EINVAL,
	      "on_sample and sample_cb both set: EINVAL");
	free(data);
	munmap(pos, 2 * page);
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	test_cpu_order_and_merge();
	test_ties_and_dry_rings();
	test_wrapped_and_lost();
	test_one_ring();
	test_merge_random();
	test_footprint();
	test_ringbuf();
	test_libbpf_types();
	return check_done();
}
