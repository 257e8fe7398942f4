// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * co_re_match.c - the CO-RE engine's target side: whether a candidate type
 * of the kernel has what the local type has, by member name, through
 * anonymous members and into arrays, and co_re_calc(), which resolves a
 * relocation against the candidates it is given (see co_re.c).
 */
#include <stdio.h>

#include "co-re/co_re_impl.h"

/* ---- the target side: does a kernel type have what the local one has */

/* Whether a local and a target field may stand for each other: both structs or unions, or
 * the same kind of scalar (names of enums and forward declarations matching). */
static bool fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			  int depth)
{
	const struct btf_type *l = resolve(lb, lid, &lid), *t = resolve(tb, tid, &tid);

	if (!l || !t || depth > 32)
		return false;
	if (is_composite(l) && is_composite(t))
		return true;
	if (is_enum(l) && is_enum(t))
		return !*btf_name(lb, l) || !*btf_name(tb, t) || names_match(btf_name(lb, l), btf_name(tb, t));
	if (btf_kind(l) != btf_kind(t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_FWD:
		return !*btf_name(lb, l) || !*btf_name(tb, t) || names_match(btf_name(lb, l), btf_name(tb, t));
	case BTF_KIND_INT:	/* any two integers, but not the old bit-offset ones */
		return (*(const uint32_t *)(l + 1) >> 16 & 0xff) == 0 &&
		       (*(const uint32_t *)(t + 1) >> 16 & 0xff) == 0;
	case BTF_KIND_ARRAY:
		return fields_compat(lb, ((const struct btf_array *)(l + 1))->type,
				     tb, ((const struct btf_array *)(t + 1))->type, depth + 1);
	default:
		return false;
	}
}

/* Find the local member acc names in target composite tid (searching anonymous members
 * too), extending the target spec t; its type goes to *next. 1 found, 0 not, <0 too deep. */
static int match_member(const struct btf *lb, const struct co_re_acc *acc, const struct btf *tb,
			uint32_t tid, struct co_re_spec *ts, uint32_t *next, long *steps)
{
	const struct btf_type *lt = resolve(lb, acc->type_id, NULL);
	const struct btf_member *lm = &btf_members(lt)[acc->idx];
	const struct btf_type *t = resolve(tb, tid, &tid);

	if (!t || !is_composite(t) || --*steps < 0)
		return 0;
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = &btf_members(t)[i];
		const char *name = btf_str(tb, m->name_off);
		uint32_t bit_off = member_bit_off(t, i);
		int found;

		if (ts->nraw == CORE_SPEC_MAX)
			return -E2BIG;
		ts->bit_offset += bit_off;
		ts->raw[ts->nraw++] = i;
		if (!name || !*name) {
			found = match_member(lb, acc, tb, m->type, ts, next, steps);
			if (found)
				return found;
		} else if (strcmp(name, acc->name) == 0) {
			if (!fields_compat(lb, lm->type, tb, m->type, 0))
				return 0;	/* the same name for something else */
			ts->acc[ts->nacc++] = (struct co_re_acc){ tid, i, name };
			*next = m->type;
			return 1;
		}
		ts->bit_offset -= bit_off;
		ts->nraw--;
	}
	return 0;
}

/* Whether two types are interchangeable for a type relocation: same kind after modifiers,
 * pointers and arrays compared by what they point to, functions argument by argument. */
static bool types_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			 int depth, long *steps)
{
	const struct btf_type *l = resolve(lb, lid, NULL), *t = resolve(tb, tid, NULL);

	if (!l || !t || depth > 32 || --*steps < 0)
		return false;
	if (is_enum(l) && is_enum(t))
		return true;
	if (btf_kind(l) != btf_kind(t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FWD: case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_INT:
		return (*(const uint32_t *)(l + 1) >> 16 & 0xff) == 0 &&
		       (*(const uint32_t *)(t + 1) >> 16 & 0xff) == 0;
	case BTF_KIND_PTR:
		return types_compat(lb, l->type, tb, t->type, depth + 1, steps);
	case BTF_KIND_ARRAY:
		return types_compat(lb, ((const struct btf_array *)(l + 1))->type,
				    tb, ((const struct btf_array *)(t + 1))->type, depth + 1, steps);
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(l) != btf_vlen(t))
			return false;
		for (uint16_t i = 0; i < btf_vlen(l); i++)
			if (!types_compat(lb, ((const struct btf_param *)(l + 1))[i].type,
					  tb, ((const struct btf_param *)(t + 1))[i].type, depth + 1,
					  steps))
				return false;
		return types_compat(lb, l->type, tb, t->type, depth + 1, steps);
	default:
		return false;
	}
}

