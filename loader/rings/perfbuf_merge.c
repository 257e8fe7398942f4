// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perfbuf_merge.c - the perf buffer's merge_by_ts: the records of every CPU's
 * ring handed out in the order of a timestamp the program writes into each
 * (at opts.ts_offset), rather than one CPU's after another's.
 */
#include "rings/rings.h"

static uint64_t rec_ts(const struct bsdk_perfbuf *pb, const struct perf_rec *rec)
{
	uint64_t ts;

	/* Records too short to carry the field sort first. */
	if (rec->size < pb->opts.ts_offset + sizeof(ts))
		return 0;
	memcpy(&ts, (const uint8_t *)rec->data + pb->opts.ts_offset, sizeof(ts));
	return ts;
}

/* Fetch the next sample of ring r into re->pending, handing out the lost
 * reports met on the way (they carry no timestamp). */
static void merge_fetch(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct ring_ext *re)
{
	re->has_pending = false;
	while (perf_ring_next(&re->walk, &re->pending)) {
		if (re->pending.kind == PERF_REC_SAMPLE) {
			re->has_pending = true;
			return;
		}
		if (pb->opts.on_lost)
			pb->opts.on_lost(pb->opts.ctx, r->cpu, re->pending.lost);
		perf_ring_advance(&re->walk, &re->pending);
	}
}

/* Hand out the record waiting in ring r. */
static void merge_deliver(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct ring_ext *re)
{
	pb->opts.on_sample(pb->opts.ctx, r->cpu, re->pending.data, re->pending.size);
	perf_ring_advance(&re->walk, &re->pending);
	r->nrec++;
}

/* The rings that have a record: walk begun, first sample fetched, its key in the tree. */
static size_t merge_start(struct bsdk_perfbuf *pb)
{
	struct merge_tree *t = &pb->ext->merge;
	size_t k = 0;

	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];
		struct ring_ext *re = &pb->ext->ring[i];

		r->nrec = 0;
		re->has_pending = false;
		if (__atomic_load_n(&r->meta->data_head, __ATOMIC_RELAXED) == r->meta->data_tail)
			continue;
		perfbuf_walk_begin(pb, r, &re->walk);
		re->walked = true;
		merge_fetch(pb, r, re);
		if (re->has_pending)
			t->key[k++] = (struct merge_key){ rec_ts(pb, &re->pending), i };
	}
	return k;
}

/* The k-way merge: every ring keeps its next record where it is (each has its own scratch
 * buffer, so a wrapped record of one CPU survives while another CPU's records are
 * delivered), and the smallest timestamp goes first, from a tournament of the rings that have
 * one (merge.c): log2(rings) comparisons per record. A ring with nothing to read is not
 * touched beyond the load of its head. */
int perfbuf_consume_merged(struct bsdk_perfbuf *pb)
{
	struct merge_tree *t = &pb->ext->merge;
	size_t live = merge_start(pb);
	uint64_t n = 0;

	merge_build(t, live);
	for (; live > 1; merge_replay(t)) {
		struct merge_key *key = &t->key[t->winner];
		struct cpu_ring *best = &pb->rings[key->ring];
		struct ring_ext *re = &pb->ext->ring[key->ring];

		merge_deliver(pb, best, re);
		n++;
		merge_fetch(pb, best, re);
		if (re->has_pending) {
			key->ts = rec_ts(pb, &re->pending);
		} else {
			*key = MERGE_DONE;
			live--;
		}
	}
	if (live) {
		/* One ring left with records (or only ever one): its order is the merge's, and
		 * the rest of it goes as in CPU order, at that cost. */
		size_t i = t->key[t->winner].ring;
		struct ring_ext *re = &pb->ext->ring[i];
		uint64_t rest;

		merge_deliver(pb, &pb->rings[i], re);
		rest = perf_ring_walk(&re->walk, (perf_ring_sample_fn)pb->opts.on_sample,
				      (perf_ring_lost_fn)pb->opts.on_lost, pb->opts.ctx);
		pb->rings[i].nrec += rest;
		n += 1 + rest;
	}
	for (size_t i = 0; i < pb->nrings; i++) {
		if (!pb->ext->ring[i].walked)
			continue;
		pb->ext->ring[i].walked = false;
		perfbuf_walk_end(&pb->rings[i], &pb->ext->ring[i].walk);
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}
