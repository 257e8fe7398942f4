// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * merge.c - the tournament behind the perf buffer's merge_by_ts (perfbuf_merge.c): k streams,
 * each already in its own order, merged by (timestamp, ring index).
 *
 * A tree of losers over the k streams: leaf i (node k + i) is stream i, every inner node
 * (1 .. k - 1, the children of node p being 2p and 2p + 1) keeps the stream that lost the
 * match played there, and the winner of the whole goes first. When the winner's key changes -
 * its stream's next record, or none left - only the matches on its path to the top are played
 * again, against the losers kept there: one comparison a level, log2(k) for each record, and
 * the outcome of each picks an index rather than a branch. A binary heap makes up to two
 * comparisons a level, and stops at a level the data decide: with the CPUs' records
 * interleaved at random, branches the processor mispredicts about once a record.
 */
#include "rings/rings.h"

/* (ts, ring) order; a stream that has ended (ring SIZE_MAX) goes after every other. Bitwise,
 * not short-circuit: no branch. */
static bool key_before(const struct merge_key *a, const struct merge_key *b)
{
	return (a->ts < b->ts) | ((a->ts == b->ts) & (a->ring < b->ring));
}

/* While merge_build() plays the first round, an inner node keeps its winner. */
static size_t winner_at(const struct merge_tree *t, size_t node)
{
	return node >= t->k ? node - t->k : t->loser[node];
}

void merge_build(struct merge_tree *t, size_t k)
{
	t->k = k;
	t->winner = 0;
	if (k < 2)
		return;
	/* Every match from the bottom up, each node keeping its winner; then from the top
	 * down, each node keeps instead the winner of its other child: the one it beat. */
	for (size_t p = k - 1; p; p--) {
		size_t a = winner_at(t, 2 * p), b = winner_at(t, 2 * p + 1);

		t->loser[p] = key_before(&t->key[b], &t->key[a]) ? b : a;
	}
	t->winner = t->loser[1];
	for (size_t p = 1; p < k; p++) {
		size_t a = winner_at(t, 2 * p), b = winner_at(t, 2 * p + 1);

		t->loser[p] = t->loser[p] == a ? b : a;
	}
}

size_t merge_replay(struct merge_tree *t)
{
	size_t w = t->winner;
	struct merge_key wk = t->key[w];

	/* The winner so far and its key stay in registers: what a level loads (its loser and
	 * the loser's key) does not wait for the match below it. */
	for (size_t p = (t->k + w) / 2; p; p /= 2) {
		size_t l = t->loser[p];
		struct merge_key lk = t->key[l];
		/* all ones when l beats w: they change places, by masks, as a compiler may turn a
		 * conditional into the very branch this is to avoid */
		size_t m = -(size_t)key_before(&lk, &wk);

		t->loser[p] = l ^ ((l ^ w) & m);
		w ^= (l ^ w) & m;
		wk.ts ^= (lk.ts ^ wk.ts) & m;
		wk.ring ^= (lk.ring ^ wk.ring) & m;
	}
	t->winner = w;
	return w;
}
