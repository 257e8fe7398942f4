// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * record_kfields.c - where the values a program stores in its records come
 * from, so that `bpfsdk run` shows them as the tool's own user space does:
 * a port copied from the kernel's __be16 skc_dport is printed by the tool
 * with ntohs(), an address copied from __be32 skc_daddr or struct in6_addr
 * skc_v6_daddr with inet_ntop().
 *
 * One walk of each function's instructions follows what the registers
 * hold: a stack slot, the record bpf_ringbuf_reserve() gave for the map, a
 * kernel field's value (a load that a CO-RE relocation points at a
 * member: BPF_CORE_READ() in a tp_btf program, a tracepoint context read
 * through vmlinux.h's preserve_access_index), or a kernel field's address
 * (an offset a CO-RE relocation gives, as bpf_probe_read_kernel()'s
 * source). A store of such a value, or a bpf_probe_read_kernel() of such an
 * address, into the record or into a stack slot that an output call sends,
 * ties a record offset to the kernel field; a byte swap on the way
 * (bpf_ntohs(): BPF_END) says the program put it in host order itself.
 * The record may also be a map's value (libbpf-tools' compat heap: a
 * per-CPU array's value filled and sent with bpf_perf_event_output()), and
 * a pointer spilled to the stack comes back when it is filled.
 * Registers meet at the forward jumps' targets (a value that differs on two
 * paths is unknown); what is stored is remembered for the whole function.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readers/records/record_type.h"
#include "ext/btf/btf_ext.h"
#include "ext/btf/btf_load.h"
#include "readers/print/btf_print_out.h"
#include "format/btf.h"

#define HELPER_MAP_LOOKUP_ELEM 1
#define HELPER_PROBE_READ 4
#define HELPER_PERF_EVENT_OUTPUT 25
#define HELPER_PROBE_READ_KERNEL 113
#define HELPER_RINGBUF_OUTPUT 130
#define HELPER_RINGBUF_RESERVE 131

enum kk { K_UNKNOWN, K_STACK, K_REC, K_HEAP, K_MAP, K_CONST, K_COREOFF, K_KPTR, K_KVAL };

struct kreg {
	enum kk kind;
	bool swapped;		/* K_KVAL: byte-swapped since the load */
	int32_t field;		/* K_COREOFF, K_KPTR, K_KVAL: the CO-RE relocation's index;
				 * K_HEAP: the map whose value it points into */
	int64_t v;		/* K_STACK, K_REC, K_HEAP: offset; K_MAP: index; K_CONST */
};

/* Where a store lands: the stack, the record the map's reserve gave, or a map's value. */
#define AT_STACK (-1)
#define AT_REC (-2)

/* A store the walk saw: a kernel value, bytes copied from the kernel, or a spilled pointer,
 * at an offset of the stack, the record or a map's value. */
struct ktag {
	int32_t at;		/* AT_STACK, AT_REC, or a map's index */
	int64_t off;
	uint32_t size;
	int32_t field;
	bool swapped;
	bool copy;		/* bytes copied (bpf_probe_read_kernel()), not a register stored */
	struct kreg spill;	/* a pointer spilled to the stack (kind K_UNKNOWN: none) */
};

struct walk {
	const struct bsdk_obj *obj;
	size_t map;
	int32_t *core;		/* per instruction: the CO-RE relocation on it, or -1 */
	struct ktag *tags;
	size_t ntags;
	struct ktag *out;	/* the record's: offsets in the record */
	size_t nout;
	int err;
};

static bool reg_eq(const struct kreg *a, const struct kreg *b)
{
	return a->kind == b->kind && a->swapped == b->swapped && a->field == b->field &&
	       a->v == b->v;
}

