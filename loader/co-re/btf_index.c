// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_index.c - btf_find(): a BTF's types by name and kind, through an
 * index built once a BTF has been searched a few times (most objects ask
 * for a few names, and a scan is cheaper than the index), kept with the
 * BTF as its cache (format/btf.h's btf_cache()).
 */
#include "base/base.h"
#include "co-re/btf_index.h"

#define FIND_SCANS 16

/* Every type ID by the hash of its name and kind: heads (mask + 1 of them)
 * the lowest ID of a bucket, then next[id] the next higher one; mask 0
 * while there is none (or it could not be allocated: then scans go on). */
struct find_index {
	uint32_t scans, mask;
	uint32_t slots[];	/* heads, then next */
};

/* FNV-1a of name and kind, from a seed of this process's: the names are
 * the object's, and a fixed hash would let one make every lookup walk a
 * single bucket. */
static uint32_t find_hash(const char *name, int kind)
{
	static uint32_t seed;
	uint32_t s = __atomic_load_n(&seed, __ATOMIC_ACQUIRE), mine = 0;

	/* one seed for the process, whichever thread comes first: an index
	 * built with another would find nothing */
	if (!s) {
		mine = (uint32_t)(((uintptr_t)&seed >> 4) ^ (uint64_t)now_ns()) | 1;
		s = __atomic_compare_exchange_n(&seed, &s, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) ? mine : s;
	}
	uint32_t h = 2166136261u ^ s;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return (h ^ (uint32_t)kind) * 16777619u;
}

/* Build the index in *slot: one pass, IDs pushed from the highest down so
 * that each bucket lists them in ascending order. Left as it was when
 * there is no memory for it. */
static void find_index(const struct btf *btf, struct find_index **slot)
{
	uint32_t nb = 1, n = btf_type_count(btf);
	struct find_index *x;
	uint32_t *heads, *next;

	while (nb < n && nb < (1u << 31))
		nb <<= 1;
	x = realloc(*slot, sizeof(*x) + ((size_t)nb + n) * sizeof(uint32_t));
	if (!x)
		return;
	*slot = x;
	heads = x->slots;
	next = x->slots + nb;
	memset(x->slots, 0, ((size_t)nb + n) * sizeof(uint32_t));
	x->mask = nb - 1;
	for (uint32_t id = n - 1; id >= 1; id--) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		uint32_t b = find_hash(btf_name(btf, t), btf_kind(t)) & x->mask;

		next[id] = heads[b];
		heads[b] = id;
	}
}

uint32_t btf_find(const struct btf *btf, const char *name, int kind)
{
	struct find_index **slot = (struct find_index **)btf_cache(btf);
	const uint32_t *next;

	if (!*slot)
		*slot = calloc(1, sizeof(**slot));	/* none: scans, uncounted */
	if (*slot && !(*slot)->mask && (*slot)->scans++ == FIND_SCANS)
		find_index(btf, slot);
	if (!*slot || !(*slot)->mask)
		return btf_find_scan(btf, name, kind);
	next = (*slot)->slots + (*slot)->mask + 1;
	for (uint32_t id = (*slot)->slots[find_hash(name, kind) & (*slot)->mask]; id; id = next[id]) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (btf_kind(t) == kind && strcmp(btf_name(btf, t), name) == 0)
			return id;
	}
	return 0;
}
