// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * co_re_obj.c - the object's CO-RE relocations: the pass that hands the
 * core_relo records .BTF.ext holds (btf_ext_of()) to the engine
 * (co-re/co_re.c) with the candidates it finds in the kernel's BTF
 * (co-re/kbtf.c), patches them in when a program is linked, refuses a load
 * that uses one unresolved, and after a verifier rejection says which
 * relocation the program stopped at.
 *
 * Its state is the object's relocations, sorted by section and
 * instruction, and per program those applied when it was linked.
 */
#include <stdio.h>
#include <unistd.h>

#include "ext/co-re/co_re_obj.h"
#include "object/pass.h"
#include "ext/btf/btf_load.h"
#include "co-re/btf_index.h"
#include "ext/btf/btf_ext.h"
#include "format/btf.h"
#include "co-re/co_re.h"
#include "co-re/kbtf.h"

/* A CO-RE relocation applied in a linked program. */
struct co_re_use {
	size_t insn;		/* in the linked program */
	const struct co_re_relo *relo;
};

struct co_re_prog {
	struct co_re_use *uses;	/* as linked, in order */
	size_t n;
};

struct co_re_state {
	struct co_re_relo *relos;	/* sorted by section and instruction */
	size_t n;
	struct co_re_prog *progs;	/* per program of the object */
	size_t nprogs;
};

static const char co_re_key;	/* obj_state()'s key */

static void co_re_state_free(void *p)
{
	struct co_re_state *cs = p;

	for (size_t i = 0; i < cs->n; i++)
		free(cs->relos[i].desc);
	for (size_t i = 0; i < cs->nprogs; i++)
		free(cs->progs[i].uses);
	free(cs->relos);
	free(cs->progs);
	free(cs);
}

static struct co_re_state *state_of(const struct bsdk_obj *obj)
{
	return obj_state_find(obj, &co_re_key);
}

static int relo_cmp(const void *a, const void *b)
{
	const struct co_re_relo *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return (x->insn > y->insn) - (x->insn < y->insn);
}

/* Every record of .BTF.ext, read and checked by the engine: one error line for the first bad one. */
static int co_re_relos_read(struct bsdk_obj *obj, struct co_re_state *cs)
{
	const struct btf_ext *x = btf_ext_of(obj);

	for (size_t i = 0; i < x->ncore; i++) {
		const struct btf_ext_core *c = &x->core[i];
		const struct elf_sec *s = &obj->file.secs[c->sec];
		struct co_re_relo r;
		char why[256];
		int err = co_re_relo_read(obj->btf, &c->rec, s->data, s->size / sizeof(struct bpf_insn),
					 &r, why, sizeof(why));

		if (err == -BSDK_EBTF)
			return obj_fail(obj, BSDK_EBTF, ".BTF.ext: core_relo for section '%s': record %u: %s",
					s->name, c->index, why);
		if (err)
			return err;
		r.sec = c->sec;
		r.index = (uint32_t)cs->n;
		if (array_push(&cs->relos, &cs->n, &r, sizeof(r))) {
			free(r.desc);
			return -ENOMEM;
		}
	}
	if (cs->n > 1)
		qsort(cs->relos, cs->n, sizeof(*cs->relos), relo_cmp);
	for (size_t i = 1; i < cs->n; i++)
		if (relo_cmp(&cs->relos[i - 1], &cs->relos[i]) == 0)
			return obj_fail(obj, BSDK_EBTF, ".BTF.ext: core_relo for section '%s': instruction %zu is relocated twice",
					obj->file.secs[cs->relos[i].sec].name, cs->relos[i].insn);
	return 0;
}

int co_re_resolve(const struct btf *local, struct co_re_relo *r, const char *kbtf_path)
{
	return co_re_resolve_spec(local, r, kbtf_path, NULL);
}

int co_re_resolve_spec(const struct btf *local, struct co_re_relo *r, const char *kbtf_path,
		      struct co_re_spec *spec)
{
	const struct btf_type *root = btf_type_by_id(local, r->type_id);
	const char *name = root ? btf_name(local, root) : "";
	struct kbtf_cand *cands = NULL;
	int n = 0, err;