/* Enums of one size, each local enumerator's name among the target's. */
static bool enums_match(const struct btf *lb, const struct btf_type *l, const struct btf *tb,
			const struct btf_type *t)
{
	if (l->size != t->size)
		return false;
	for (uint16_t i = 0; i < btf_vlen(l); i++) {
		bool found = false;

		for (uint16_t j = 0; j < btf_vlen(t) && !found; j++)
			found = names_match(co_re_enum_name(lb, l, i), co_re_enum_name(tb, t, j));
		if (!found)
			return false;
	}
	return true;
}

static bool is_composite_or_fwd(const struct btf_type *t)
{
	return is_composite(t) || btf_kind(t) == BTF_KIND_FWD;
}

static bool is_union_or_fwd_union(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_UNION || (btf_kind(t) == BTF_KIND_FWD && BTF_INFO_KFLAG(t->info));
}

static bool members_match(const struct btf *lb, const struct btf_type *l, const struct btf *tb,
			  const struct btf_type *t, bool behind_ptr, int depth, long *steps);

/* bpf_core_type_matches(): the target has the local type's shape. Integers by size and
 * signedness, enums by their enumerators' names and size, structs and unions by members of
 * the same names whose types match (behind a pointer: only names and kinds). */
static bool types_match(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			bool behind_ptr, int depth, long *steps)
{
	const struct btf_type *l = resolve(lb, lid, NULL), *t = resolve(tb, tid, NULL);
	const char *ln, *tn;

	if (depth > 32 || --*steps < 0)
		return false;
	/* void (ID 0, or a typedef or modifier of it) matches void alone: a function's
	 * return type, a void * parameter, a typedef of a tracepoint's prototype */
	if (!l || !t)
		return !l && !t && lid < btf_type_count(lb) && tid < btf_type_count(tb);
	ln = btf_name(lb, l);
	tn = btf_name(tb, t);
	if (*ln && !names_match(ln, tn))
		return false;
	if (is_enum(l) && is_enum(t))
		return enums_match(lb, l, tb, t);
	/* a struct may be only declared on one side */
	if (behind_ptr && is_composite_or_fwd(l) && is_composite_or_fwd(t))
		return is_union_or_fwd_union(l) == is_union_or_fwd_union(t);
	if (btf_kind(l) != btf_kind(t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_INT: {
		uint32_t le = *(const uint32_t *)(l + 1) >> 24, te = *(const uint32_t *)(t + 1) >> 24;

		return l->size == t->size && (le & BTF_INT_SIGNED) == (te & BTF_INT_SIGNED);
	}
	case BTF_KIND_FLOAT:
		return l->size == t->size;
	case BTF_KIND_FWD:
		return BTF_INFO_KFLAG(l->info) == BTF_INFO_KFLAG(t->info);
	case BTF_KIND_PTR:
		return types_match(lb, l->type, tb, t->type, true, depth + 1, steps);
	case BTF_KIND_ARRAY: {
		const struct btf_array *la = (const void *)(l + 1), *ta = (const void *)(t + 1);

		return la->nelems == ta->nelems &&
		       types_match(lb, la->type, tb, ta->type, behind_ptr, depth + 1, steps);
	}
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(l) != btf_vlen(t))
			return false;
		for (uint16_t i = 0; i < btf_vlen(l); i++)
			if (!types_match(lb, ((const struct btf_param *)(l + 1))[i].type,
					 tb, ((const struct btf_param *)(t + 1))[i].type,
					 behind_ptr, depth + 1, steps))
				return false;
		return types_match(lb, l->type, tb, t->type, behind_ptr, depth + 1, steps);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return members_match(lb, l, tb, t, behind_ptr, depth, steps);
	default:
		return false;
	}
}

/* Each local member has a target member of the same name whose type matches. */
static bool members_match(const struct btf *lb, const struct btf_type *l, const struct btf *tb,
			  const struct btf_type *t, bool behind_ptr, int depth, long *steps)
{
	for (uint16_t i = 0; i < btf_vlen(l); i++) {
		const char *mn = btf_str(lb, btf_members(l)[i].name_off);
		bool found = false;

		for (uint16_t j = 0; j < btf_vlen(t) && !found; j++) {
			const char *tm = btf_str(tb, btf_members(t)[j].name_off);

			if (mn && tm && strcmp(mn, tm) == 0)
				found = types_match(lb, btf_members(l)[i].type, tb,
						    btf_members(t)[j].type, behind_ptr,
						    depth + 1, steps);
		}
		if (!found)
			return false;
	}
	return true;
}

