// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * min_btf.c - the part of a kernel's BTF that objects' CO-RE relocations read, written as a
 * BTF file of its own (bpfsdk gen min-btf): a tool ships a few KiB per kernel instead of the
 * megabytes of /sys/kernel/btf/vmlinux, for kernels built without BTF.
 *
 * Every relocation is resolved again against the source BTF (the one the objects were opened
 * with), and what that resolution went through is kept: the root type, each member and array
 * element the access path follows (a struct keeps only those members, at their offsets, and
 * its size), the types they have (a struct behind a pointer kept by name and size alone),
 * typedefs and modifiers on the way, an enum whole for its values, a type to match whole.
 * Types keep their names and kinds, so the same relocation finds them again; type IDs are new.
 * Hence what the file cannot serve, and is refused: bpf_core_type_id_kernel(), whose value is
 * an ID of the kernel's own BTF, and types of kernel modules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext/co-re/co_re_obj.h"
#include "format/btf.h"
#include "co-re/co_re.h"
#include "co-re/kbtf.h"

struct member_key {
	uint32_t id;		/* the struct or union */
	uint32_t idx;		/* the member kept */
};

struct min_btf {
	const struct btf *src;
	uint32_t count;
	uint8_t *keep;		/* per source ID: 1 kept, 2 kept with every member */
	struct member_key *members;
	size_t nmembers, cap;
};

static int member_add(struct min_btf *m, uint32_t id, uint32_t idx)
{
	for (size_t i = 0; i < m->nmembers; i++)
		if (m->members[i].id == id && m->members[i].idx == idx)
			return 0;
	if (m->nmembers == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct member_key *bigger = realloc(m->members, cap * sizeof(*bigger));

		if (!bigger)
			return fail(ENOMEM);
		m->members = bigger;
		m->cap = cap;
	}
	m->members[m->nmembers++] = (struct member_key){ id, idx };
	return 0;
}

static bool member_kept(const struct min_btf *m, uint32_t id, uint32_t idx)
{
	if (m->keep[id] == 2)
		return true;
	for (size_t i = 0; i < m->nmembers; i++)
		if (m->members[i].id == id && m->members[i].idx == idx)
			return true;
	return false;
}

/* Keep id and what it refers to: through a pointer only the type's name, kind and size;
 * whole (deep) a struct's every member with their types. */
static int mark(struct min_btf *m, uint32_t id, bool deep, int depth)
{
	while (id) {
		const struct btf_type *t = btf_type_by_id(m->src, id);
		int err;

		if (!t || depth > 64)
			return fail(BSDK_EBTF);
		if (m->keep[id] == 2 || (m->keep[id] && !deep))
			return 0;
		m->keep[id] = 1;
		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
			deep = false;
			id = t->type;
			break;
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC:
			id = t->type;
			break;
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = (const void *)(t + 1);

			err = mark(m, a->index_type, false, depth + 1);
			if (err)
				return err;
			id = a->type;
			break;
		}
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			if (!deep)
				return 0;
			m->keep[id] = 2;
			for (uint16_t i = 0; i < btf_vlen(t); i++) {
				err = mark(m, btf_members(t)[i].type, true, depth + 1);
				if (err)
					return err;
			}
			return 0;
		case BTF_KIND_FUNC_PROTO:
			for (uint16_t i = 0; i < btf_vlen(t); i++) {
				err = mark(m, ((const struct btf_param *)(t + 1))[i].type, deep, depth + 1);
				if (err)
					return err;
			}
			id = t->type;
			break;
		default:	/* INT, ENUM, ENUM64, FLOAT, FWD: nothing more */
			return 0;
		}
		depth++;
	}
	return 0;
}

/* Keep what the resolved relocation r went through in the source: spec's path. */
static int mark_spec(struct min_btf *m, const struct co_re_relo *r, const struct co_re_spec *spec)
{
	uint32_t cur = spec->root_id;
	int err;

	if (r->kind == BSDK_CORE_TYPE_MATCHES)
		return mark(m, cur, true, 0);
	err = mark(m, cur, false, 0);
	if (err || r->kind == BSDK_CORE_ENUMVAL_EXISTS || r->kind == BSDK_CORE_ENUMVAL_VALUE ||
	    r->kind == BSDK_CORE_TYPE_EXISTS || r->kind == BSDK_CORE_TYPE_SIZE)
		return err;
	for (size_t i = 1; i < spec->nraw; i++) {
		uint32_t rid;
		const struct btf_type *t = btf_skip_mods(m->src, cur, &rid);

		if (!t)
			return fail(BSDK_EBTF);
		if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) {
			if (spec->raw[i] >= btf_vlen(t))
				return fail(BSDK_EBTF);
			err = member_add(m, rid, spec->raw[i]);
			cur = btf_members(t)[spec->raw[i]].type;
		} else if (btf_kind(t) == BTF_KIND_ARRAY) {
			cur = ((const struct btf_array *)(t + 1))->type;
		} else {
			return fail(BSDK_EBTF);
		}
		if (!err)
			err = mark(m, cur, false, 0);
		if (err)
			return err;
	}
	return 0;
}