static void tag_add(struct walk *w, struct ktag **v, size_t *n, struct ktag t)
{
	struct ktag *grown;

	if (w->err || *n >= 4096)	/* a bound on the work; records have fewer members */
		return;
	for (size_t i = 0; i < *n; i++) {	/* several paths store the same */
		const struct ktag *o = &(*v)[i];

		if (o->at == t.at && o->off == t.off && o->size == t.size &&
		    o->field == t.field && o->swapped == t.swapped && o->copy == t.copy &&
		    reg_eq(&o->spill, &t.spill))
			return;
	}
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (!grown) {
		w->err = -ENOMEM;
		return;
	}
	*v = grown;
	grown[(*n)++] = t;
}

static bool same(const struct kreg *a, const struct kreg *b)
{
	for (int i = 0; i < 11; i++)
		if (!reg_eq(&a[i], &b[i]))
			return false;
	return true;
}

/* The paths into an instruction, each with what the registers hold on it: a register
 * differing between two paths (an address on one, a constant on the other) stays known on
 * each, as long as there are few; past MAX_PATHS, the last one keeps only what they agree on. */
#define MAX_PATHS 8
struct paths {
	size_t n;
	struct kreg r[MAX_PATHS][11];
};

static void paths_add(struct paths *into, const struct kreg *r)
{
	struct kreg *last;

	for (size_t i = 0; i < into->n; i++)
		if (same(into->r[i], r))
			return;
	if (into->n < MAX_PATHS) {
		memcpy(into->r[into->n++], r, sizeof(into->r[0]));
		return;
	}
	last = into->r[MAX_PATHS - 1];
	for (int i = 0; i < 11; i++)
		if (!reg_eq(&last[i], &r[i]))
			last[i] = (struct kreg){ 0 };
}

/* The kernel field relocation i of .BTF.ext leads to: its last member's name and type. */
static bool co_re_leaf(const struct bsdk_obj *obj, const struct bpf_core_relo *rec,
		      const char **name, uint32_t *type)
{
	const char *acc = btf_str(obj->btf, rec->access_str_off), *p;
	uint32_t id = rec->type_id;
	bool first = true;

	*name = NULL;
	for (p = acc; p && *p;) {
		char *end;
		unsigned long idx = strtoul(p, &end, 10);
		const struct btf_type *t = btf_skip_mods(obj->btf, id, &id);

		if (end == p || !t)
			return false;
		p = *end == ':' ? end + 1 : end;
		if (first) {	/* the root pointer's index */
			first = false;
			continue;
		}
		if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) {
			if (idx >= btf_vlen(t))
				return false;
			*name = btf_name(obj->btf, (const void *)&btf_members(t)[idx]);
			id = btf_members(t)[idx].type;
		} else if (btf_kind(t) == BTF_KIND_ARRAY) {
			id = ((const struct btf_array *)(t + 1))->type;
		} else {
			return false;
		}
	}
	*type = id;
	return *name && **name;
}

/* What a store or a copy at base + t.off leaves: a stack slot's, a map value's, or the
 * record's. */
static void mem_tag(struct walk *w, const struct kreg *base, struct ktag t)
{
	t.off += base->v;
	if (base->kind == K_STACK || base->kind == K_HEAP) {
		t.at = base->kind == K_STACK ? AT_STACK : base->field;
		tag_add(w, &w->tags, &w->ntags, t);
	} else if (base->kind == K_REC) {
		t.at = AT_REC;
		tag_add(w, &w->out, &w->nout, t);
	}
}

static void store(struct walk *w, const struct kreg *dst, int64_t off, uint32_t size,
		  const struct kreg *src)
{
	if (src->kind == K_KVAL)
		mem_tag(w, dst, (struct ktag){ .off = off, .size = size, .field = src->field,
					       .swapped = src->swapped });
	else if (dst->kind == K_STACK && size == 8 &&
		 (src->kind == K_STACK || src->kind == K_REC || src->kind == K_HEAP))
		mem_tag(w, dst, (struct ktag){ .off = off, .size = size, .field = -1,
					       .spill = *src });
}

