// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_decl.c - a BTF type written as the C declaration user space needs to
 * lay out the same bytes: what `bpfsdk gen skeleton` puts in the structs
 * that mirror .rodata, .data and .bss.
 *
 * The declaration describes memory, not the program's intent, so it is
 * simpler than the type: qualifiers go (user space writes .rodata before
 * load), pointers become 8-byte integers (a BPF pointer is 64 bits whatever
 * the host), enums integers of their size (their definition would clash
 * with the user's own header), and typedefs the type they name unless they
 * are the fixed-size integers every user-space program has. The names are
 * the object's: an integer keeps its name only when that is a C integer
 * type of its size here, and a struct tag or member that is no C
 * identifier makes the type one C cannot declare.
 */
#include <stdarg.h>
#include <stdio.h>

#include "object/object.h"
#include "format/btf.h"
#include "tool/c_ident.h"

/* How many typedefs, qualifiers and arrays one declaration may go through,
 * and how deep anonymous structs may nest: BTF is input, loops are bounded. */
#define DECL_MAX_HOPS 64
#define DECL_MAX_DEPTH 16

struct out {
	char *buf;
	size_t size;
	size_t len;	/* what the whole text needs, as snprintf() counts */
};

__attribute__((format(printf, 2, 3)))
static void out_add(struct out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* The typedef names kept as they are: <linux/types.h> and <stdint.h> define them. */
static bool typedef_known(const char *name)
{
	static const char *const known[] = {
		"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
		"__be16", "__be32", "__be64", "__le16", "__le32", "__le64",
		"uint8_t", "uint16_t", "uint32_t", "uint64_t",
		"int8_t", "int16_t", "int32_t", "int64_t", "bool",
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (strcmp(name, known[i]) == 0)
			return true;
	return false;
}

/* An integer's BTF name when it is a C type name of that size on this host
 * (what clang writes: "int", "long unsigned int", "_Bool"), else NULL: BTF
 * is input, and its names go into C as they are. */
static const char *int_c_name(const char *name, uint32_t size)
{
	static const struct { const char *name; uint32_t size; } c_ints[] = {
		{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 }, { "_Bool", 1 },
		{ "short", 2 }, { "short int", 2 }, { "unsigned short", 2 },
		{ "short unsigned int", 2 }, { "unsigned short int", 2 },
		{ "int", 4 }, { "signed int", 4 }, { "unsigned int", 4 }, { "unsigned", 4 },
		{ "long", sizeof(long) }, { "long int", sizeof(long) },
		{ "unsigned long", sizeof(long) }, { "long unsigned int", sizeof(long) },
		{ "unsigned long int", sizeof(long) },
		{ "long long", 8 }, { "long long int", 8 }, { "unsigned long long", 8 },
		{ "long long unsigned int", 8 }, { "unsigned long long int", 8 },
		{ "__int128", 16 }, { "unsigned __int128", 16 }, { "__int128 unsigned", 16 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(c_ints); i++)
		if (c_ints[i].size == size && strcmp(name, c_ints[i].name) == 0)
			return name;
	return NULL;
}

static const char *int_of_size(uint32_t size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? "__s8" : "__u8";
	case 2: return is_signed ? "__s16" : "__u16";
	case 4: return is_signed ? "__s32" : "__u32";
	case 8: return is_signed ? "__s64" : "__u64";
	default: return NULL;
	}
}

static int decl(const struct btf *btf, uint32_t id, const char *name, struct out *o,
		int depth);

/* The members of struct or union t, each "decl;" */
static int members(const struct btf *btf, const struct btf_type *t, struct out *o, int depth)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		uint32_t bits = kflag ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;
		int err;

		out_add(o, " ");
		err = decl(btf, m[i].type, btf_str(btf, m[i].name_off), o, depth + 1);
		if (err)
			return err;
		if (bits)
			out_add(o, " : %u", bits);
		out_add(o, ";");
	}
	return 0;
}

/* Follows qualifiers, typedefs a reader would not know and arrays (their
 * dimensions go to d) down to the type the declaration is built on; *base
 * is set when that is a typedef a reader knows. NULL when the chain is
 * broken or too long. */
static const struct btf_type *decl_peel(const struct btf *btf, uint32_t id, struct out *d,
					const char **base)
{
	const struct btf_type *t;
	int hops = 0;

	for (;;) {
		t = btf_type_by_id(btf, id);
		if (!t || ++hops > DECL_MAX_HOPS)
			return NULL;
		switch (btf_kind(t)) {
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case BTF_KIND_TYPEDEF:
			if (typedef_known(btf_name(btf, t))) {
				*base = btf_name(btf, t);
				return t;
			}
			id = t->type;
			continue;
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = (const void *)(t + 1);

			out_add(d, "[%u]", a->nelems);
			id = a->type;
			continue;
		}
		default:
			return t;
		}
	}
}

