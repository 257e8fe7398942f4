/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf.h - the loader's internal view of BTF (see btf.c). Not installed.
 */
#ifndef BPFSDK_BTF_H
#define BPFSDK_BTF_H

#include <stddef.h>
#include <stdint.h>
#include <linux/btf.h>

struct btf;

/* The header of an object's .BTF.ext section (the layout the kernel's
 * and libbpf's tools share): where each list of records lies after it.
 * The core_relo fields came later: they are there only when hdr_len
 * reaches them. The section is parsed above the core (ext/btf/btf_ext.c). */
struct btf_ext_header {
	uint16_t magic;		/* BTF_MAGIC */
	uint8_t version, flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
	uint32_t core_relo_off, core_relo_len;
};
/* The shortest header: up to the core_relo fields. */
#define BTF_EXT_HEADER_MIN offsetof(struct btf_ext_header, core_relo_off)

/* Parse and validate a .BTF section (copied). NULL with errno on failure,
 * the reason logged, naming the object obj (kept: must outlive the btf). */
struct btf *btf_parse(const void *data, size_t size, const char *obj);
/* The same for split BTF (a kernel module's) on top of base, which must outlive it: its type
 * IDs continue after the base's count, its string offsets after the base's strings. */
struct btf *btf_parse_split(const void *data, size_t size, const struct btf *base,
			   const char *obj);
/* Either of the two, parsing data where it is, without a copy: data must be 4-byte aligned,
 * stay unchanged and outlive the btf (e.g. a read-only mapping of the kernel's BTF). */
struct btf *btf_parse_borrowed(const void *data, size_t size, const struct btf *base,
			       const char *obj);
void btf_free(struct btf *btf);
/* The base of a split BTF, NULL for a BTF of its own. */
const struct btf *btf_base(const struct btf *btf);

/* Number of type IDs, including 0 (void) and a base's. */
uint32_t btf_type_count(const struct btf *btf);
/* The first type ID this BTF defines itself: 1, or its base's type count. */
uint32_t btf_first_id(const struct btf *btf);
/* NULL for 0 and for IDs out of range. */
const struct btf_type *btf_type_by_id(const struct btf *btf, uint32_t id);
/* NULL when off is out of range. */
const char *btf_str(const struct btf *btf, uint32_t off);
/* The type's name, "" for anonymous types. */
const char *btf_name(const struct btf *btf, const struct btf_type *t);
/* Follow typedef/const/volatile/restrict/type_tag to the real type; its ID
 * goes to *res_id (may be NULL). NULL on a broken or looping chain. */
const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id);
/* The first loop of typedefs, modifiers, arrays or variables (each leads to one type): the ID
 * whose reference closes it, and in *to the ID it refers back to; 0 when there is none. The
 * types of a loop, and those leading into one, resolve to nothing (NULL, no size). */
uint32_t btf_loop(const struct btf *btf, uint32_t *to);
/* Byte size of a type (arrays multiplied out, pointers 8). */
int btf_type_size(const struct btf *btf, uint32_t id, uint64_t *size);
/* First type of this kind and name, 0 when none: a scan of every type, for
 * the few lookups of the core; btf_find() (co-re/btf_index.h) indexes. */
uint32_t btf_find_scan(const struct btf *btf, const char *name, int kind);
/* The validated section, as changed since (ext/btf/btf_fixup.c). */
const void *btf_raw(const struct btf *btf, size_t *size);
/* The bytes of a validated type's record, with what follows it. */
size_t btf_type_rec_size(const struct btf_type *t);
/* Where an upper layer keeps its cache of the BTF: one malloc'ed block,
 * which btf_free() frees; NULL until it is set. */
void **btf_cache(const struct btf *btf);

/* Every type's resolution (btf_skip_mods(), btf_type_size()) computed again,
 * after a change of sizes (ext/btf/btf_fixup.c). 0, or a negative errno. */
int btf_resolve(struct btf *btf);

/* A type record's info word made of its kind, vlen and kind_flag. */
#define BTF_INFO_ENC(kind, vlen, flag) (((uint32_t)(flag) << 31) | ((kind) << 24) | (vlen))
/* A record's kind, its vlen, and the entries that follow it. */
static inline int btf_kind(const struct btf_type *t) { return BTF_INFO_KIND(t->info); }
static inline uint16_t btf_vlen(const struct btf_type *t) { return BTF_INFO_VLEN(t->info); }
static inline const struct btf_member *btf_members(const struct btf_type *t)
{ return (const struct btf_member *)(t + 1); }
static inline const struct btf_var_secinfo *btf_secinfos(const struct btf_type *t)
{ return (const struct btf_var_secinfo *)(t + 1); }

#endif /* BPFSDK_BTF_H */