/* A stack slot filled: the value a store or a copy (BPF_CORE_READ()'s temporary) left
 * there, when it was a kernel field's, or the pointer spilled there. */
static struct kreg fill(const struct walk *w, int64_t off, uint32_t size)
{
	for (size_t i = w->ntags; i-- > 0;) {
		const struct ktag *t = &w->tags[i];

		if (t->at != AT_STACK || t->off != off || t->size != size)
			continue;
		if (t->spill.kind)
			return t->spill;
		return (struct kreg){ K_KVAL, t->swapped, t->field, 0 };
	}
	return (struct kreg){ 0 };
}

static void alu(struct kreg *r, const struct bpf_insn *x, int32_t core)
{
	uint8_t op = BPF_OP(x->code), dst = x->dst_reg, src = x->src_reg;
	bool k = BPF_SRC(x->code) == BPF_K, is64 = BPF_CLASS(x->code) == BPF_ALU64;
	struct kreg *d = &r[dst];

	if (op == BPF_MOV && !k && src <= 10 && x->off == 0) {
		*d = src == 10 ? (struct kreg){ K_STACK, 0, 0, 0 } : r[src];
		if (!is64 && d->kind != K_KVAL && d->kind != K_CONST)
			*d = (struct kreg){ 0 };
	} else if (op == BPF_MOV && k) {
		*d = core >= 0 ? (struct kreg){ K_COREOFF, 0, core, 0 } :
				 (struct kreg){ K_CONST, 0, 0, x->imm };
	} else if (op == BPF_ADD && is64 && k && core >= 0) {
		*d = (struct kreg){ K_KPTR, 0, core, 0 };
	} else if (op == BPF_ADD && is64 && k &&
		   (d->kind == K_STACK || d->kind == K_REC || d->kind == K_HEAP)) {
		d->v += x->imm;
	} else if (op == BPF_ADD && is64 && !k && src < 10 &&
		   (r[src].kind == K_COREOFF || d->kind == K_COREOFF)) {
		*d = (struct kreg){ K_KPTR, 0, r[src].kind == K_COREOFF ? r[src].field : d->field, 0 };
	} else if (op == BPF_AND && k && d->kind == K_KVAL) {
		/* a mask keeps the value */
	} else if (op == BPF_END && d->kind == K_KVAL) {
		/* to big-endian on a little-endian host, or bswap: a swap; to little-endian
		 * only truncates */
		if (is64 || BPF_SRC(x->code) == BPF_TO_BE)
			d->swapped = !d->swapped;
	} else {
		*d = (struct kreg){ 0 };
	}
}

static void call(struct walk *w, struct kreg *r, int h)
{
	const struct kreg *m = NULL, *data = NULL, *size = NULL;

	if ((h == HELPER_PROBE_READ || h == HELPER_PROBE_READ_KERNEL) && r[3].kind == K_KPTR &&
	    r[2].kind == K_CONST && r[2].v > 0 && r[2].v <= 4096)
		mem_tag(w, &r[1], (struct ktag){ .size = (uint32_t)r[2].v, .field = r[3].field,
						 .copy = true });
	if (h == HELPER_PERF_EVENT_OUTPUT)
		m = &r[2], data = &r[4], size = &r[5];
	else if (h == HELPER_RINGBUF_OUTPUT)
		m = &r[1], data = &r[2], size = &r[3];
	if (m && m->kind == K_MAP && (size_t)m->v == w->map &&
	    (data->kind == K_STACK || data->kind == K_HEAP) && size->kind == K_CONST &&
	    size->v > 0) {
		/* the stack slots or the map value the call sends: their stores are the record's */
		int32_t at = data->kind == K_STACK ? AT_STACK : data->field;

		for (size_t i = 0; i < w->ntags; i++)
			if (w->tags[i].at == at && !w->tags[i].spill.kind &&
			    w->tags[i].off >= data->v && w->tags[i].off < data->v + size->v) {
				struct ktag t = w->tags[i];

				t.off -= data->v;
				t.at = AT_REC;
				tag_add(w, &w->out, &w->nout, t);
			}
	}
	bool reserve = h == HELPER_RINGBUF_RESERVE && r[1].kind == K_MAP &&
		       (size_t)r[1].v == w->map;
	bool lookup = h == HELPER_MAP_LOOKUP_ELEM && r[1].kind == K_MAP;
	int32_t map = (int32_t)r[1].v;

	memset(r, 0, 6 * sizeof(*r));
	if (reserve)
		r[0] = (struct kreg){ K_REC, 0, 0, 0 };
	else if (lookup)	/* a pointer into the map's value (or NULL) */
		r[0] = (struct kreg){ K_HEAP, 0, map, 0 };
}

