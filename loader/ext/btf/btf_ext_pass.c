// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_ext_pass.c - an object's .BTF.ext, above the core: parsed once at
 * open (btf_ext.c) for the passes that read it (btf_ext_of(): the CO-RE
 * records, co_re_obj.c), and its func and line info moved with each
 * function the linker places, so that the kernel checks each function
 * against its BTF prototype and the verifier's story names the C line it
 * stopped at (the first hint after a rejection).
 *
 * The kernel wants exactly one func_info at the start of each function
 * of a program: when the linked functions do not have that, the program
 * loads without func and line info rather than not at all.
 */
#include <stdio.h>

#include "ext/btf/btf_load.h"
#include "object/pass.h"
#include "ext/btf/btf_ext.h"
#include "format/btf.h"

struct ext_state {
	struct btf_ext x;
	bool dropped;		/* the program being linked: its info left out */
};

static const char ext_key;	/* obj_state()'s key */

static void ext_state_free(void *p)
{
	btf_ext_free(&((struct ext_state *)p)->x);
	free(p);
}

const struct btf_ext *btf_ext_of(const struct bsdk_obj *obj)
{
	const struct ext_state *s = obj_state_find(obj, &ext_key);

	return s ? &s->x : NULL;
}

static int info_cmp(const void *a, const void *b)
{
	uint32_t x, y;	/* insn_off, the first field of both kinds of record */

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return (x > y) - (x < y);
}

/* The linker looks a function's records up by instruction: sort the rare
 * object whose records are not (clang's are). */
static void info_sort(void *recs, size_t n, size_t size)
{
	for (size_t k = 1; k < n; k++) {
		if (info_cmp((char *)recs + (k - 1) * size, (char *)recs + k * size) > 0) {
			qsort(recs, n, size, info_cmp);
			return;
		}
	}
}

/* At open: .BTF.ext, when there is .BTF too (its records name .BTF's types
 * and strings: alone, it means nothing), parsed and checked. */
static int ext_open(struct bsdk_obj *obj)
{
	const struct elf_sec *s = elf_sec_by_name(&obj->file, ".BTF.ext", NULL);
	struct ext_state *st;
	int err;

	if (s && !elf_sec_name_unique(&obj->file, ".BTF.ext"))
		return obj_fail(obj, BSDK_EFORMAT, "two sections are named '.BTF.ext'");
	if (!s || !s->data || !obj->btf)
		return 0;
	st = obj_state(obj, &ext_key, sizeof(*st), ext_state_free);
	if (!st)
		return -errno;
	err = btf_ext_parse(&st->x, &obj->file, obj->btf, s->data, s->size);
	for (size_t i = 0; !err && i < st->x.nsecs; i++) {
		info_sort(st->x.info[i].func, st->x.info[i].nfunc, sizeof(struct bpf_func_info));
		info_sort(st->x.info[i].line, st->x.info[i].nline, sizeof(struct bpf_line_info));
	}
	return err;
}

/* The first of n records, each size bytes with its insn_off first, whose
 * insn_off is at least first: the records are sorted. */
static size_t first_rec(const void *recs, size_t n, size_t size, size_t first)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t off;

		memcpy(&off, (const char *)recs + mid * size, sizeof(off));
		if (off < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Append the records of fn's instructions among n of them (each size
 * bytes) to *out, moved to where fn lands (base). 0 or -ENOMEM. */
static int info_move(const void *recs, size_t n, size_t size, const struct func *fn,
		     size_t base, void *out, size_t *nout)
{
	char rec[sizeof(struct bpf_line_info)];	/* the larger of the two */
	uint32_t off;
	int err = 0;

	for (size_t i = first_rec(recs, n, size, fn->first); !err && i < n; i++) {
		memcpy(rec, (const char *)recs + i * size, size);
		memcpy(&off, rec, sizeof(off));
		if (off - fn->first >= fn->count)
			break;
		off += (uint32_t)(base - fn->first);
		memcpy(rec, &off, sizeof(off));
		err = array_push(out, nout, rec, size);
	}
	return err;
}

/* Linking: fn of prog was placed at base in out (the program itself first,
 * at 0): its func and line info follow it. Pieces come in order, so the
 * linked arrays come out sorted, as the kernel wants. */
static int ext_link_func(const struct bsdk_prog *prog, const struct func *fn,
			 struct linked *out, size_t base)
{
	struct ext_state *st = obj_state_find(prog->obj, &ext_key);
	const struct ext_info *e = st ? &st->x.info[fn->sec] : NULL;
	size_t nfunc_before = out->nfunc;
	int err;

	if (!e)
		return 0;
	if (base == 0)
		st->dropped = false;
	if (st->dropped)
		return 0;
	err = info_move(e->func, e->nfunc, sizeof(*e->func), fn, base, &out->func, &out->nfunc);
	if (!err)
		err = info_move(e->line, e->nline, sizeof(*e->line), fn, base, &out->line, &out->nline);
	/* one func_info per function, at its start - or none in the program at all */
	if (!err && out->nfunc &&
	    (out->nfunc != nfunc_before + 1 || out->func[nfunc_before].insn_off != base ||
	     (nfunc_before == 0 && base != 0))) {
		log_debug("program '%s': func_info does not cover each function; not using it", prog->fn.name);
		out->nfunc = out->nline = 0;
		st->dropped = true;
	}
	return err;
}

/* After the verifier rejected l at instruction insn: the C line it
 * stopped at, from the line info the program was loaded with. */
static void ext_hint(const struct bsdk_prog *prog, const char *log, long insn, const struct linked *l)
{
	const struct bpf_line_info *li = NULL;
	const char *src;
	char where[512];

	(void)log;
	for (size_t i = 0; insn >= 0 && i < l->nline; i++)
		if (l->line[i].insn_off <= (unsigned long)insn)
			li = &l->line[i];
	if (!li)
		return;
	src = btf_str(prog->obj->btf, li->line_off);
	while (*src == ' ' || *src == '\t')
		src++;
	snprintf(where, sizeof(where), "the verifier stopped at %s:%u (instruction %ld): ",
		 btf_str(prog->obj->btf, li->file_name_off),
		 BPF_LINE_INFO_LINE_NUM(li->line_col), insn);
	log_detail_untabbed(where, src);
}

const struct obj_pass btf_ext_pass = {
	.name = ".BTF.ext",
	.open = ext_open,
	.link_func = ext_link_func,
	.hint = ext_hint,
};
