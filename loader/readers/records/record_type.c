// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * record_type.c - which struct the records of a PERF_EVENT_ARRAY or RINGBUF
 * map have, and where that was learnt.
 *
 * In this order:
 *  1. BPFSDK_RECORD(NAME) in front of the map (btf_types.c).
 *  2. The program's own code. clang writes into .BTF only the types of
 *     globals and function signatures, so the usual `struct event e = {};
 *     ... bpf_perf_event_output(ctx, &events, flags, &e, sizeof(e))`, or a
 *     `struct event *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0)`, leaves
 *     struct event out of it. The object's DWARF (clang -g) has it: every
 *     call of bpf_perf_event_output(), bpf_ringbuf_output() or
 *     bpf_ringbuf_reserve() whose map argument is the map's address (the
 *     ld_imm64 relocated against it) names the struct of the variable whose
 *     stack slot the data argument points to, or else of the one variable in
 *     scope at the call that is, or points to, a struct of the program's own
 *     of the size passed. Every call must agree.
 *  3. At the first record, by size: the only struct of the program's own
 *     files the record fits.
 * "The program's own" keeps kernel structs out of every guess: a struct
 * declared in vmlinux.h, in a system header or in a BPF SDK header
 * (bpf_*.h), or that a CO-RE relocation reads (its name, or a ___flavour of
 * it), is never chosen by 2's scope rule or by 3. Several candidates choose
 * nothing: the caller prints hex and names them.
 *
 * DWARF is read through elfutils' libdw. A type found there is written as a
 * BTF of its own (dwarf_btf.c) unless the object's .BTF has a struct of
 * that name and size, which is then used as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "readers/records/record_type.h"
#include "ext/btf/btf_ext.h"
#include "ext/btf/btf_load.h"
#include "co-re/btf_index.h"
#include "format/btf.h"
#include "readers/print/btf_print.h"
#include "co-re/co_re.h"
#include "readers/records/dwarf_btf.h"

/* ---- the BTF the printer uses */

static int add_kernel_name(struct bsdk_records *r, const char *name, size_t len)
{
	char **grown;

	for (size_t j = 0; j < r->ncore_roots; j++)
		if (strlen(r->co_re_roots[j]) == len && strncmp(r->co_re_roots[j], name, len) == 0)
			return 0;
	grown = realloc(r->co_re_roots, (r->ncore_roots + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->co_re_roots = grown;
	grown[r->ncore_roots] = strndup(name, len);
	if (!grown[r->ncore_roots])
		return -ENOMEM;
	r->ncore_roots++;
	return 0;
}

/* The kernel's types as the object sees them: the root type of every CO-RE relocation and
 * every struct, union or enum it holds or points to, each by its essential name
 * (task_struct___x is task_struct). None of them is the program's own record. */
static int collect_core_roots(struct bsdk_records *r)
{
	const struct bsdk_obj *obj = r->obj;
	const struct btf_ext *x = btf_ext_of(obj);
	uint32_t n = obj->btf ? btf_type_count(obj->btf) : 0, *stack, top = 0;
	bool *seen;
	int err = 0;

	if (!obj->btf || !x || !x->ncore)
		return 0;
	seen = calloc(n, sizeof(*seen));
	stack = calloc(n, sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -ENOMEM;
	}
	for (size_t i = 0; i < x->ncore; i++)
		if (x->core[i].rec.type_id < n && !seen[x->core[i].rec.type_id]) {
			seen[x->core[i].rec.type_id] = true;
			stack[top++] = x->core[i].rec.type_id;
		}
	while (!err && top) {
		const struct btf_type *t = btf_type_by_id(obj->btf, stack[--top]);
		const char *name = t ? btf_name(obj->btf, t) : "", *cut = strstr(name, "___");
		int kind = t ? btf_kind(t) : 0;
		uint32_t next[1];
		size_t nnext = 0;

		if (!t)
			continue;
		if (*name && (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION ||
			      kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64 ||
			      kind == BTF_KIND_TYPEDEF))
			err = add_kernel_name(r, name, cut ? (size_t)(cut - name) : strlen(name));
		if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) {
			const struct btf_member *m = btf_members(t);

			for (uint16_t k = 0; k < btf_vlen(t); k++)
				if (m[k].type < n && !seen[m[k].type]) {
					seen[m[k].type] = true;
					stack[top++] = m[k].type;
				}
		} else if (kind == BTF_KIND_ARRAY) {
			next[nnext++] = ((const struct btf_array *)(t + 1))->type;
		} else if (kind == BTF_KIND_PTR || kind == BTF_KIND_TYPEDEF ||
			   kind == BTF_KIND_CONST || kind == BTF_KIND_VOLATILE ||
			   kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG) {
			next[nnext++] = t->type;
		}
		for (size_t k = 0; k < nnext; k++)
			if (next[k] < n && !seen[next[k]]) {
				seen[next[k]] = true;
				stack[top++] = next[k];
			}
	}
	free(seen);
	free(stack);
	return err;
}

/* A new found entry, kept in r (its address stays: r->found holds pointers). */
static struct found *found_add(struct bsdk_records *r, Dwarf_Off off, const char *name,
			       uint64_t size)
{
	struct found **grown = realloc(r->found, (r->nfound + 1) * sizeof(*grown));
	struct found *f;

	if (!grown)
		return fail_ptr(ENOMEM);
	r->found = grown;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->name = strdup(name))) {
		free(f);
		return fail_ptr(ENOMEM);
	}
	f->off = off;
	f->size = size;
	r->found[r->nfound++] = f;
	return f;
}