	/* only a relocation that asks about the kernel needs its candidates */
	if (r->kind != BSDK_CORE_TYPE_ID_LOCAL && *name)
		n = kbtf_candidates(kbtf_path, name, btf_essential_len(name), btf_kind(root), &cands);
	err = co_re_calc_spec(local, r, cands, n, spec);
	free(cands);
	return err;
}

const struct co_re_relo *co_re_obj_relos(const struct bsdk_obj *obj, size_t *n)
{
	const struct co_re_state *cs = state_of(obj);

	*n = cs ? cs->n : 0;
	return cs ? cs->relos : NULL;
}

static int co_re_resolve_all(struct bsdk_obj *obj, struct co_re_state *cs)
{
	const char *path = obj->btf_path;
	int err;

	/* No kernel BTF is not an error yet: inspect lists the relocations; load refuses. */
	if (!path && access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		for (size_t i = 0; i < cs->n; i++)
			snprintf(cs->relos[i].note, sizeof(cs->relos[i].note),
				 "no kernel BTF: /sys/kernel/btf/vmlinux: %s", strerror(errno));
		log_debug("'%s': %zu CO-RE relocations, no kernel BTF to resolve them", obj->name,
			  cs->n);
		return 0;
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct co_re_relo *r = &cs->relos[i];

		err = co_re_resolve(obj->btf, r, path);
		if (err)
			return err;
		co_re_check_fits(r, (const struct bpf_insn *)obj->file.secs[r->sec].data + r->insn);
	}
	return 0;
}

/* The pass at open: read and resolve. */
static int co_re_open(struct bsdk_obj *obj)
{
	const struct btf_ext *x = btf_ext_of(obj);
	struct co_re_state *cs;
	int err;

	if (!x || !x->ncore)
		return 0;
	cs = obj_state(obj, &co_re_key, sizeof(*cs), co_re_state_free);
	if (!cs)
		return -errno;
	cs->progs = calloc(obj->nprogs ? obj->nprogs : 1, sizeof(*cs->progs));
	if (!cs->progs)
		return fail(ENOMEM);
	cs->nprogs = obj->nprogs;
	err = co_re_relos_read(obj, cs);
	return err ? err : co_re_resolve_all(obj, cs);
}

/* The relocations of section sec's instructions [first, first + count), in order. */
static const struct co_re_relo *co_re_relos_in(const struct co_re_state *cs, size_t sec,
					     size_t first, size_t count, size_t *n)
{
	size_t lo = 0, hi = cs->n, start;

	while (lo < hi) {	/* the first at or after (sec, first) */
		size_t mid = lo + (hi - lo) / 2;
		const struct co_re_relo *r = &cs->relos[mid];

		if (r->sec < sec || (r->sec == sec && r->insn < first))
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < cs->n && cs->relos[lo].sec == sec && cs->relos[lo].insn < first + count)
		lo++;
	*n = lo - start;
	return *n ? &cs->relos[start] : NULL;
}

/* The pass at link: patch fn's relocations, and list them for the program. A program is
 * placed first (at base 0), so its list starts afresh there: linking is the same each time. */
static int co_re_link(const struct bsdk_prog *prog, const struct func *fn, struct linked *out,
		     size_t base)
{
	struct co_re_state *cs = state_of(prog->obj);
	struct co_re_prog *cp;
	const struct co_re_relo *r;
	size_t n;

	if (!cs)
		return 0;
	cp = &cs->progs[prog - prog->obj->progs];
	if (base == 0)
		cp->n = 0;
	r = co_re_relos_in(cs, fn->sec, fn->first, fn->count, &n);
	for (size_t i = 0; i < n; i++, r++) {
		size_t pc = base + (r->insn - fn->first);
		int err = co_re_patch(r, &out->insns[pc], out->count - pc, prog->fn.name);

		if (!err)
			err = array_push(&cp->uses, &cp->n, &(struct co_re_use){ pc, r },
					 sizeof(struct co_re_use));
		if (err)
			return err;
	}
	return 0;
}

/* The pass at load: fail, saying why, when a program to load uses a relocation that is
 * unresolved (no kernel BTF) or in error. */
