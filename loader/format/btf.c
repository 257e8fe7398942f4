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
#include <unistd.h>

#include "format/btf.h"
#include "format/elf.h"

struct btf {
	void *raw;		/* our aligned copy of the section, or the caller's */
	size_t raw_size;
	bool owns_raw;		/* btf_free() frees raw */
	struct btf_header hdr;
	const char *strs;
	uint32_t strs_len;		/* own strings and the base's */
	const struct btf_type **types;	/* types[id - first_id] */
	uint32_t ntypes;		/* all IDs: void, the base's, ours */
	/* Every own type resolved once, by btf_resolve(), index id - first_id:
	 * what btf_skip_mods() returns (0: void or nothing) and
	 * btf_type_size() (NO_SIZE: none). */
	uint32_t *res;
	uint64_t *size;
	uint32_t loop_from, loop_to;	/* the first loop found, 0 for none */
	const char *obj;		/* the object's name, for messages */
	/* Split BTF (a kernel module's) continues a base (vmlinux): its first type ID is the
	 * base's count, its string offsets start after the base's strings. */
	const struct btf *base;
	uint32_t first_id;		/* 1, or the base's type count */
	uint32_t first_str;		/* 0, or the base's string length */
	/* An upper layer's cache of this BTF (btf_find()'s index,
	 * co-re/btf_index.c): one block, freed with it. */
	void *cache;
};

/* A type record of our own; id in [first_id, ntypes). */
static inline const struct btf_type *own_type(const struct btf *btf, uint32_t id)
{
	return btf->types[id - btf->first_id];
}

static int bad_btf(const char *obj, const char *what, uint32_t id)
{
	if (id)
		log_error("'%s': .BTF: type %u: %s", obj, id, what);
	else
		log_error("'%s': .BTF: %s", obj, what);
	return fail(BSDK_EBTF);
}

const char *btf_str(const struct btf *btf, uint32_t off)
{
	if (off >= btf->strs_len)
		return NULL;
	if (off < btf->first_str)
		return btf_str(btf->base, off);
	/* btf_parse() checked the section ends with a NUL. */
	return btf->strs + (off - btf->first_str);
}

const char *btf_name(const struct btf *btf, const struct btf_type *t)
{
	const char *name = btf_str(btf, t->name_off);

	return name ? name : "";
}

uint32_t btf_type_count(const struct btf *btf) { return btf->ntypes; }
uint32_t btf_first_id(const struct btf *btf) { return btf->first_id; }

const struct btf_type *btf_type_by_id(const struct btf *btf, uint32_t id)
{
	if (id == 0 || id >= btf->ntypes)
		return NULL;
	if (id < btf->first_id)
		return btf_type_by_id(btf->base, id);
	return own_type(btf, id);
}

const struct btf *btf_base(const struct btf *btf) { return btf->base; }

const void *btf_raw(const struct btf *btf, size_t *size)
{
	*size = btf->raw_size;
	return btf->raw;
}

/* What follows each kind's record: fixed bytes, then vlen entries of each
 * bytes; in an entry, the 32-bit word holding a name offset and the one
 * holding a type ID (-1: none); ref: the record's type field is a type ID. */
static const struct {
	uint8_t fixed, each;
	int8_t name_at, type_at;
	bool ref;
} kinds[] = {
	[BTF_KIND_INT] = { 4, 0, -1, -1, false },
	[BTF_KIND_PTR] = { 0, 0, -1, -1, true },
	[BTF_KIND_ARRAY] = { sizeof(struct btf_array), 0, -1, -1, false },
	[BTF_KIND_STRUCT] = { 0, sizeof(struct btf_member), 0, 1, false },
	[BTF_KIND_UNION] = { 0, sizeof(struct btf_member), 0, 1, false },
	[BTF_KIND_ENUM] = { 0, sizeof(struct btf_enum), 0, -1, false },
	[BTF_KIND_FWD] = { 0, 0, -1, -1, false },
	[BTF_KIND_TYPEDEF] = { 0, 0, -1, -1, true },
	[BTF_KIND_VOLATILE] = { 0, 0, -1, -1, true },
	[BTF_KIND_CONST] = { 0, 0, -1, -1, true },
	[BTF_KIND_RESTRICT] = { 0, 0, -1, -1, true },
	[BTF_KIND_FUNC] = { 0, 0, -1, -1, true },
	[BTF_KIND_FUNC_PROTO] = { 0, sizeof(struct btf_param), 0, 1, true },
	[BTF_KIND_VAR] = { sizeof(struct btf_var), 0, -1, -1, true },
	[BTF_KIND_DATASEC] = { 0, sizeof(struct btf_var_secinfo), -1, 0, false },
	[BTF_KIND_FLOAT] = { 0, 0, -1, -1, false },
	[BTF_KIND_DECL_TAG] = { sizeof(struct btf_decl_tag), 0, -1, -1, true },
	[BTF_KIND_TYPE_TAG] = { 0, 0, -1, -1, true },
	[BTF_KIND_ENUM64] = { 0, sizeof(struct btf_enum64), 0, -1, false },
};