/* The found entry of DWARF type t, converted to BTF on first use. */
static struct found *found_of(struct bsdk_records *r, Dwarf_Die *t)
{
	Dwarf_Off off = dwarf_dieoffset(t);

	for (size_t i = 0; i < r->nfound; i++)
		if (r->found[i]->off == off)
			return r->found[i];
	return found_add(r, off, records_die_name(t), records_die_size(t));
}

static int convert(struct bsdk_records *r, struct found *f)
{
	Dwarf_Die die;
	uint32_t id;
	uint64_t size;

	if (f->converted)
		return f->id ? 0 : -EOPNOTSUPP;
	f->converted = true;
	/* the object's own .BTF has it when a global or a signature uses it */
	if (r->obj->btf && *f->name) {
		id = btf_find(r->obj->btf, f->name, BTF_KIND_STRUCT);
		if (!id)
			id = btf_find(r->obj->btf, f->name, BTF_KIND_UNION);
		if (!id)
			id = btf_find(r->obj->btf, f->name, BTF_KIND_TYPEDEF);
		if (id && btf_type_size(r->obj->btf, id, &size) == 0 && size == f->size) {
			f->id = id;
			return 0;
		}
	}
	if (!dwarf_offdie(r->dw, f->off, &die))
		return -EOPNOTSUPP;
	f->own = dwarf_type_to_btf(&die, r->obj->name, &id);
	if (!f->own)
		return -errno;
	f->id = id;
	return 0;
}

static void fill(struct bsdk_records *r, const struct found *f, struct bsdk_record_type *t)
{
	t->btf = (const struct bsdk_btf *)(f->own ? f->own : r->obj->btf);
	t->type_id = f->id;
	t->name = *f->name ? f->name : "(anonymous)";
	t->layout = f->own ? "DWARF" : "BTF";
}

static const char *const source_names[] = {
	[BSDK_RECORD_NONE] = "none",
	[BSDK_RECORD_ANNOTATION] = "annotation",
	[BSDK_RECORD_DWARF_LOCAL] = "DWARF local",
	[BSDK_RECORD_SIZE] = "size rule",
	[BSDK_RECORD_AMBIGUOUS] = "ambiguous",
	[BSDK_RECORD_NAMED] = "by name",
};

static void set_source(struct bsdk_record_type *t, enum bsdk_record_source src)
{
	t->source = src;
	t->source_name = source_names[src];
}

