/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_index.h - BTF types found by name, for the layers that look up many
 * (CO-RE, the kernel's BTF, the extensions): the one name index, btf_find()
 * on it (btf_index.c), and a name's essential part. Not installed.
 */
#ifndef BPFSDK_BTF_INDEX_H
#define BPFSDK_BTF_INDEX_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "format/btf.h"

/* The one index of a BTF's types by name: a hash table of type IDs, by the
 * hash of each type's essential name (btf_essential_len(): "task_struct"
 * for task_struct___old too), from a seed of the process's. heads (mask + 1
 * of them, a power of two) hold the lowest ID of each chain, next[id -
 * first] the next higher one, 0 ends a chain: a lookup walks one chain and
 * checks each type's name and kind itself. One malloc'ed block. */
struct btf_name_index {
	uint32_t first;		/* the first ID indexed: 1 for ALL, else the BTF's own first */
	uint32_t mask;		/* 0 while nothing is built */
	uint32_t uses;		/* the owner's count (btf_find(): scans before building) */
	uint32_t slots[];	/* heads, then next */
};

/* Which types an index holds: all (a split BTF's base too, as btf_find() searches), or of
 * the BTF's own types the named functions (vmlinux's 56,000
 * BTF_KIND_FUNCs, which attach points and kfuncs look up), or the other named types (what
 * CO-RE looks up). */
enum btf_index_which { BTF_INDEX_ALL, BTF_INDEX_FUNCS, BTF_INDEX_NOT_FUNCS };

/* Build the index of btf's own types into *slot, allocated or reused: one pass to count them
 * (none for all), one to chain them, so linear time. 0, or -ENOMEM with *slot as it was. */
int btf_name_index_build(struct btf_name_index **slot, const struct btf *btf,
			 enum btf_index_which which);
/* The first ID of the chain where types whose essential name is name[0..len) stand (the
 * chain holds others too), 0 when empty; then the next one, 0 after the last. */
uint32_t btf_name_index_first(const struct btf_name_index *ix, const char *name, size_t len);
uint32_t btf_name_index_next(const struct btf_name_index *ix, uint32_t id);

/* The first type of this kind and name, 0 when none: btf_find_scan() the
 * first few times, then through a btf_name_index of every type, kept with
 * the BTF (btf_cache()), so that any number of lookups costs a constant
 * number of passes over the types. The index holds each type under the
 * name it had when it was built: a type rewritten since (an extern section
 * made an anonymous struct) is checked as it is now, so it is not found
 * under its old name. */
uint32_t btf_find(const struct btf *btf, const char *name, int kind);

/* The length of name's essential part: up to a "___" that starts a flavour suffix
 * ("task_struct___old" -> 11), all of it when there is none. */
static inline size_t btf_essential_len(const char *name)
{
	const char *flavour = strstr(name, "___");

	return flavour ? (size_t)(flavour - name) : strlen(name);
}

#endif /* BPFSDK_BTF_INDEX_H */