/* Size of the tail that follows a type record, or -1 for an unknown kind. */
static long tail_size(const struct btf_type *t)
{
	int kind = btf_kind(t);

	if (kind == BTF_KIND_UNKN || (size_t)kind >= ARRAY_SIZE(kinds))
		return -1;
	return kinds[kind].fixed + (long)btf_vlen(t) * kinds[kind].each;
}

/* Second pass: every name offset and type ID a record holds is in range. */
static int check_type(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = own_type(btf, id);
	const uint32_t *tail = (const uint32_t *)(t + 1);
	int kind = btf_kind(t);
	bool bad_id = kinds[kind].ref && t->type >= btf->ntypes;

	if (t->name_off >= btf->strs_len)
		return bad_btf(btf->obj, "name offset past the string section", id);
	if (kind == BTF_KIND_ARRAY)	/* element and index types */
		bad_id = tail[0] >= btf->ntypes || tail[1] >= btf->ntypes;
	for (uint16_t i = 0; i < btf_vlen(t) && kinds[kind].each; i++) {
		const uint32_t *e = tail + i * kinds[kind].each / 4;

		if (kinds[kind].name_at >= 0 && e[kinds[kind].name_at] >= btf->strs_len)
			return bad_btf(btf->obj, "name offset past the string section", id);
		if (kinds[kind].type_at >= 0 && e[kinds[kind].type_at] >= btf->ntypes)
			bad_id = true;
	}
	if (bad_id)
		return bad_btf(btf->obj, "refers to a type ID past the last type", id);
	return 0;
}

/* Check the header and the string section, then find every type record:
 * each must lie whole inside the type section and be of a known kind. */
static int btf_index(struct btf *btf, size_t size)
{
	const struct btf_header *h = &btf->hdr;
	const char *types;
	size_t off, cap = 0;

	if (h->magic != BTF_MAGIC)
		return bad_btf(btf->obj, "bad magic (not BTF, or the other byte order)", 0);
	if (h->version != BTF_VERSION)
		return bad_btf(btf->obj, "unknown version", 0);
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size ||
	    range_outside(h->type_off, h->type_len, size - h->hdr_len) ||
	    range_outside(h->str_off, h->str_len, size - h->hdr_len) ||
	    (h->hdr_len + h->type_off) % 4)
		return bad_btf(btf->obj, "header describes sections outside the data", 0);
	btf->strs = (const char *)btf->raw + h->hdr_len + h->str_off;
	/* A split BTF's strings may be empty, and need not start with NUL: offset 0 is the base's. */
	if ((h->str_len == 0 && !btf->base) ||
	    (h->str_len && btf->strs[h->str_len - 1] != '\0') ||
	    (!btf->base && btf->strs[0] != '\0'))
		return bad_btf(btf->obj, "string section must start and end with NUL", 0);
	if (__builtin_add_overflow(h->str_len, btf->first_str, &btf->strs_len))
		return bad_btf(btf->obj, "string section too large", 0);

	types = (const char *)btf->raw + h->hdr_len + h->type_off;
	btf->ntypes = btf->first_id;
	for (off = 0; off < h->type_len;) {
		const struct btf_type *t = (const void *)(types + off);
		long tail;

		if (h->type_len - off < sizeof(*t))
			return bad_btf(btf->obj, "type section ends inside a type record", btf->ntypes);
		tail = tail_size(t);
		if (tail < 0)
			return bad_btf(btf->obj, "unknown kind", btf->ntypes);
		if ((size_t)tail > h->type_len - off - sizeof(*t))
			return bad_btf(btf->obj, "record runs past the type section", btf->ntypes);
		if (btf->ntypes - btf->first_id >= cap) {
			const struct btf_type **grown;

			/* a record takes at least 12 bytes: a first guess that rarely grows */
			cap = cap ? cap * 2 : h->type_len / 32 + 16;
			grown = realloc(btf->types, cap * sizeof(*grown));
			if (!grown)
				return fail(ENOMEM);
			btf->types = grown;
		}
		if (btf->ntypes == UINT32_MAX)
			return bad_btf(btf->obj, "too many types", 0);
		btf->types[btf->ntypes++ - btf->first_id] = t;
		off += sizeof(*t) + (size_t)tail;
	}
	for (uint32_t id = btf->first_id; id < btf->ntypes; id++)
		if (check_type(btf, id))
			return -BSDK_EBTF;
	return btf_resolve(btf);
}