/* Append "name" to a ", "-separated list. */
static int list_add(char **list, const char *name)
{
	char *s;

	if (*list && (strcmp(*list, name) == 0 || strstr(*list, name)))
		for (const char *p = *list; (p = strstr(p, name)); p += strlen(name))
			if ((p == *list || p[-1] == ' ') && (p[strlen(name)] == ',' || !p[strlen(name)]))
				return 0;
	if (asprintf(&s, "%s%s%s", *list ? *list : "", *list ? ", " : "", name) < 0)
		return -ENOMEM;
	free(*list);
	*list = s;
	return 0;
}

static int analyse(struct bsdk_records *r, size_t mi, struct map_rec *m)
{
	const struct bsdk_map *map = &r->obj->maps[mi];
	struct found *chosen = NULL;
	struct site *sites = NULL;
	size_t nsites = 0, nprogs = 0;
	int id, err;

	set_source(&m->t, BSDK_RECORD_NONE);
	id = bsdk_map_record_type(map);
	if (id == -BSDK_EBTF)
		return id;
	if (id > 0) {
		set_source(&m->t, BSDK_RECORD_ANNOTATION);
		m->t.btf = (const struct bsdk_btf *)r->obj->btf;
		m->t.type_id = (uint32_t)id;
		m->t.name = btf_name(r->obj->btf, btf_type_by_id(r->obj->btf, (uint32_t)id));
		m->t.layout = "BTF";
		return 0;
	}
	if (!r->dw || (map->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY && map->type != BPF_MAP_TYPE_RINGBUF))
		return 0;
	err = records_sites_find(r->obj, mi, &sites, &nsites);
	for (size_t i = 0; !err && i < nsites; i++) {
		struct cand c;
		struct found *f;
		int got = records_site_type(r, &sites[i], &c);

		if (got < 0) {
			err = got;
			break;
		}
		if (!got)
			continue;
		f = found_of(r, &c.type);
		if (!f) {
			err = -errno;
			break;
		}
		if (chosen && f != chosen && (strcmp(f->name, chosen->name) || f->size != chosen->size)) {
			err = list_add(&m->cands, chosen->name);
			if (!err)
				err = list_add(&m->cands, f->name);
			continue;
		}
		if (!chosen) {
			chosen = f;
			m->prog = strdup(sites[i].func);
			m->var = c.var ? strdup(c.var) : NULL;
			if (!m->prog || (c.var && !m->var))
				err = -ENOMEM;
		}
		nprogs++;
	}
	free(sites);
	if (err)
		return err;
	if (m->cands) {
		set_source(&m->t, BSDK_RECORD_AMBIGUOUS);
		m->t.candidates = m->cands;
		return 0;
	}
	if (!chosen)
		return 0;
	err = convert(r, chosen);
	if (err == -ENOMEM)
		return err;
	if (err)		/* said why; the size rule may still find one */
		return 0;
	set_source(&m->t, BSDK_RECORD_DWARF_LOCAL);
	fill(r, chosen, &m->t);
	m->t.prog = m->prog;
	m->t.variable = m->var;
	return 0;
}

static bool has_debug_info(const struct bsdk_obj *obj)
{
	for (size_t i = 0; i < obj->file.nsecs; i++)
		if (obj->file.secs[i].name && strcmp(obj->file.secs[i].name, ".debug_info") == 0)
			return true;
	return false;
}

/* libdw calls this when an allocation fails deep inside it and cannot be
 * returned from (its own handler prints "libdw: ..." and exits): say it as
 * the one error line the process ends with. */
__attribute__((noreturn)) static void records_oom(void)
{
	log_error("out of memory while reading DWARF");
	exit(1);
}