/* "Did you mean": of the members of target type tid (and of its anonymous
 * members), the name closest to want, as "it has no member 'start_tme';
 * did you mean 'start_time'?" in buf; just "it has no such member" when
 * none is close. */
static const char *member_closest(const struct btf *tb, uint32_t tid, const char *want,
				  char *buf, size_t size)
{
	const struct btf_type *t = resolve(tb, tid, &tid), *inner;
	const char *names[512], *near;
	size_t n = 0;

	for (uint16_t i = 0; t && is_composite(t) && i < btf_vlen(t); i++) {
		const char *name = btf_str(tb, btf_members(t)[i].name_off);

		if (name && *name && n < ARRAY_SIZE(names)) {
			names[n++] = name;
			continue;
		}
		inner = resolve(tb, btf_members(t)[i].type, NULL);
		for (uint16_t j = 0; inner && is_composite(inner) && j < btf_vlen(inner) &&
				     n < ARRAY_SIZE(names); j++)
			if ((name = btf_str(tb, btf_members(inner)[j].name_off)) && *name)
				names[n++] = name;
	}
	near = bsdk_name_closest(want, names, n);
	if (near)
		snprintf(buf, size, "it has no member '%s'; did you mean '%s'?", want, near);
	else
		snprintf(buf, size, "it has no such member");
	return buf;
}

/* Follow the local spec ls in target type tid; 1 and *ts filled when the target has it all,
 * 0 when not (why in *why), <0 on an error. */
static int spec_match(const struct co_re_relo *r, const struct co_re_spec *ls,
		      const struct btf *tb, uint32_t tid, struct co_re_spec *ts, const char **why,
		      char *whybuf, size_t whysize)
{
	/* Hostile BTF (a struct that embeds itself twice) must not make the walk exponential. */
	long steps = 100000;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root_id = tid;
	*why = NULL;
	if (r->kind == BSDK_CORE_TYPE_MATCHES)
		return types_match(ls->btf, ls->root_id, tb, tid, false, 0, &steps) ? 1 :
		       (*why = "its shape differs", 0);
	if (!kind_is_field(r->kind) && !kind_is_enumval(r->kind))
		return types_compat(ls->btf, ls->root_id, tb, tid, 0, &steps) ? 1 :
		       (*why = "it is another kind of type", 0);
	if (kind_is_enumval(r->kind)) {
		const struct btf_type *lt = btf_type_by_id(ls->btf, ls->acc[0].type_id);
		const struct btf_type *t = resolve(tb, tid, &tid);
		const char *want = co_re_enum_name(ls->btf, lt, ls->acc[0].idx);

		for (uint16_t i = 0; t && is_enum(t) && i < btf_vlen(t); i++) {
			if (names_match(co_re_enum_name(tb, t, i), want)) {
				ts->acc[0] = (struct co_re_acc){ tid, i, NULL };
				ts->nacc = 1;
				ts->raw[ts->nraw++] = i;
				return 1;
			}
		}
		*why = "it has no enumerator of that name";
		return 0;
	}
	/* fields: the root index, then each named member or array index in turn */
	for (size_t i = 0; i < ls->nacc; i++) {
		const struct co_re_acc *la = &ls->acc[i];
		uint64_t sz;

		if (la->name) {
			uint32_t outer = tid;
			int found = match_member(ls->btf, la, tb, tid, ts, &tid, &steps);

			if (found <= 0) {
				*why = found < 0 ? "its access path is too deep" :
				       member_closest(tb, outer, la->name, whybuf, whysize);
				return found;
			}
			continue;
		}
		if (i > 0) {
			const struct btf_type *t = resolve(tb, tid, &tid);
			const struct btf_array *a;

			if (!t || btf_kind(t) != BTF_KIND_ARRAY) {
				*why = "the member is not an array there";
				return 0;
			}
			a = (const void *)(t + 1);
			if (la->idx >= a->nelems && !is_flex(tb, &ts->acc[ts->nacc - 1], a)) {
				*why = "its array is shorter";
				return 0;
			}
			if (!resolve(tb, a->type, &tid))
				return -EINVAL;
		}
		if (ts->nraw == CORE_SPEC_MAX)
			return -E2BIG;
		ts->acc[ts->nacc++] = (struct co_re_acc){ tid, la->idx, NULL };
		ts->raw[ts->nraw++] = la->idx;
		if (btf_type_size(tb, tid, &sz) || !add_elems(&ts->bit_offset, la->idx, sz)) {
			*why = "its type has no size";
			return 0;
		}
	}
	return 1;
}

