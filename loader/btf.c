// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf.c - parse the object's .BTF section: the type information clang
 * emits with -g. The loader needs it to read BTF-defined maps in ".maps"
 * (their key, value and limits are encoded as types, not as bytes).
 *
 * Layout (Documentation/bpf/btf.rst): a header, then the type section (a
 * sequence of struct btf_type records, each followed by a kind-specific
 * tail), then the string section. Type ID 0 is "void"; the first record is
 * ID 1. Everything here is checked once in btf_parse() - sizes, tails,
 * string offsets, referenced type IDs - so the accessors can trust it.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "internal.h"
#include "btf.h"

struct btf {
	void *raw;		/* our aligned copy of the section */
	size_t raw_size;
	struct btf_header hdr;
	const char *strs;
	uint32_t strs_len;
	const struct btf_type **types;	/* types[id], types[0] = NULL */
	uint32_t ntypes;		/* including void */
};

static int bad_btf(const char *what, uint32_t id)
{
	if (id)
		log_error(".BTF: type %u: %s", id, what);
	else
		log_error(".BTF: %s", what);
	return fail(BSDK_EBTF);
}

const char *btf_str(const struct btf *btf, uint32_t off)
{
	if (off >= btf->strs_len)
		return NULL;
	/* btf_parse() checked the section ends with a NUL. */
	return btf->strs + off;
}

const char *btf_name(const struct btf *btf, const struct btf_type *t)
{
	const char *name = btf_str(btf, t->name_off);

	return name ? name : "";
}

uint32_t btf_type_count(const struct btf *btf)
{
	return btf->ntypes;
}

const struct btf_type *btf_type_by_id(const struct btf *btf, uint32_t id)
{
	if (id == 0 || id >= btf->ntypes)
		return NULL;
	return btf->types[id];
}

const void *btf_raw(const struct btf *btf, size_t *size)
{
	*size = btf->raw_size;
	return btf->raw;
}

/* Size of the tail that follows a type record, or -1 for an unknown kind. */
static long tail_size(const struct btf_type *t)
{
	uint16_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(uint32_t);
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC: case BTF_KIND_FLOAT: case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	default:
		return -1;
	}
}

static int check_id(const struct btf *btf, uint32_t id, uint32_t ref)
{
	if (ref >= btf->ntypes)
		return bad_btf("refers to a type ID past the last type", id);
	return 0;
}

static int check_name(const struct btf *btf, uint32_t id, uint32_t off)
{
	if (off >= btf->strs_len)
		return bad_btf("name offset past the string section", id);
	return 0;
}

/* Second pass: every name offset and type ID a record holds is in range. */
static int check_type(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf->types[id];
	uint16_t vlen = BTF_INFO_VLEN(t->info);
	int err = check_name(btf, id, t->name_off);

	if (err)
		return err;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
	case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: case BTF_KIND_TYPE_TAG:
		return check_id(btf, id, t->type);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);

		err = check_id(btf, id, a->type);
		return err ? err : check_id(btf, id, a->index_type);
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		const struct btf_member *m = (const void *)(t + 1);

		for (uint16_t i = 0; i < vlen && !err; i++)
			err = check_name(btf, id, m[i].name_off) ?:
			      check_id(btf, id, m[i].type);
		return err;
	}
	case BTF_KIND_ENUM: {
		const struct btf_enum *e = (const void *)(t + 1);

		for (uint16_t i = 0; i < vlen && !err; i++)
			err = check_name(btf, id, e[i].name_off);
		return err;
	}
	case BTF_KIND_ENUM64: {
		const struct btf_enum64 *e = (const void *)(t + 1);

		for (uint16_t i = 0; i < vlen && !err; i++)
			err = check_name(btf, id, e[i].name_off);
		return err;
	}
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = (const void *)(t + 1);

		err = check_id(btf, id, t->type);
		for (uint16_t i = 0; i < vlen && !err; i++)
			err = check_name(btf, id, p[i].name_off) ?:
			      check_id(btf, id, p[i].type);
		return err;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = (const void *)(t + 1);

		for (uint16_t i = 0; i < vlen && !err; i++)
			err = check_id(btf, id, v[i].type);
		return err;
	}
	default:
		return 0;
	}
}

struct btf *btf_parse(const void *data, size_t size)
{
	struct btf *btf;
	const char *types_start;
	size_t off, cap = 64;
	int err = -BSDK_EBTF;

	if (size < sizeof(struct btf_header)) {
		bad_btf("shorter than its header", 0);
		return NULL;
	}
	btf = calloc(1, sizeof(*btf));
	if (!btf)
		return fail_ptr(ENOMEM);
	/* Copy into malloc'ed memory: the records are read as structs, and
	 * an ELF section may sit at any alignment in the file. */
	btf->raw = malloc(size);
	btf->types = calloc(cap, sizeof(*btf->types));
	if (!btf->raw || !btf->types) {
		err = -ENOMEM;
		goto out_err;
	}
	memcpy(btf->raw, data, size);
	btf->raw_size = size;
	memcpy(&btf->hdr, data, sizeof(btf->hdr));