/* A growing buffer of the output. */
struct out {
	char *p;
	size_t len, cap;
	bool nomem;
};

static void put(struct out *o, const void *data, size_t size)
{
	if (o->nomem)
		return;
	if (o->len + size > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 4096;
		char *bigger;

		while (cap < o->len + size)
			cap *= 2;
		bigger = realloc(o->p, cap);
		if (!bigger) {
			o->nomem = true;
			return;
		}
		o->p = bigger;
		o->cap = cap;
	}
	memcpy(o->p + o->len, data, size);
	o->len += size;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, sizeof(v)); }

/* A string's offset in the new string section (names are few: no sharing). */
static uint32_t put_str(struct out *strs, const struct btf *src, uint32_t off)
{
	const char *s = btf_str(src, off);
	uint32_t at = (uint32_t)strs->len;

	if (!s || !*s)
		return 0;
	put(strs, s, strlen(s) + 1);
	return at;
}

/* What follows type id's struct btf_type: its kind's entries, the kept members of a
 * struct or union, ids renumbered and names moved to strs. */
static void emit_after(const struct min_btf *m, const uint32_t *new_id, uint32_t id,
		       const struct btf_type *t, struct out *types, struct out *strs)
{
	uint16_t vlen = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		put(types, t + 1, 4);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);

		put_u32(types, new_id[a->type]);
		put_u32(types, new_id[a->index_type]);
		put_u32(types, a->nelems);
		break;
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (uint16_t i = 0; i < vlen; i++) {
			const struct btf_member *mb = &btf_members(t)[i];

			if (!member_kept(m, id, i))
				continue;
			put_u32(types, put_str(strs, m->src, mb->name_off));
			put_u32(types, new_id[mb->type]);
			put_u32(types, mb->offset);
		}
		break;
	case BTF_KIND_ENUM:
		for (uint16_t i = 0; i < vlen; i++) {
			const struct btf_enum *e = (const struct btf_enum *)(t + 1) + i;

			put_u32(types, put_str(strs, m->src, e->name_off));
			put_u32(types, (uint32_t)e->val);
		}
		break;
	case BTF_KIND_ENUM64:
		for (uint16_t i = 0; i < vlen; i++) {
			const struct btf_enum64 *e = (const struct btf_enum64 *)(t + 1) + i;

			put_u32(types, put_str(strs, m->src, e->name_off));
			put_u32(types, e->val_lo32);
			put_u32(types, e->val_hi32);
		}
		break;
	case BTF_KIND_FUNC_PROTO:
		for (uint16_t i = 0; i < vlen; i++) {
			const struct btf_param *p = (const struct btf_param *)(t + 1) + i;

			put_u32(types, put_str(strs, m->src, p->name_off));
			put_u32(types, new_id[p->type]);
		}
		break;
	default:	/* FWD, FLOAT and the reference kinds have nothing after them */
		break;
	}
}

/* The kept types, renumbered in their source order, and their names. */
static int emit(const struct min_btf *m, const uint32_t *new_id, struct out *types, struct out *strs)
{
	put(strs, "", 1);
	for (uint32_t id = 1; id < m->count; id++) {
		const struct btf_type *t = btf_type_by_id(m->src, id);
		int kind = btf_kind(t);
		uint16_t vlen = btf_vlen(t), kept = 0;
		uint32_t name, ref = t->type;

		if (!m->keep[id])
			continue;
		name = put_str(strs, m->src, t->name_off);
		if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION)
			for (uint16_t i = 0; i < vlen; i++)
				kept += member_kept(m, id, i);
		else
			kept = vlen;
		switch (kind) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC: case BTF_KIND_FUNC_PROTO:
			ref = new_id[t->type];
			if (t->type && !ref)
				return fail(BSDK_EBTF);
			break;
		default:	/* a size */
			break;
		}
		put_u32(types, name);
		put_u32(types, (t->info & ~0xffffu) | kept);
		put_u32(types, ref);
		emit_after(m, new_id, id, t, types, strs);
	}
	return types->nomem || strs->nomem ? fail(ENOMEM) : 0;
}

/* Which relocations a minimal BTF serves; NULL, or why not. */
static const char *unservable(const struct co_re_relo *r, const struct btf *vmlinux)
{
	if (r->kind == BSDK_CORE_TYPE_ID_TARGET)
		return "bpf_core_type_id_kernel() asks for an ID of the kernel's own BTF, which a minimal BTF renumbers";
	if (r->state == BSDK_CORE_RESOLVED && r->targ_id && r->targ_btf != vmlinux)
		return "its type is a kernel module's, and a minimal BTF holds vmlinux's types only";
	return NULL;
}