/* One instruction's effect on r; false when the path ends there. */
static bool step(struct walk *w, struct kreg *r, const struct bpf_insn *x, size_t i)
{
	uint8_t cls = BPF_CLASS(x->code), dst = x->dst_reg, src = x->src_reg;
	uint32_t sz = BPF_SIZE(x->code) == BPF_B ? 1 : BPF_SIZE(x->code) == BPF_H ? 2 :
		      BPF_SIZE(x->code) == BPF_W ? 4 : 8;

	if (cls == BPF_ALU || cls == BPF_ALU64) {
		if (dst < 10)
			alu(r, x, w->core[i]);
	} else if (cls == BPF_LDX && BPF_MODE(x->code) == BPF_MEM && dst < 10) {
		if (w->core[i] >= 0)
			r[dst] = (struct kreg){ K_KVAL, false, w->core[i], 0 };
		else if (src <= 10 && (src == 10 || r[src].kind == K_STACK))
			r[dst] = fill(w, (src == 10 ? 0 : r[src].v) + x->off, sz);
		else
			r[dst] = (struct kreg){ 0 };
	} else if (cls == BPF_STX && BPF_MODE(x->code) == BPF_MEM && src < 10 && dst <= 10) {
		struct kreg base = dst == 10 ? (struct kreg){ K_STACK, 0, 0, 0 } : r[dst];

		store(w, &base, x->off, sz, &r[src]);
	} else if (cls == BPF_STX && BPF_MODE(x->code) == BPF_ATOMIC) {
		if (src < 10)
			r[src] = (struct kreg){ 0 };
		r[0] = (struct kreg){ 0 };
	} else if (cls == BPF_LDX && dst < 10) {	/* a sign-extending load, ... */
		r[dst] = (struct kreg){ 0 };
	} else if (cls == BPF_LD) {	/* legacy packet loads write r0 */
		r[0] = (struct kreg){ 0 };
		if (dst < 10)
			r[dst] = (struct kreg){ 0 };
	} else if (x->code == (BPF_JMP | BPF_CALL)) {
		if (src == 0)
			call(w, r, x->imm);
		else
			memset(r, 0, 6 * sizeof(*r));
	} else if (x->code == (BPF_JMP | BPF_EXIT)) {
		return false;
	}
	return true;
}

static int32_t *co_re_index(const struct walk *w, const struct func *fn)
{
	const struct btf_ext *x = btf_ext_of(w->obj);
	int32_t *c = malloc((fn->count + 1) * sizeof(*c));

	if (!c)
		return NULL;
	for (size_t i = 0; i <= fn->count; i++)
		c[i] = -1;
	for (size_t i = 0; x && i < x->ncore; i++) {
		uint64_t insn = x->core[i].rec.insn_off / sizeof(struct bpf_insn);

		if (x->core[i].sec == fn->sec && x->core[i].rec.kind == BPF_CORE_FIELD_BYTE_OFFSET &&
		    insn >= fn->first && insn < fn->first + fn->count)
			c[insn - fn->first] = (int32_t)i;
	}
	return c;
}

static void paths_merge(struct paths *into, const struct paths *from)
{
	for (size_t i = 0; i < from->n; i++)
		paths_add(into, from->r[i]);
}

