// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * record_sites.c - the calls that send a map's records: every
 * bpf_perf_event_output(), bpf_ringbuf_output() and bpf_ringbuf_reserve()
 * whose map argument is the map's address, found by one walk of each
 * function's instructions that follows what r1-r5 hold.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "readers/records/record_type.h"

#define HELPER_PERF_EVENT_OUTPUT 25
#define HELPER_RINGBUF_OUTPUT 130
#define HELPER_RINGBUF_RESERVE 131

/* ---- the call sites */

enum reg_kind { R_UNKNOWN, R_STACK, R_MAP, R_CONST };
struct reg { enum reg_kind kind; int64_t v; };

const struct relo *records_relo_of(const struct bsdk_obj *obj, size_t sec, size_t insn)
{
	const struct relo *rs = obj->relos[sec];
	size_t lo = 0, hi = obj->nrelos[sec];

	while (rs && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rs[mid].insn == insn)
			return &rs[mid];
		if (rs[mid].insn < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Instructions a jump lands on: what the registers hold there depends on the path. */
static bool *jump_targets(const struct bpf_insn *in, size_t n)
{
	bool *t = calloc(n + 1, 1);

	for (size_t i = 0; t && i < n; i++) {
		uint8_t cls = BPF_CLASS(in[i].code), op = BPF_OP(in[i].code);
		int64_t to;

		if (in[i].code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_CALL || op == BPF_EXIT)
			continue;
		to = (int64_t)i + 1 + (cls == BPF_JMP32 && op == BPF_JA ? in[i].imm : in[i].off);
		if (to >= 0 && (size_t)to <= n)
			t[to] = true;
	}
	return t;
}

/* A call of helper h at fn's instruction i: a site when it is an output call
 * whose map argument is map. -ENOMEM when the list cannot grow. */
static int note_output_call(const struct func *fn, size_t i, int h, const struct reg *r,
			    size_t map, struct site **sites, size_t *nsites)
{
	const struct reg *m = NULL, *data = NULL, *size = NULL;
	struct site *grown;

	if (h == HELPER_PERF_EVENT_OUTPUT)
		m = &r[2], data = &r[4], size = &r[5];
	else if (h == HELPER_RINGBUF_OUTPUT)
		m = &r[1], data = &r[2], size = &r[3];
	else if (h == HELPER_RINGBUF_RESERVE)
		m = &r[1], size = &r[2];
	if (!m || m->kind != R_MAP || (size_t)m->v != map)
		return 0;
	grown = realloc(*sites, (*nsites + 1) * sizeof(**sites));
	if (!grown)
		return -ENOMEM;
	*sites = grown;
	grown[*nsites] = (struct site){
		.func = fn->name,
		.pc = (fn->first + i) * sizeof(struct bpf_insn),
		.func_pc = fn->first * sizeof(struct bpf_insn),
		.stack = data && data->kind == R_STACK,
		.stack_off = data ? data->v : 0,
		.size_known = size->kind == R_CONST && size->v > 0,
		.size = (uint64_t)size->v,
	};
	(*nsites)++;
	return 0;
}

/* What a 64-bit ALU instruction leaves in its destination register (below r10). */
static void alu64_track(struct reg *r, const struct bpf_insn *x)
{
	uint8_t op = BPF_OP(x->code), dst = x->dst_reg, src = x->src_reg;

	if (op == BPF_MOV && BPF_SRC(x->code) == BPF_X && x->off == 0 && src <= 10)
		r[dst] = src == 10 ? (struct reg){ R_STACK, 0 } : r[src];
	else if (op == BPF_MOV && BPF_SRC(x->code) == BPF_K)
		r[dst] = (struct reg){ R_CONST, x->imm };
	else if (op == BPF_ADD && BPF_SRC(x->code) == BPF_K && r[dst].kind == R_STACK)
		r[dst].v += x->imm;
	else
		r[dst].kind = R_UNKNOWN;
}

/* Walk fn's instructions once, following what r1-r5 hold (a map's address, a stack slot,
 * a constant), and note each call of an output helper whose map argument is map. */
static int scan_func(const struct bsdk_obj *obj, const struct func *fn, size_t map,
		     struct site **sites, size_t *nsites)
{
	const struct elf_sec *s = &obj->file.secs[fn->sec];
	const struct bpf_insn *in;
	struct reg r[11];
	bool *targets;

	if (!s->data || (fn->first + fn->count) * sizeof(*in) > s->size)
		return 0;
	in = (const struct bpf_insn *)s->data + fn->first;
	targets = jump_targets(in, fn->count);
	if (!targets)
		return -ENOMEM;
	memset(r, 0, sizeof(r));
	for (size_t i = 0; i < fn->count; i++) {
		const struct bpf_insn *x = &in[i];
		uint8_t cls = BPF_CLASS(x->code), dst = x->dst_reg, src = x->src_reg;
		const struct relo *rel;

		if (targets[i])
			memset(r, 0, sizeof(r));
		if (x->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			rel = records_relo_of(obj, fn->sec, fn->first + i);
			if (dst < 10) {
				r[dst].kind = rel && rel->kind == BSDK_RELO_MAP ? R_MAP : R_UNKNOWN;
				r[dst].v = rel ? (int64_t)rel->map : 0;
			}
			i++;
			continue;
		}
		if (x->code == (BPF_JMP | BPF_CALL) && src == 0) {
			if (note_output_call(fn, i, x->imm, r, map, sites, nsites)) {
				free(targets);
				return -ENOMEM;
			}
			memset(r, 0, 6 * sizeof(r[0]));
			continue;
		}
		if (cls == BPF_ALU64 && dst < 10) {
			alu64_track(r, x);
			continue;
		}
		if ((cls == BPF_ALU || cls == BPF_LDX || cls == BPF_LD) && dst < 10)
			r[dst].kind = R_UNKNOWN;
		if (cls == BPF_STX && BPF_MODE(x->code) == BPF_ATOMIC) {
			if (src < 10)
				r[src].kind = R_UNKNOWN;	/* BPF_FETCH writes it */
			r[0].kind = R_UNKNOWN;			/* BPF_CMPXCHG writes r0 */
		}
		if (x->code == (BPF_JMP | BPF_CALL))	/* a subprogram or kfunc */
			memset(r, 0, 6 * sizeof(r[0]));
	}
	free(targets);
	return 0;
}

int records_sites_find(const struct bsdk_obj *obj, size_t map, struct site **sites, size_t *n)
{
	int err = 0;

	*sites = NULL;
	*n = 0;
	for (size_t i = 0; !err && i < obj->nprogs; i++)
		err = scan_func(obj, &obj->progs[i].fn, map, sites, n);
	for (size_t i = 0; !err && i < obj->nsubprogs; i++)
		err = scan_func(obj, &obj->subprogs[i], map, sites, n);
	return err;
}

int bsdk_map_senders(const struct bsdk_map *map, const struct bsdk_prog **progs, size_t max)
{
	const struct bsdk_obj *obj = map ? map->obj : NULL;
	struct site *sites;
	size_t nsites, n = 0;
	int err;

	if (!obj || (!progs && max))
		return fail(EINVAL);
	err = records_sites_find(obj, (size_t)(map - obj->maps), &sites, &nsites);
	if (err)
		return fail(-err);
	for (size_t p = 0; p < obj->nprogs; p++) {
		bool sends = false;

		for (size_t i = 0; i < nsites && !sends; i++)
			sends = sites[i].func == obj->progs[p].fn.name;
		if (sends && n < max)
			progs[n] = &obj->progs[p];
		n += sends;
	}
	free(sites);
	return n > INT_MAX ? INT_MAX : (int)n;
}