struct bsdk_records *bsdk_records_new(const struct bsdk_obj *obj)
{
	struct bsdk_records *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return fail_ptr(ENOMEM);
	r->obj = obj;
	r->maps = calloc(obj->nmaps ? obj->nmaps : 1, sizeof(*r->maps));
	if (!r->maps) {
		free(r);
		return fail_ptr(ENOMEM);
	}
	/* libdw reads the object where the loader's libelf handle has it; an object without
	 * DWARF (no -g, or stripped) opens as none, but one with DWARF that libdw could not
	 * open (no memory) must not be shown as one without */
	r->dw = dwarf_begin_elf(obj->file.elf, DWARF_C_READ, NULL);
	if (!r->dw && has_debug_info(obj)) {
		log_error("'%s': cannot read its DWARF: %s", obj->name, dwarf_errmsg(-1));
		bsdk_records_free(r);
		return fail_ptr(ENOMEM);
	}
	if (r->dw)
		dwarf_new_oom_handler(r->dw, records_oom);
	err = collect_core_roots(r);
	if (err) {
		bsdk_records_free(r);
		return fail_ptr(-err);
	}
	return r;
}

void bsdk_records_free(struct bsdk_records *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfound; i++) {
		free(r->found[i]->name);
		btf_free(r->found[i]->own);
		free(r->found[i]);
	}
	for (size_t i = 0; i < r->obj->nmaps; i++) {
		free(r->maps[i].cands);
		free(r->maps[i].prog);
		free(r->maps[i].var);
	}
	for (size_t i = 0; i < r->ncore_roots; i++)
		free(r->co_re_roots[i]);
	free(r->co_re_roots);
	free(r->found);
	free(r->maps);
	free(r->size_cands);
	if (r->dw)
		dwarf_end(r->dw);
	free(r);
}

bool bsdk_records_have_dwarf(const struct bsdk_records *r) { return r->dw != NULL; }

int bsdk_records_map_type(struct bsdk_records *r, const struct bsdk_map *map,
			  struct bsdk_record_type *t)
{
	size_t mi;
	int err;

	if (!r || !map || !t || map->obj != r->obj)
		return fail(EINVAL);
	mi = (size_t)(map - r->obj->maps);
	if (!r->maps[mi].done) {
		err = analyse(r, mi, &r->maps[mi]);
		if (err)
			return fail(-err);
		r->maps[mi].done = true;
	}
	*t = r->maps[mi].t;
	return 0;
}

/* Named structs and unions of the program's own files in DWARF, each once. */
static int dwarf_own_structs(struct bsdk_records *r, Dwarf_Die *die, int depth,
			     int (*cb)(struct bsdk_records *, Dwarf_Die *, void *), void *arg)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child), err = 0;

		if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) &&
		    !dwarf_hasattr(&child, DW_AT_declaration) && records_own_struct(r, &child))
			err = cb(r, &child, arg);
		if (!err && (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			     tag == DW_TAG_structure_type || tag == DW_TAG_union_type))
			err = dwarf_own_structs(r, &child, depth + 1, cb, arg);
		if (err)
			return err;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

struct by_size {
	uint64_t size;
	bool perf;
	struct found *one;
	size_t n;
	const char *find;	/* bsdk_records_find(): the name */
};

/* Records of a PERF_EVENT_ARRAY are padded so that size + data is a multiple of 8. */
static bool fits(uint64_t type_size, uint64_t rec, bool perf)
{
	uint64_t most = perf ? ((type_size + 4 + 7) & ~(uint64_t)7) - 4 : type_size;

	return type_size && type_size <= rec && rec <= most;
}

static int size_cb(struct bsdk_records *r, Dwarf_Die *t, void *arg)
{
	struct by_size *b = arg;
	struct found *f;

	if (b->find ? strcmp(records_die_name(t), b->find) != 0 : !fits(records_die_size(t), b->size, b->perf))
		return 0;
	f = found_of(r, t);
	if (!f)
		return -errno;
	if (b->one && (strcmp(b->one->name, f->name) == 0 && b->one->size == f->size))
		return 0;	/* one struct seen from two places */
	b->n++;
	if (!b->one)
		b->one = f;
	return list_add(&r->size_cands, f->name);
}

static int walk_own(struct bsdk_records *r, struct by_size *b)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int err = 0;

	free(r->size_cands);
	r->size_cands = NULL;
	while (!err && dwarf_nextcu(r->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(r->dw, off + hsize, &cu))
			err = dwarf_own_structs(r, &cu, 0, size_cb, b);
		off = next;
	}
	return err;
}