/* Parse raw (4-byte aligned, size bytes), which the btf uses in place; owned: btf_free()
 * frees it. */
static struct btf *parse_in_place(void *raw, size_t size, bool owned, const struct btf *base,
				  const char *obj)
{
	struct btf *btf;
	int err;

	if (size < sizeof(struct btf_header)) {
		bad_btf(obj, "shorter than its header", 0);
		if (owned)
			free(raw);
		return fail_ptr(BSDK_EBTF);
	}
	btf = calloc(1, sizeof(*btf));
	if (!btf) {
		if (owned)
			free(raw);
		return fail_ptr(ENOMEM);
	}
	btf->raw = raw;
	btf->owns_raw = owned;
	btf->raw_size = size;
	btf->obj = obj;
	btf->base = base;
	btf->first_id = base ? base->ntypes : 1;
	btf->first_str = base ? base->strs_len : 0;
	memcpy(&btf->hdr, raw, sizeof(btf->hdr));
	err = btf_index(btf, size);
	if (err) {
		btf_free(btf);
		return fail_ptr(-err);
	}
	return btf;
}

struct btf *btf_parse_split(const void *data, size_t size, const struct btf *base,
			   const char *obj)
{
	/* Copy into malloc'ed memory: the records are read as structs, and
	 * an ELF section may sit at any alignment in the file. */
	void *raw = malloc(size ? size : 1);

	if (!raw)
		return fail_ptr(ENOMEM);
	memcpy(raw, data, size);
	return parse_in_place(raw, size, true, base, obj);
}

struct btf *btf_parse_borrowed(const void *data, size_t size, const struct btf *base,
			       const char *obj)
{
	if ((uintptr_t)data % 4) {
		bad_btf(obj, "not aligned to 4 bytes in memory", 0);
		return fail_ptr(EINVAL);
	}
	return parse_in_place((void *)(uintptr_t)data, size, false, base, obj);
}

struct btf *btf_parse(const void *data, size_t size, const char *obj)
{
	return btf_parse_split(data, size, NULL, obj);
}

void btf_free(struct btf *btf)
{
	if (!btf)
		return;
	if (btf->owns_raw)
		free(btf->raw);
	free(btf->types);
	free(btf->res);
	free(btf->size);
	free(btf->cache);
	free(btf);
}

/* ---- Resolution. Typedefs, modifiers, arrays and variables each lead to
 * one other type; every walk the loader does follows these edges. They
 * are followed once for all types here, each type settled when the one it
 * leads to is, so a chain of a million typedefs costs a million steps
 * however often it is asked about. A chain that loops resolves to nothing,
 * and btf_loop() names it: an object's BTF with one is refused at open. */

#define NO_SIZE UINT64_MAX

static bool is_mod(int kind)
{
	return kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_VOLATILE ||
	       kind == BTF_KIND_CONST || kind == BTF_KIND_RESTRICT ||
	       kind == BTF_KIND_TYPE_TAG;
}

/* The type t leads to, if it is of a kind that leads somewhere. */
static bool chain_next(const struct btf_type *t, uint32_t *next)
{
	int kind = btf_kind(t);

	if (kind == BTF_KIND_ARRAY) {
		*next = ((const struct btf_array *)(t + 1))->type;
		return true;
	}
	if (is_mod(kind) || kind == BTF_KIND_VAR) {
		*next = t->type;
		return true;
	}
	return false;
}

/* The resolved type and the size of any ID, ours or the base's. */
static uint32_t res_of(const struct btf *btf, uint32_t id)
{
	if (id == 0)
		return 0;
	return id < btf->first_id ? res_of(btf->base, id) : btf->res[id - btf->first_id];
}

