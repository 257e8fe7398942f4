// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_types.c - the object's BTF for callers of the library: find a type,
 * describe it or one of its members, and the struct BPFSDK_RECORD() names
 * for a map. The parsing and checking stay in btf.c; the printer is
 * btf_print.c.
 *
 * struct bsdk_btf is the public name of the loader's struct btf: the
 * handle is never anything but a cast of it.
 */
#include "object/object.h"
#include "co-re/btf_index.h"
#include "format/btf.h"
#include "readers/print/btf_print.h"

#define BTF(b) ((const struct btf *)(b))

const struct bsdk_btf *bsdk_obj_btf(const struct bsdk_obj *obj)
{
	if (!obj->btf)
		return fail_ptr(ENOENT);
	return (const struct bsdk_btf *)obj->btf;
}

struct bsdk_btf *bsdk_btf_new(const void *data, size_t size)
{
	return (struct bsdk_btf *)btf_parse(data, size, "BTF");
}

void bsdk_btf_free(struct bsdk_btf *btf) { btf_free((struct btf *)btf); }

uint32_t bsdk_btf_type_count(const struct bsdk_btf *btf) { return btf_type_count(BTF(btf)); }

int bsdk_btf_find_type(const struct bsdk_btf *btf, const char *name)
{
	const struct btf *b = BTF(btf);
	uint32_t id = btf_find(b, name, BTF_KIND_STRUCT);

	if (!id)
		id = btf_find(b, name, BTF_KIND_UNION);
	if (!id)
		id = btf_find(b, name, BTF_KIND_TYPEDEF);
	for (uint32_t i = 1; !id && i < btf_type_count(b); i++) {
		const struct btf_type *t = btf_type_by_id(b, i);
		int kind = btf_kind(t);

		if (kind != BTF_KIND_VAR && kind != BTF_KIND_FUNC && kind != BTF_KIND_DECL_TAG &&
		    kind != BTF_KIND_DATASEC && strcmp(btf_name(b, t), name) == 0)
			id = i;
	}
	return id ? (int)id : fail(ENOENT);
}

bool btfp_is_char(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	if (!t || btf_kind(t) != BTF_KIND_INT || t->size != 1)
		return false;
	name = btf_name(btf, t);
	return (BTF_INT_ENCODING(*(const uint32_t *)(t + 1)) & BTF_INT_CHAR) ||
	       strcmp(name, "char") == 0 || strcmp(name, "signed char") == 0;
}

/* Whether a member of this type takes one column: a scalar or a string. */
static bool is_column(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_skip_mods(btf, id, NULL);

	if (!t)
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
	case BTF_KIND_PTR: case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_ARRAY:
		return btfp_is_char(btf, btf_skip_mods(btf, ((const struct btf_array *)(t + 1))->type,
						       NULL));
	default:
		return false;
	}
}

bool btfp_is_flat(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);

	if (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION)
		return false;
	if (btf_vlen(t) == 0)
		return false;
	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (!*btf_name(btf, (const void *)&m[i]) || !is_column(btf, m[i].type))
			return false;
	return true;
}

/* Where the struct's last member starts when it is an array, else size. */
static uint64_t tail_start(const struct btf *btf, const struct btf_type *t, uint64_t size)
{
	const struct btf_member *m = btf_members(t), *last = NULL;
	bool kflag = BTF_INFO_KFLAG(t->info);
	uint64_t last_off = 0;

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		uint64_t off = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;

		if (!last || off >= last_off)
			last = &m[i], last_off = off;
	}
	t = last ? btf_skip_mods(btf, last->type, NULL) : NULL;
	/* a struct that is only an array has no fixed part to check */
	if (!t || btf_kind(t) != BTF_KIND_ARRAY || last_off == 0 || last_off / 8 > size)
		return size;
	return last_off / 8;
}

static int describe(const struct btf *btf, uint32_t id, struct bsdk_btf_info *info)
{
	const struct btf_type *t = btf_skip_mods(btf, id, &id);
	uint64_t size;

	if (!t || btf_type_size(btf, id, &size))
		return fail(BSDK_EBTF);
	info->type_id = id;
	info->kind = btf_kind(t);
	info->name = btf_name(btf, t);
	info->size = size;
	info->fixed_size = size;
	switch (info->kind) {
	case BTF_KIND_INT:
		info->is_signed = BTF_INT_ENCODING(*(const uint32_t *)(t + 1)) & BTF_INT_SIGNED;
		break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		info->is_signed = BTF_INFO_KFLAG(t->info);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);
		const struct btf_type *e = btf_skip_mods(btf, a->type, &info->elem_type_id);

		if (!e || btf_type_size(btf, info->elem_type_id, &info->elem_size))
			return fail(BSDK_EBTF);
		info->nelems = a->nelems;
		info->is_string = btfp_is_char(btf, e);
		break;
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		info->flat = btfp_is_flat(btf, t);
		if (info->kind == BTF_KIND_STRUCT)
			info->fixed_size = tail_start(btf, t, size);
		break;
	}
	return 0;
}

