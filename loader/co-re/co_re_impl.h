/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * co_re_impl.h - what the CO-RE engine's two files share: co_re.c (the local
 * side, the values, the instruction) and co_re_match.c (the target side:
 * does a kernel type have what the local one has). Not installed.
 */
#ifndef BPFSDK_CORE_IMPL_H
#define BPFSDK_CORE_IMPL_H

#include "base/base.h"
#include "co-re/btf_index.h"
#include "co-re/co_re.h"

static inline bool kind_is_field(enum bsdk_core_kind k) { return k <= BSDK_CORE_FIELD_RSHIFT_U64; }
static inline bool kind_is_enumval(enum bsdk_core_kind k)
{
	return k == BSDK_CORE_ENUMVAL_EXISTS || k == BSDK_CORE_ENUMVAL_VALUE;
}
static inline bool kind_is_exists(enum bsdk_core_kind k)
{
	return k == BSDK_CORE_FIELD_EXISTS || k == BSDK_CORE_TYPE_EXISTS ||
	       k == BSDK_CORE_TYPE_MATCHES || k == BSDK_CORE_ENUMVAL_EXISTS;
}

static inline bool is_composite(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION;
}

static inline bool is_enum(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_ENUM || btf_kind(t) == BTF_KIND_ENUM64;
}

/* Member i's bit offset and bitfield size (0: not a bitfield). */
static inline uint32_t member_bit_off(const struct btf_type *t, uint16_t i)
{
	uint32_t off = btf_members(t)[i].offset;

	return BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(off) : off;
}

static inline uint32_t member_bitfield(const struct btf_type *t, uint16_t i)
{
	uint32_t off = btf_members(t)[i].offset;

	return BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BITFIELD_SIZE(off) : 0;
}

/* btf_skip_mods(), also through typedefs (which btf_skip_mods() already does). */
static inline const struct btf_type *resolve(const struct btf *btf, uint32_t id, uint32_t *res)
{
	return btf_skip_mods(btf, id, res);
}

static inline bool names_match(const char *a, const char *b)
{
	size_t n = btf_essential_len(a);

	return n == btf_essential_len(b) && strncmp(a, b, n) == 0;
}

/* *bits += idx elements of sz bytes; false on overflow. */
static inline bool add_elems(uint64_t *bits, uint64_t idx, uint64_t sz)
{
	uint64_t b;

	return !__builtin_mul_overflow(idx, sz, &b) && !__builtin_mul_overflow(b, 8, &b) &&
	       !__builtin_add_overflow(*bits, b, bits);
}

/* Whether the array a reached through accessor prev (a member) is a flexible one: zero
 * elements, and the last member of its struct. */
static inline bool is_flex(const struct btf *btf, const struct co_re_acc *prev, const struct btf_array *a)
{
	const struct btf_type *t = prev && prev->name ? btf_type_by_id(btf, prev->type_id) : NULL;

	return a->nelems == 0 && t && prev->idx + 1 == btf_vlen(t);
}

/* What a relocation's value is, given where its access string led. */
struct calc {
	uint64_t val;
	uint32_t sz;		/* FIELD_BYTE_OFFSET, not a bitfield: the field's size */
	bool ptr_or_uint;	/* that field may be loaded with another size */
	bool validate;		/* clang's value must be this one (not so for bitfields) */
};

/* Follow r's access string in the local BTF into *spec: NULL, or why not. */
const char *co_re_local_spec(const struct btf *btf, const struct co_re_relo *r,
			    struct co_re_spec *spec);
/* The value r asks for at the end of spec, into *c: NULL, or why there is none. */
const char *co_re_value(const struct co_re_relo *r, const struct co_re_spec *s, struct calc *c);
/* Enumerator i of enum t: its name. */
const char *co_re_enum_name(const struct btf *btf, const struct btf_type *t, uint32_t i);

#endif /* BPFSDK_CORE_IMPL_H */