/* Without DWARF: BTF's named structs that no CO-RE relocation, function signature or kernel
 * type leads to - those a global or a map of the program's own names. */
static int btf_by_size(struct bsdk_records *r, struct by_size *b)
{
	const struct btf *btf = r->obj->btf;
	uint32_t n = btf ? btf_type_count(btf) : 0, one = 0;

	free(r->size_cands);
	r->size_cands = NULL;
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf_type_by_id(btf, i);
		const char *name = btf_name(btf, t);
		uint64_t size;
		bool core = false;

		if ((btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) || !*name ||
		    strstr(name, "___") || btf_type_size(btf, i, &size) || !fits(size, b->size, b->perf))
			continue;
		for (size_t j = 0; j < r->ncore_roots && !core; j++)
			core = strcmp(r->co_re_roots[j], name) == 0;
		if (core)
			continue;
		if (list_add(&r->size_cands, name))
			return -ENOMEM;
		b->n++;
		one = i;
	}
	if (b->n == 1) {
		uint64_t size = 0;
		struct found *f;

		btf_type_size(btf, one, &size);
		f = found_add(r, (Dwarf_Off)-1, btf_name(btf, btf_type_by_id(btf, one)), size);
		if (!f)
			return -ENOMEM;
		f->id = one;
		f->converted = true;
		b->one = f;
	}
	return 0;
}

int bsdk_records_by_size(struct bsdk_records *r, const struct bsdk_map *map, uint64_t size,
			 struct bsdk_record_type *t)
{
	struct by_size b = { .size = size };
	int err;

	if (!r || !map || !t || map->obj != r->obj)
		return fail(EINVAL);
	b.perf = map->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	memset(t, 0, sizeof(*t));
	set_source(t, BSDK_RECORD_NONE);
	err = r->dw ? walk_own(r, &b) : btf_by_size(r, &b);
	if (err)
		return fail(-err);
	if (b.n > 1) {
		set_source(t, BSDK_RECORD_AMBIGUOUS);
		t->candidates = r->size_cands;
		return 0;
	}
	if (b.n == 0)
		return 0;
	err = convert(r, b.one);
	if (err == -ENOMEM)
		return fail(ENOMEM);
	if (err)
		return 0;
	set_source(t, BSDK_RECORD_SIZE);
	fill(r, b.one, t);
	return 0;
}

/* Every named struct or union of DWARF, own or not: --type may name any. */
static int any_struct(struct bsdk_records *r, Dwarf_Die *die, struct by_size *b, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
		     tag == DW_TAG_typedef) && !dwarf_hasattr(&child, DW_AT_declaration) &&
		    strcmp(records_die_name(&child), b->find) == 0) {
			b->one = found_of(r, &child);
			return b->one ? 1 : -errno;
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block) {
			int got = any_struct(r, &child, b, depth + 1);

			if (got)
				return got;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int bsdk_records_find(struct bsdk_records *r, const char *name, struct bsdk_record_type *t)
{
	struct by_size b = { .find = name };
	Dwarf_Off off = 0, next;
	size_t hsize;
	int id, got = 0, err;

	if (!r || !name || !t)
		return fail(EINVAL);
	memset(t, 0, sizeof(*t));
	set_source(t, BSDK_RECORD_NAMED);
	id = r->obj->btf ? bsdk_btf_find_type((const struct bsdk_btf *)r->obj->btf, name) : -ENOENT;
	if (id > 0) {
		t->btf = (const struct bsdk_btf *)r->obj->btf;
		t->type_id = (uint32_t)id;
		t->name = btf_name(r->obj->btf, btf_type_by_id(r->obj->btf, (uint32_t)id));
		t->layout = "BTF";
		return 0;
	}
	while (r->dw && !got && dwarf_nextcu(r->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(r->dw, off + hsize, &cu))
			got = any_struct(r, &cu, &b, 0);
		off = next;
	}
	if (got < 0)
		return fail(-got);
	if (!got)
		return fail(ENOENT);
	err = convert(r, b.one);
	if (err)
		return fail(-err);
	fill(r, b.one, t);
	return 0;
}