/* The C name of an integer, pointer, enum or float; NULL for any other kind. */
static const char *decl_scalar_base(const struct btf *btf, const struct btf_type *t)
{
	const char *base;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		base = int_c_name(btf_name(btf, t), t->size);
		if (!base)
			base = int_of_size(t->size, BTF_INT_ENCODING(*(const uint32_t *)(t + 1)) & BTF_INT_SIGNED);
		return base;
	case BTF_KIND_PTR:
		return "__u64";
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return int_of_size(t->size, BTF_INFO_KFLAG(t->info));
	case BTF_KIND_FLOAT:
		return t->size == 4 ? "float" : t->size == 8 ? "double" :
		       t->size == 16 ? "long double" : NULL;
	default:	/* void, functions, variables, sections */
		return NULL;
	}
}

/* A struct or union by its name, or spelled out when it has none. */
static int decl_aggregate(const struct btf *btf, const struct btf_type *t, struct out *o, int depth)
{
	const char *kw = btf_kind(t) == BTF_KIND_STRUCT ? "struct" : "union";
	int err;

	if (*btf_name(btf, t)) {
		if (!c_ident_ok(btf_name(btf, t)))
			return fail(BSDK_EBTF);
		out_add(o, "%s %s", kw, btf_name(btf, t));
		return 0;
	}
	out_add(o, "%s {", kw);
	err = members(btf, t, o, depth);
	if (err)
		return err;
	out_add(o, " }");
	return 0;
}

static int decl(const struct btf *btf, uint32_t id, const char *name, struct out *o, int depth)
{
	char dims[256];
	struct out d = { dims, sizeof(dims), 0 };
	const struct btf_type *t;
	const char *base = NULL;
	int err;

	dims[0] = '\0';
	if (depth > DECL_MAX_DEPTH)
		return fail(BSDK_EBTF);
	t = decl_peel(btf, id, &d, &base);
	if (!t)
		return fail(BSDK_EBTF);
	if (d.len >= d.size)
		return fail(BSDK_EBTF);	/* absurdly many dimensions */

	if (!base && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION)) {
		err = decl_aggregate(btf, t, o, depth);
		if (err)
			return err;
	} else {
		if (!base)
			base = decl_scalar_base(btf, t);
		if (!base || !*base)
			return fail(BSDK_EBTF);
		out_add(o, "%s", base);
	}
	if (name && *name && !c_ident_ok(name))
		return fail(BSDK_EBTF);
	if (name && *name)
		out_add(o, " %s", name);
	out_add(o, "%s", dims);
	return 0;
}

int bsdk_btf_c_decl(const struct bsdk_btf *btf, uint32_t id, const char *name, char *buf,
		    size_t size)
{
	struct out o = { buf, size, 0 };
	int err;

	if (!btf || (!buf && size))
		return fail(EINVAL);
	if (size)
		buf[0] = '\0';
	err = decl((const struct btf *)btf, id, name, &o, 0);
	if (err)
		return err;
	if (o.len > INT32_MAX)
		return fail(E2BIG);
	return (int)o.len;
}
