// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_index.c - the one index of BTF types by name: a hash table of type
 * IDs, chained, built in one pass over a BTF's types. The kernel's BTF
 * (kbtf.c) keeps two of them per BTF; btf_find() below keeps one with an
 * object's BTF, as its cache (format/btf.h's btf_cache()), built once the
 * BTF has been searched a few times (most objects ask for a few names, and
 * a scan is cheaper than the index).
 */
#include "base/base.h"
#include "co-re/btf_index.h"

#define FIND_SCANS 16

/* FNV-1a of name's first len bytes (up to a NUL), from a seed of this
 * process's: the names are the object's, and a fixed hash would let one
 * make every lookup walk a single bucket. len SIZE_MAX: up to the "___"
 * of a flavour, as btf_essential_len(). */
static uint32_t name_hash(const char *name, size_t len)
{
	static uint32_t seed;
	uint32_t s = __atomic_load_n(&seed, __ATOMIC_ACQUIRE), mine, h;
	bool essential = len == SIZE_MAX;

	/* one seed for the process, whichever thread comes first: an index
	 * built with another would find nothing */
	if (!s) {
		mine = (uint32_t)(((uintptr_t)&seed >> 4) ^ (uint64_t)now_ns()) | 1;
		s = __atomic_compare_exchange_n(&seed, &s, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) ? mine : s;
	}
	h = 2166136261u ^ s;
	for (const unsigned char *p = (const unsigned char *)name; len && *p; p++, len--) {
		if (essential && p[0] == '_' && p[1] == '_' && p[2] == '_')
			break;
		h = (h ^ *p) * 16777619u;
	}
	return h;
}

static inline bool indexed(const struct btf_type *t, enum btf_index_which which)
{
	if (which == BTF_INDEX_ALL)
		return true;
	return t->name_off && (btf_kind(t) == BTF_KIND_FUNC) == (which == BTF_INDEX_FUNCS);
}

int btf_name_index_build(struct btf_name_index **slot, const struct btf *btf,
			 enum btf_index_which which)
{
	/* an object's BTF (ALL, btf_find()) is searched whole, a split one's base included,
	 * as btf_find_scan() does; the kernel's (kbtf.c) one BTF at a time */
	uint32_t first = which == BTF_INDEX_ALL ? 1 : btf_first_id(btf);
	uint32_t n = btf_type_count(btf) > first ? btf_type_count(btf) - first : 0, nb = 16, count = n;
	size_t bytes;
	struct btf_name_index *x;
	uint32_t *heads, *next;

	if (which != BTF_INDEX_ALL) {
		count = 0;
		for (uint32_t id = first; id < first + n; id++)
			count += indexed(btf_type_by_id(btf, id), which);
	}
	while (nb < count && nb < (1u << 31))
		nb <<= 1;
	bytes = sizeof(*x) + ((size_t)nb + n) * sizeof(uint32_t);
	/* calloc() when new: a large block comes zeroed from the kernel, untouched */
	x = *slot ? realloc(*slot, bytes) : calloc(1, bytes);
	if (!x)
		return fail(ENOMEM);
	if (*slot)
		memset(x->slots, 0, ((size_t)nb + n) * sizeof(uint32_t));
	*slot = x;
	heads = x->slots;
	next = x->slots + nb;
	x->first = first;
	x->mask = nb - 1;
	/* from the highest ID down, so that each chain lists its IDs in ascending order */
	for (uint32_t id = first + n - 1; n && id >= first; id--) {	/* first >= 1 */
		const struct btf_type *t = btf_type_by_id(btf, id);
		uint32_t b;

		if (indexed(t, which)) {
			b = name_hash(btf_name(btf, t), SIZE_MAX) & x->mask;
			next[id - first] = heads[b];
			heads[b] = id;
		}
	}
	return 0;
}

uint32_t btf_name_index_first(const struct btf_name_index *ix, const char *name, size_t len)
{
	return ix->slots[name_hash(name, len) & ix->mask];
}

uint32_t btf_name_index_next(const struct btf_name_index *ix, uint32_t id)
{
	return ix->slots[ix->mask + 1 + (id - ix->first)];
}

uint32_t btf_find(const struct btf *btf, const char *name, int kind)
{
	struct btf_name_index **slot = (struct btf_name_index **)btf_cache(btf);
	size_t len = btf_essential_len(name);

	if (!*slot)
		*slot = calloc(1, sizeof(**slot));	/* none: scans, uncounted */
	if (*slot && !(*slot)->mask && (*slot)->uses++ == FIND_SCANS)
		btf_name_index_build(slot, btf, BTF_INDEX_ALL);
	if (!*slot || !(*slot)->mask)
		return btf_find_scan(btf, name, kind);
	for (uint32_t id = btf_name_index_first(*slot, name, len); id;
	     id = btf_name_index_next(*slot, id)) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (btf_kind(t) == kind && strcmp(btf_name(btf, t), name) == 0)
			return id;
	}
	return 0;
}