static int co_re_check_load(struct bsdk_obj *obj)
{
	const struct co_re_state *cs = state_of(obj);

	for (size_t p = 0; cs && p < obj->nprogs; p++) {
		const struct bsdk_prog *prog = &obj->progs[p];
		const struct co_re_prog *cp = &cs->progs[p];

		for (size_t i = 0; prog->autoload && i < cp->n; i++) {
			const struct co_re_relo *r = cp->uses[i].relo;

			if (r->state == BSDK_CORE_UNRESOLVED)
				return obj_fail(obj, BSDK_ENOTSUPP,
						"program '%s': %zu CO-RE relocation%s cannot be resolved (%s); name a kernel BTF file in bsdk_obj_open_opts.btf_path (bpfsdk --btf)",
						prog->fn.name, cp->n, cp->n == 1 ? "" : "s",
						r->note);
			if (r->state == BSDK_CORE_ERROR)
				return obj_fail(obj, BSDK_ERELO,
						"program '%s': CO-RE relocation %u (%s %s, access '%s'): %s",
						prog->fn.name, r->index, co_re_kind_name(r->kind), r->desc,
						r->access, r->note);
		}
	}
	return 0;
}

/* After a verifier rejection at instruction insn: when it is a poisoned relocation, say which
 * and why. */
static void co_re_explain(const struct bsdk_prog *prog, const struct linked *l, long insn)
{
	const struct co_re_state *cs = state_of(prog->obj);
	const struct co_re_prog *cp = cs ? &cs->progs[prog - prog->obj->progs] : NULL;
	const struct bpf_line_info *li = NULL;
	const struct co_re_relo *r = NULL;
	char where[512] = "";

	for (size_t i = 0; cp && insn >= 0 && i < cp->n; i++)
		if (cp->uses[i].insn == (size_t)insn)
			r = cp->uses[i].relo;
	if (!r || r->state != BSDK_CORE_POISONED)
		return;
	for (size_t i = 0; i < l->nline; i++)
		if (l->line[i].insn_off <= (unsigned long)insn)
			li = &l->line[i];
	if (li)
		snprintf(where, sizeof(where), " at %s:%u", btf_str(prog->obj->btf, li->file_name_off),
			 BPF_LINE_INFO_LINE_NUM(li->line_col));
	log_error("  instruction %ld is CO-RE relocation %u (%s %s, access '%s')%s, which the kernel's BTF cannot satisfy: %s",
		  insn, r->index, co_re_kind_name(r->kind), r->desc, r->access, where,
		  r->note);
}

/* The pass at open, before the object is read: a kernel BTF named by the
 * caller is checked now, whether or not this object needs it. */
static int co_re_kernel_btf(struct bsdk_obj *obj)
{
	return kbtf_vmlinux(obj->btf_path) ? 0 : -errno;
}

const struct obj_pass co_re_pass = {
	.name = "CO-RE",
	.co_re_relos = true,
	.kernel_btf = co_re_kernel_btf,
	.open = co_re_open,
	.link_func = co_re_link,
	.load = co_re_check_load,
	.explain = co_re_explain,
};

/* ---- the public accessors */

static const struct co_re_prog *prog_uses(const struct bsdk_prog *prog)
{
	const struct co_re_state *cs = state_of(prog->obj);

	return cs ? &cs->progs[prog - prog->obj->progs] : NULL;
}

size_t bsdk_prog_core_relo_count(const struct bsdk_prog *prog)
{
	const struct co_re_prog *cp = prog_uses(prog);

	return cp ? cp->n : 0;
}

int bsdk_prog_core_relo(const struct bsdk_prog *prog, size_t i, struct bsdk_core_relo_info *info)
{
	const struct co_re_prog *cp = prog_uses(prog);
	const struct co_re_relo *r;

	if (!cp || i >= cp->n)
		return fail(ERANGE);
	r = cp->uses[i].relo;
	memset(info, 0, sizeof(*info));
	info->kind = r->kind;
	info->kind_name = co_re_kind_name(r->kind);
	info->insn = cp->uses[i].insn;
	info->access = r->access;
	info->spec = r->desc;
	info->local_value = r->orig;
	info->state = r->state;
	info->value = r->state == BSDK_CORE_RESOLVED ? r->value : 0;
	info->target_type_id = r->targ_id;
	info->target_type = r->targ_btf ? co_re_type_label(r->targ_btf, r->targ_id) : "";
	info->note = r->note;
	return 0;
}
