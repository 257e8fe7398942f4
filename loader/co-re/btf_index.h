/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_index.h - BTF types found by name, for the layers that look up many
 * (CO-RE, the kernel's BTF, the extensions): btf_find() (btf_index.c) and
 * a name's essential part. Not installed.
 */
#ifndef BPFSDK_BTF_INDEX_H
#define BPFSDK_BTF_INDEX_H

#include <string.h>

#include "format/btf.h"

/* The first type of this kind and name, 0 when none: btf_find_scan() the
 * first few times, then through an index of every type, kept with the BTF
 * (btf_cache()), so that any number of lookups costs a constant number of
 * passes over the types. The index holds each type under the name and
 * kind it had when it was built: a type rewritten since (an extern section
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