/* One walk of fn, each instruction once, on every path that reaches it (up to MAX_PATHS):
 * a forward jump hands its paths to its target; a loop's way back is not followed. */
static int walk_func(struct walk *w, const struct func *fn)
{
	const struct elf_sec *s = &w->obj->file.secs[fn->sec];
	const struct bpf_insn *in;
	struct paths **at, *cur;

	if (!s->data || (fn->first + fn->count) * sizeof(*in) > s->size)
		return 0;
	in = (const struct bpf_insn *)s->data + fn->first;
	w->core = co_re_index(w, fn);
	at = calloc(fn->count + 1, sizeof(*at));
	cur = calloc(1, sizeof(*cur));
	if (!w->core || !at || !cur) {
		free(w->core), free(at), free(cur);
		return -ENOMEM;
	}
	w->ntags = 0;
	for (size_t i = 0; i < fn->count && !w->err; i++) {
		const struct bpf_insn *x = &in[i];
		uint8_t cls = BPF_CLASS(x->code), op = BPF_OP(x->code);

		if (at[i]) {
			paths_merge(cur, at[i]);
			free(at[i]);
			at[i] = NULL;
		}
		if (!cur->n)	/* reached only backwards: nothing known */
			memset(cur->r[cur->n++], 0, sizeof(cur->r[0]));
		if (x->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			const struct relo *rel = records_relo_of(w->obj, fn->sec, fn->first + i);

			for (size_t k = 0; k < cur->n && x->dst_reg < 10; k++)
				cur->r[k][x->dst_reg] = rel && rel->kind == BSDK_RELO_MAP ?
					(struct kreg){ K_MAP, 0, 0, (int64_t)rel->map } : (struct kreg){ 0 };
			i++;
			continue;
		}
		if ((cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT) {
			int64_t to = (int64_t)i + 1 +
				     (cls == BPF_JMP32 && op == BPF_JA ? x->imm : x->off);

			if (to > (int64_t)i && (size_t)to <= fn->count) {
				if (!at[to] && !(at[to] = calloc(1, sizeof(*at[to])))) {
					w->err = -ENOMEM;
					break;
				}
				paths_merge(at[to], cur);
			}
			if (op == BPF_JA)
				cur->n = 0;
			continue;
		}
		for (size_t k = 0; k < cur->n; k++)
			if (!step(w, cur->r[k], x, i))
				cur->n = 0;	/* exit: every path ends */
	}
	for (size_t i = 0; i <= fn->count; i++)
		free(at[i]);
	free(w->core), free(at), free(cur);
	w->core = NULL;
	return w->err;
}

/* ---- what the stores say of the record's members */

/* The view the kernel field of relocation i calls for: its own BTF read as a record's member
 * beside a family (a __be32 *addr* is an address, a __u8 saddr[4] of a tracepoint too). */
static enum bsdk_btf_view field_view(const struct bsdk_obj *obj, int32_t i, uint32_t size,
				     bool swapped)
{
	const struct btf_ext *x = btf_ext_of(obj);
	const char *name;
	uint32_t type;
	enum bsdk_btf_view v;
	uint64_t fsize = 0;

	if (!x || i < 0 || (size_t)i >= x->ncore || !co_re_leaf(obj, &x->core[i].rec, &name, &type))
		return BSDK_VIEW_DEFAULT;
	v = net_btf_view(obj->btf, type, name, true);
	if (btf_type_size(obj->btf, type, &fsize) || (v == BSDK_VIEW_NTOH && fsize != size))
		return BSDK_VIEW_STORED;	/* part of a big-endian field: as stored */
	if (swapped)
		return BSDK_VIEW_STORED;	/* the program put it in host order */
	return v == BSDK_VIEW_DEFAULT ? BSDK_VIEW_STORED : v;
}

struct member_at {
	const char *name;
	uint64_t off, size;
};

/* The named members of struct t at byte off (anonymous ones inlined), up to max. */
static size_t members(const struct btf *btf, const struct btf_type *t, uint64_t off,
		      struct member_at *out, size_t n, size_t max, int depth)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);

	for (uint16_t i = 0; depth < 8 && i < btf_vlen(t) && n < max; i++) {
		const char *name = btf_name(btf, (const void *)&m[i]);
		uint32_t bits = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		const struct btf_type *mt = btf_skip_mods(btf, m[i].type, NULL);
		uint64_t size = 0;

		if (bits % 8 || (kflag && BTF_MEMBER_BITFIELD_SIZE(m[i].offset)) || !mt)
			continue;
		if (!*name && (btf_kind(mt) == BTF_KIND_STRUCT || btf_kind(mt) == BTF_KIND_UNION))
			n = members(btf, mt, off + bits / 8, out, n, max, depth + 1);
		else if (*name && !btf_type_size(btf, m[i].type, &size))
			out[n++] = (struct member_at){ name, off + bits / 8, size };
	}
	return n;
}