	if (btf->hdr.magic != BTF_MAGIC) {
		bad_btf("bad magic (not BTF, or the other byte order)", 0);
		goto out_err;
	}
	if (btf->hdr.version != BTF_VERSION) {
		bad_btf("unknown version", 0);
		goto out_err;
	}
	if (btf->hdr.hdr_len < sizeof(struct btf_header) ||
	    btf->hdr.hdr_len > size ||
	    range_outside(btf->hdr.type_off, btf->hdr.type_len,
			  size - btf->hdr.hdr_len) ||
	    range_outside(btf->hdr.str_off, btf->hdr.str_len,
			  size - btf->hdr.hdr_len) ||
	    btf->hdr.type_off % 4) {
		bad_btf("header describes sections outside the data", 0);
		goto out_err;
	}
	btf->strs = (const char *)btf->raw + btf->hdr.hdr_len + btf->hdr.str_off;
	btf->strs_len = btf->hdr.str_len;
	if (btf->strs_len == 0 || btf->strs[0] != '\0' ||
	    btf->strs[btf->strs_len - 1] != '\0') {
		bad_btf("string section must start and end with NUL", 0);
		goto out_err;
	}

	types_start = (const char *)btf->raw + btf->hdr.hdr_len + btf->hdr.type_off;
	btf->ntypes = 1;
	for (off = 0; off < btf->hdr.type_len;) {
		const struct btf_type *t = (const void *)(types_start + off);
		long tail;

		if (btf->hdr.type_len - off < sizeof(*t)) {
			bad_btf("type section ends inside a type record", btf->ntypes);
			goto out_err;
		}
		tail = tail_size(t);
		if (tail < 0) {
			bad_btf("unknown kind", btf->ntypes);
			goto out_err;
		}
		if ((size_t)tail > btf->hdr.type_len - off - sizeof(*t)) {
			bad_btf("record runs past the type section", btf->ntypes);
			goto out_err;
		}
		if (btf->ntypes == cap) {
			const struct btf_type **grown;

			cap *= 2;
			grown = realloc(btf->types, cap * sizeof(*grown));
			if (!grown) {
				err = -ENOMEM;
				goto out_err;
			}
			btf->types = grown;
		}
		btf->types[btf->ntypes++] = t;
		off += sizeof(*t) + (size_t)tail;
	}
	for (uint32_t id = 1; id < btf->ntypes; id++)
		if (check_type(btf, id))
			goto out_err;
	return btf;

out_err:
	btf_free(btf);
	return fail_ptr(-err);
}

void btf_free(struct btf *btf)
{
	if (!btf)
		return;
	free(btf->raw);
	free(btf->types);
	free(btf);
}

const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t id,
				     uint32_t *res_id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	/* A chain longer than the number of types is a loop. */
	for (uint32_t hops = 0; t && hops < btf->ntypes; hops++) {
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			t = btf_type_by_id(btf, id);
			continue;
		default:
			if (res_id)
				*res_id = id;
			return t;
		}
	}
	return NULL;
}

int btf_type_size(const struct btf *btf, uint32_t id, uint64_t *size)
{
	uint64_t nelems = 1;

	for (uint32_t hops = 0; hops < btf->ntypes; hops++) {
		const struct btf_type *t = btf_skip_mods(btf, id, &id);

		if (!t)
			return fail(BSDK_EBTF);
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_FLOAT:
		case BTF_KIND_DATASEC:
			if (__builtin_mul_overflow(nelems, (uint64_t)t->size, size))
				return fail(BSDK_EBTF);
			return 0;
		case BTF_KIND_PTR:
			if (__builtin_mul_overflow(nelems, (uint64_t)8, size))
				return fail(BSDK_EBTF);
			return 0;
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = (const void *)(t + 1);

			if (__builtin_mul_overflow(nelems, (uint64_t)a->nelems,
						   &nelems))
				return fail(BSDK_EBTF);
			id = a->type;
			continue;
		}
		case BTF_KIND_VAR:
			id = t->type;
			continue;
		default:
			return fail(BSDK_EBTF);
		}
	}
	return fail(BSDK_EBTF);
}

uint32_t btf_find(const struct btf *btf, const char *name, int kind)
{
	for (uint32_t id = 1; id < btf->ntypes; id++) {
		const struct btf_type *t = btf->types[id];

		if ((int)BTF_INFO_KIND(t->info) == kind &&
		    strcmp(btf_name(btf, t), name) == 0)
			return id;
	}
	return 0;
}