const char *co_re_type_label(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);

	return t ? btf_name(btf, t) : "";
}

/* The relocation's state once all n candidates are tried: first is the value they agree
 * on, NULL when none matched (why: the first reason one did not). */
static void co_re_conclude(struct co_re_relo *r, const struct btf_type *root, const char *name,
			  int n, const struct calc *first, const char *why)
{
	if (first) {
		r->state = BSDK_CORE_RESOLVED;
		r->value = first->val;
		r->new_sz = first->sz;
		r->memsz_fixed = first->sz != r->orig_sz && !(first->ptr_or_uint && r->orig_ptr_or_uint);
	} else if (kind_is_exists(r->kind)) {
		r->state = BSDK_CORE_RESOLVED;
		r->value = 0;
	} else {
		r->state = BSDK_CORE_POISONED;
		if (n == 0)
			snprintf(r->note, sizeof(r->note), "the kernel has no %s named '%.*s'",
				 is_composite(root) ? "struct or union" : "type of that kind",
				 (int)btf_essential_len(name), name);
		else
			snprintf(r->note, sizeof(r->note), "%d kernel type%s named '%.*s', none matches: %s",
				 n, n == 1 ? "" : "s", (int)btf_essential_len(name), name, why);
	}
}

int co_re_calc(const struct btf *local, struct co_re_relo *r, const struct kbtf_cand *cands, int n)
{
	return co_re_calc_spec(local, r, cands, n, NULL);
}

int co_re_calc_spec(const struct btf *local, struct co_re_relo *r, const struct kbtf_cand *cands,
		   int n, struct co_re_spec *spec)
{
	const struct btf_type *root = btf_type_by_id(local, r->type_id);
	const char *name = root ? btf_name(local, root) : "", *err, *why = NULL;
	struct co_re_spec ls, ts;
	struct calc lc, tc, first = { 0 };
	size_t matched = 0;
	char whybuf[2][128];	/* the first reason kept, the one being written */

	r->state = BSDK_CORE_ERROR;
	r->targ_id = 0;
	r->targ_btf = NULL;
	r->note[0] = '\0';
	err = co_re_local_spec(local, r, &ls);
	if (!err)
		err = co_re_value(r, &ls, &lc);
	if (err) {
		snprintf(r->note, sizeof(r->note), "%s", err);
		return 0;
	}
	if (r->kind == BSDK_CORE_TYPE_ID_LOCAL) {
		r->state = BSDK_CORE_RESOLVED;
		r->value = r->type_id;
		return 0;
	}
	if (!*name) {
		snprintf(r->note, sizeof(r->note), "the local type is anonymous: nothing to look for");
		return 0;
	}
	if (n < 0) {
		r->state = BSDK_CORE_UNRESOLVED;
		snprintf(r->note, sizeof(r->note), "kernel BTF: %s", bsdk_strerror(n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		const char *no;
		int m = spec_match(r, &ls, cands[i].btf, cands[i].id, &ts, &no,
				   whybuf[why != NULL], sizeof(whybuf[0]));

		if (m < 0) {
			snprintf(r->note, sizeof(r->note), "kernel type [%u] %s: the access path is too deep",
				 cands[i].id, co_re_type_label(cands[i].btf, cands[i].id));
			return 0;
		}
		if (m == 0) {
			why = why ? why : no;
			continue;
		}
		err = co_re_value(r, &ts, &tc);
		if (err) {
			snprintf(r->note, sizeof(r->note), "kernel type [%u] %s: %s", cands[i].id,
				 co_re_type_label(cands[i].btf, cands[i].id), err);
			return 0;
		}
		if (matched++ == 0) {
			first = tc;
			if (spec)
				*spec = ts;
			r->targ_id = cands[i].id;
			r->targ_btf = cands[i].btf;
			r->targ_fd = cands[i].btf_obj_fd;
		} else if (tc.val != first.val) {
			snprintf(r->note, sizeof(r->note),
				 "kernel types [%u] and [%u] named '%.*s' both match and disagree (%llu, %llu)",
				 r->targ_id, cands[i].id, (int)btf_essential_len(name), name,
				 (unsigned long long)first.val, (unsigned long long)tc.val);
			r->targ_id = 0;
			return 0;
		}
	}
	co_re_conclude(r, root, name, n, matched ? &first : NULL, why);
	return 0;
}