/* Find member name in struct or union t, looking into anonymous members
 * (depth-limited: BTF may make a struct hold itself). */
static const struct btf_member *find_member(const struct btf *btf, const struct btf_type *t,
					    const char *name, uint64_t *bits, bool *owner_kflag,
					    int depth)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);

	if (depth > 8 || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION))
		return NULL;
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf_name(btf, (const void *)&m[i]);
		uint64_t off = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;

		if (strcmp(mname, name) == 0) {
			*bits += off;
			*owner_kflag = kflag;
			return &m[i];
		}
		if (!*mname) {
			const struct btf_type *in = btf_skip_mods(btf, m[i].type, NULL);
			uint64_t inner = *bits + off;
			const struct btf_member *found;

			if (in && (found = find_member(btf, in, name, &inner, owner_kflag, depth + 1))) {
				*bits = inner;
				return found;
			}
		}
	}
	return NULL;
}

int bsdk_btf_info(const struct bsdk_btf *btf, uint32_t id, const char *name,
		  struct bsdk_btf_info *info)
{
	const struct btf *b = BTF(btf);
	const struct btf_member *m;
	const struct btf_type *t;
	uint64_t bits = 0;
	bool kflag = false;
	int err;

	memset(info, 0, sizeof(*info));
	if (!name)
		return describe(b, id, info);
	t = btf_skip_mods(b, id, NULL);
	if (!t)
		return fail(BSDK_EBTF);
	m = find_member(b, t, name, &bits, &kflag, 0);
	if (!m)
		return fail(ENOENT);
	err = describe(b, m->type, info);
	if (err)
		return err;
	info->member = btf_name(b, (const void *)m);
	if (kflag)
		info->bitfield = BTF_MEMBER_BITFIELD_SIZE(m->offset);
	info->offset = bits / 8;
	return 0;
}

bool bsdk_btf_is_int(const struct bsdk_btf_info *i)
{
	return (i->kind == BTF_KIND_INT || i->kind == BTF_KIND_ENUM) && !i->bitfield &&
	       (i->size == 1 || i->size == 2 || i->size == 4 || i->size == 8);
}

bool bsdk_btf_is_int_array(const struct bsdk_btf *btf, const struct bsdk_btf_info *i)
{
	struct bsdk_btf_info e;

	return i->kind == BTF_KIND_ARRAY && !i->is_string && i->nelems &&
	       !bsdk_btf_info(btf, i->elem_type_id, NULL, &e) && e.kind == BTF_KIND_INT &&
	       (e.size == 1 || e.size == 2 || e.size == 4 || e.size == 8);
}

int bsdk_btf_member(const struct bsdk_btf *btf, uint32_t id, uint32_t i,
		    struct bsdk_btf_info *info)
{
	const struct btf *b = BTF(btf);
	const struct btf_type *t = btf_skip_mods(b, id, NULL);
	const struct btf_member *m;
	bool kflag;
	int err;

	memset(info, 0, sizeof(*info));
	if (!t)
		return fail(BSDK_EBTF);
	if (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION)
		return fail(EINVAL);
	if (i >= btf_vlen(t))
		return fail(ERANGE);
	m = &btf_members(t)[i];
	kflag = BTF_INFO_KFLAG(t->info);
	err = describe(b, m->type, info);
	if (err)
		return err;
	info->member = btf_name(b, (const void *)m);
	info->offset = (kflag ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset) / 8;
	info->bitfield = kflag ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;
	return 0;
}

uint32_t bsdk_map_btf_key_type(const struct bsdk_map *map) { return map->btf_key_type_id; }
uint32_t bsdk_map_btf_value_type(const struct bsdk_map *map) { return map->btf_value_type_id; }

int bsdk_map_record_type(const struct bsdk_map *map)
{
	const struct btf *b = map->obj->btf;
	size_t plen = strlen(BPFSDK_RECORD_TAG);

	if (!b)
		return fail(ENOENT);
	for (uint32_t i = 1; i < btf_type_count(b); i++) {
		const struct btf_type *tag = btf_type_by_id(b, i);
		const struct btf_type *var = btf_type_by_id(b, tag->type);
		const char *name = btf_name(b, tag);
		uint32_t id;

		if (btf_kind(tag) != BTF_KIND_DECL_TAG || strncmp(name, BPFSDK_RECORD_TAG, plen) ||
		    ((const struct btf_decl_tag *)(tag + 1))->component_idx != -1 ||
		    !var || btf_kind(var) != BTF_KIND_VAR || strcmp(btf_name(b, var), map->name))
			continue;
		id = btf_find(b, name + plen, BTF_KIND_STRUCT);
		if (!id)
			return obj_fail(map->obj, BSDK_EBTF,
					"map '%s': BPFSDK_RECORD(%s) names no struct of the object",
					map->name, name + plen);
		return (int)id;
	}
	return fail(ENOENT);
}