static uint64_t size_of(const struct btf *btf, uint32_t id)
{
	if (id == 0)
		return NO_SIZE;
	return id < btf->first_id ? size_of(btf->base, id) : btf->size[id - btf->first_id];
}

/* Settle our type id, whose successor is settled. */
static void settle(struct btf *btf, uint32_t id)
{
	const struct btf_type *t = own_type(btf, id);
	const struct btf_array *a = (const void *)(t + 1);
	uint32_t *res = &btf->res[id - btf->first_id];
	uint64_t *size = &btf->size[id - btf->first_id];

	*res = id;
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		*res = res_of(btf, t->type);
		*size = size_of(btf, t->type);
		break;
	case BTF_KIND_VAR:
		*size = size_of(btf, t->type);
		break;
	case BTF_KIND_ARRAY:
		if (size_of(btf, a->type) == NO_SIZE ||
		    __builtin_mul_overflow((uint64_t)a->nelems, size_of(btf, a->type), size))
			*size = NO_SIZE;
		break;
	case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_FLOAT:
	case BTF_KIND_DATASEC:
		*size = t->size;
		break;
	case BTF_KIND_PTR:
		*size = 8;
		break;
	default:
		*size = NO_SIZE;
	}
}

/* Fill btf->res and btf->size; again after the sizes of DATASECs change.
 * Each chain is walked until it meets a settled type (the base's are), keeping
 * the path, then settled backwards: every type is visited once. */
int btf_resolve(struct btf *btf)
{
	uint32_t first = btf->first_id, n = btf->ntypes - first;
	uint32_t *path = malloc((n ? n : 1) * sizeof(*path));
	uint8_t *state = calloc(n ? n : 1, 1);	/* 0 new, 1 on the path, 2 settled */
	int err = 0;

	if (!btf->res)
		btf->res = malloc((n ? n : 1) * sizeof(*btf->res));
	if (!btf->size)
		btf->size = malloc((n ? n : 1) * sizeof(*btf->size));
	if (!path || !state || !btf->res || !btf->size) {
		err = fail(ENOMEM);
		goto out;
	}
	for (uint32_t id = first; id < btf->ntypes && !err; id++) {
		uint32_t len = 0, cur = id;
		bool loop = false;

		for (;;) {
			if (cur < first || state[cur - first]) {
				/* earlier walks settled all they saw: this one is ours */
				loop = cur >= first && state[cur - first] == 1;
				break;
			}
			state[cur - first] = 1;
			path[len++] = cur;
			if (!chain_next(own_type(btf, cur), &cur))
				break;
		}
		if (loop && !btf->loop_from) {
			btf->loop_from = path[len - 1];
			btf->loop_to = cur;
		}
		/* a loop, and what leads into it, resolves to nothing */
		while (len) {
			uint32_t i = path[--len] - first;

			if (loop) {
				btf->res[i] = 0;
				btf->size[i] = NO_SIZE;
			} else {
				settle(btf, path[len]);
			}
			state[i] = 2;
		}
	}
out:
	free(path);
	free(state);
	return err;
}

uint32_t btf_loop(const struct btf *btf, uint32_t *to)
{
	*to = btf->loop_to;
	return btf->loop_from;
}

const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	if (id >= btf->ntypes || res_of(btf, id) == 0)
		return NULL;
	id = res_of(btf, id);
	if (res_id)
		*res_id = id;
	return btf_type_by_id(btf, id);
}

int btf_type_size(const struct btf *btf, uint32_t id, uint64_t *size)
{
	if (id >= btf->ntypes || size_of(btf, id) == NO_SIZE)
		return fail(BSDK_EBTF);
	*size = size_of(btf, id);
	return 0;
}

uint32_t btf_find_scan(const struct btf *btf, const char *name, int kind)
{
	for (uint32_t id = 1; id < btf->ntypes; id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (btf_kind(t) == kind && strcmp(btf_name(btf, t), name) == 0)
			return id;
	}
	return 0;
}

size_t btf_type_rec_size(const struct btf_type *t)
{
	return sizeof(*t) + (size_t)tail_size(t);
}

/* a cache: the types stay as they are */
void **btf_cache(const struct btf *btf) { return &((struct btf *)btf)->cache; }