/* Every tag of the record that lands on member m: one view when they agree, STORED when not,
 * DEFAULT when none does. */
static enum bsdk_btf_view member_view(const struct bsdk_obj *obj, const struct walk *w,
				      const struct member_at *m)
{
	enum bsdk_btf_view v = BSDK_VIEW_DEFAULT;

	for (size_t i = 0; i < w->nout; i++) {
		const struct ktag *t = &w->out[i];
		enum bsdk_btf_view tv;

		if ((uint64_t)t->off != m->off || t->size > m->size ||
		    (!t->copy && t->size != m->size))
			continue;
		tv = field_view(obj, t->field, t->size, t->swapped);
		if (tv == BSDK_VIEW_INET && t->size != 4 && t->size != 16)
			tv = BSDK_VIEW_STORED;
		v = v == BSDK_VIEW_DEFAULT || v == tv ? tv : BSDK_VIEW_STORED;
	}
	return v;
}

int bsdk_records_views(struct bsdk_records *r, const struct bsdk_map *map,
		       const struct bsdk_btf *bbtf, uint32_t id, struct bsdk_btf_field_view **views,
		       size_t *n)
{
	const struct btf *btf = (const struct btf *)bbtf;
	const struct bsdk_obj *obj = r ? r->obj : NULL;
	struct walk w = { .obj = obj };
	const struct btf_type *t = btf ? btf_skip_mods(btf, id, NULL) : NULL;
	struct member_at ms[256];
	size_t nm = 0;

	if (!r || !map || !btf || !views || !n)
		return fail(EINVAL);
	*views = NULL;
	*n = 0;
	if (!t || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) || !obj->btf)
		return 0;
	w.map = (size_t)(map - obj->maps);
	for (size_t i = 0; !w.err && i < obj->nprogs; i++)
		w.err = walk_func(&w, &obj->progs[i].fn);
	for (size_t i = 0; !w.err && i < obj->nsubprogs; i++)
		w.err = walk_func(&w, &obj->subprogs[i]);
	if (!w.err)
		nm = members(btf, t, 0, ms, 0, sizeof(ms) / sizeof(ms[0]), 0);
	for (size_t i = 0; !w.err && i < nm; i++) {
		enum bsdk_btf_view v = member_view(obj, &w, &ms[i]);
		struct bsdk_btf_field_view *grown;

		if (v == BSDK_VIEW_DEFAULT)
			continue;
		grown = realloc(*views, (*n + 1) * sizeof(**views));
		if (!grown) {
			w.err = -ENOMEM;
			break;
		}
		*views = grown;
		grown[(*n)++] = (struct bsdk_btf_field_view){ ms[i].name, v };
	}
	free(w.tags);
	free(w.out);
	if (w.err) {
		free(*views);
		*views = NULL;
		*n = 0;
		return fail(-w.err);
	}
	return 0;
}
