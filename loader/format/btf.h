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
/* First type of this kind and name, 0 when none. */
uint32_t btf_find(const struct btf *btf, const char *name, int kind);
/* The validated section, for BPF_BTF_LOAD. */
const void *btf_raw(const struct btf *btf, size_t *size);

/* BTF kinds younger than BTF itself; bit f of a "missing" mask. */
enum btf_feature {
	FEAT_GLOBAL_FUNC,	/* FUNC linkage in vlen, 5.6 */
	FEAT_DATASEC,		/* VAR and DATASEC, 5.2 */
	FEAT_FLOAT,		/* 5.13 */
	FEAT_DECL_TAG,		/* 5.16 */
	FEAT_TYPE_TAG,		/* 5.17 */
	FEAT_ENUM64,		/* 6.0 */
	FEAT_COUNT
};

/* A malloc'ed copy of the BTF with the kinds in missing rewritten into
 * older ones, keeping every type ID; its size goes to *size. */
void *btf_sanitize(const struct btf *btf, unsigned int missing, size_t *size);
/* btf_load.c: the BTF, sanitised for the running kernel, loaded into it:
 * its fd, or -1 after a warning naming obj (a program loads without BTF). */
int btf_load_kernel(const struct btf *btf, const char *obj);

/* A type record's info word. */
#define BTF_INFO_ENC(kind, vlen, flag) (((uint32_t)(flag) << 31) | ((kind) << 24) | (vlen))

/* Every type's resolution (btf_skip_mods(), btf_type_size()) computed again,
 * after a change of sizes (btf_fixup.c). 0, or a negative errno. */
int btf_resolve(struct btf *btf);

struct elf_file;
/* btf_fixup.c: fill in each DATASEC's size and its variables' offsets from the ELF file
 * (clang leaves them 0). 0 or -ENOMEM. */
int btf_fixup_datasecs(struct btf *btf, const struct elf_file *ef);
/* Give global functions of hidden visibility (__hidden) static linkage in
 * BTF, so the verifier checks them with their caller's context. */
void btf_mark_hidden_static(struct btf *btf, const struct elf_file *ef);

/* The length of name's essential part: up to a "___" that starts a flavour suffix
 * ("task_struct___old" -> 11), all of it when there is none. */
size_t btf_essential_len(const char *name);

/* A record's kind, its vlen, and the entries that follow it. */
static inline int btf_kind(const struct btf_type *t) { return BTF_INFO_KIND(t->info); }
static inline uint16_t btf_vlen(const struct btf_type *t) { return BTF_INFO_VLEN(t->info); }
static inline const struct btf_member *btf_members(const struct btf_type *t)
{ return (const struct btf_member *)(t + 1); }
static inline const struct btf_var_secinfo *btf_secinfos(const struct btf_type *t)
{ return (const struct btf_var_secinfo *)(t + 1); }

#endif /* BPFSDK_BTF_H */