static int collect(struct min_btf *m, struct bsdk_obj *obj, const char *src_path, size_t *nrelos)
{
	size_t n;
	const struct co_re_relo *relos = co_re_obj_relos(obj, &n);

	for (size_t i = 0; i < n; i++) {
		struct co_re_relo r = relos[i];
		struct co_re_spec spec;
		const char *why = unservable(&r, m->src);
		int err;

		if (r.kind == BSDK_CORE_TYPE_ID_LOCAL)
			continue;	/* the object's own ID: no kernel type in it */
		if (why)
			return log_fail(BSDK_ENOTSUPP, "'%s': CO-RE relocation %u (%s %s): %s", obj->name,
					r.index, co_re_kind_name(r.kind), r.desc, why);
		if (r.state == BSDK_CORE_ERROR || r.state == BSDK_CORE_UNRESOLVED)
			return log_fail(BSDK_EBTF, "'%s': CO-RE relocation %u (%s %s) cannot be resolved "
					"against the source BTF: %s", obj->name, r.index,
					co_re_kind_name(r.kind), r.desc, r.note);
		(*nrelos)++;
		if (r.state != BSDK_CORE_RESOLVED || !r.targ_id)
			continue;	/* poisoned or absent: the type needs no place either */
		err = co_re_resolve_spec(obj->btf, &r, src_path, &spec);
		if (!err && (r.state != BSDK_CORE_RESOLVED || r.targ_id != relos[i].targ_id))
			err = log_fail(BSDK_EBTF, "'%s': CO-RE relocation %u resolved otherwise the second time",
				       obj->name, r.index);
		if (!err)
			err = mark_spec(m, &r, &spec);
		if (err)
			return err;
	}
	return 0;
}

/* Every relocation of objs resolved against the written file: the same state and value as
 * against the source, or an error naming the first that is not. */
static int verify(struct bsdk_obj *const *objs, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		struct bsdk_obj *obj = objs[i];
		size_t n_relos;
		const struct co_re_relo *relos = co_re_obj_relos(obj, &n_relos);

		for (size_t j = 0; j < n_relos; j++) {
			const struct co_re_relo *want = &relos[j];
			struct co_re_relo got = *want;
			int err = co_re_resolve(obj->btf, &got, path);

			if (err)
				return err;
			if (got.state != want->state ||
			    (got.state == BSDK_CORE_RESOLVED &&
			     (got.value != want->value || got.new_sz != want->new_sz)))
				return log_fail(BSDK_EBTF, "'%s': CO-RE relocation %u (%s %s) resolves to %llu "
						"against the minimal BTF but to %llu against the source%s%s",
						obj->name, want->index, co_re_kind_name(want->kind), want->desc,
						(unsigned long long)got.value, (unsigned long long)want->value,
						got.note[0] ? ": " : "", got.note);
		}
	}
	return 0;
}

int bsdk_btf_write_min(struct bsdk_obj *const *objs, size_t n, const char *path,
		       struct bsdk_min_btf_stats *stats)
{
	const char *src_path = n ? objs[0]->btf_path : NULL;
	struct min_btf m = { 0 };
	struct out types = { 0 }, strs = { 0 };
	struct btf_header hdr = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(hdr) };
	uint32_t *new_id = NULL, next = 1;
	size_t nrelos = 0;
	FILE *f = NULL;
	int err = 0;

	if (!n || !path)
		return log_fail(EINVAL, "a minimal BTF needs at least one object and a file to write");
	for (size_t i = 1; i < n; i++)
		if ((src_path || objs[i]->btf_path) &&
		    (!src_path || !objs[i]->btf_path || strcmp(src_path, objs[i]->btf_path)))
			return log_fail(EINVAL, "'%s' and '%s' were opened against different kernel BTF",
					objs[0]->name, objs[i]->name);
	m.src = kbtf_vmlinux(src_path);
	if (!m.src)
		return -errno;
	m.count = btf_type_count(m.src);
	m.keep = calloc(m.count, 1);
	new_id = calloc(m.count, sizeof(*new_id));
	if (!m.keep || !new_id) {
		err = fail(ENOMEM);
		goto out;
	}
	for (size_t i = 0; i < n && !err; i++)
		err = collect(&m, objs[i], src_path, &nrelos);
	for (uint32_t id = 1; id < m.count && !err; id++)
		if (m.keep[id])
			new_id[id] = next++;
	if (!err)
		err = emit(&m, new_id, &types, &strs);
	if (err)
		goto out;
	hdr.type_len = (uint32_t)types.len;
	hdr.str_off = (uint32_t)types.len;
	hdr.str_len = (uint32_t)strs.len;
	f = fopen(path, "we");
	if (!f || fwrite(&hdr, sizeof(hdr), 1, f) != 1 || fwrite(types.p, 1, types.len, f) != types.len ||
	    fwrite(strs.p, 1, strs.len, f) != strs.len || fflush(f)) {
		err = log_fail(errno ? errno : EIO, "cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		err = log_fail(errno, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	f = NULL;
	err = verify(objs, n, path);
	if (err) {
		unlink(path);
		goto out;
	}
	if (stats)
		*stats = (struct bsdk_min_btf_stats){ .types = next - 1, .bytes = sizeof(hdr) + types.len + strs.len,
			.source_types = m.count - 1, .relos = nrelos };
out:
	if (f && fclose(f) && !err)
		err = log_fail(errno, "cannot write '%s': %s", path, strerror(errno));
	free(types.p);
	free(strs.p);
	free(new_id);
	free(m.keep);
	free(m.members);
	return err;
}
