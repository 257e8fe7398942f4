// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * relo.c - turn clang's relocations into what the kernel expects.
 *
 * clang leaves placeholders where a program uses something only known at
 * load time, and an ELF relocation saying which symbol fills each one:
 *
 *   ld_imm64 of a map          -> src_reg BPF_PSEUDO_MAP_FD, imm = map fd
 *   ld_imm64 of a global       -> src_reg BPF_PSEUDO_MAP_VALUE, imm = fd of
 *                                 the section's array map, next imm = offset
 *   call of a .text function   -> the subprogram is appended after the
 *                                 program and imm becomes the distance to it
 *   ld_imm64 of a function     -> src_reg BPF_PSEUDO_FUNC, same distance
 *
 * relos_collect() reads and checks every relocation when the object is
 * opened; relos_link_prog() applies them to a copy of the program at load
 * time (and at open, when an extension links each one to show it).
 */
#include "object/object.h"
#include "object/pass.h"

#define INSN_SIZE sizeof(struct bpf_insn)

static bool is_ld_imm64(const struct bpf_insn *insn) { return insn->code == (BPF_LD | BPF_IMM | BPF_DW); }

static bool is_pseudo_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) &&
	       insn->src_reg == BPF_PSEUDO_CALL;
}

static const struct bpf_insn *sec_insn(const struct bsdk_obj *obj, size_t sec, size_t idx)
{
	return (const struct bpf_insn *)obj->file.secs[sec].data + idx;
}

/* The byte offset st_value + imm that a data or function relocation names,
 * in *off when it falls inside [0, limit); false otherwise, an st_value of
 * any size included (no overflow). */
static bool sym_offset(uint64_t st_value, int32_t imm, uint64_t limit, uint64_t *off)
{
	int64_t o;

	if (st_value >= limit || st_value > INT64_MAX / 2)
		return false;
	o = (int64_t)st_value + imm;
	if (o < 0 || (uint64_t)o >= limit)
		return false;
	*off = (uint64_t)o;
	return true;
}

static int relo_cmp(const void *a, const void *b)
{
	const struct relo *ra = a, *rb = b;

	return (ra->insn > rb->insn) - (ra->insn < rb->insn);
}

/* A relocation against an undefined symbol: an extension's (externs) to
 * classify, through its pass. */
static int relo_undef(struct bsdk_obj *obj, size_t sec, size_t n,
		      const struct bpf_insn *insn, struct relo *out)
{
	int err = passes_relo_undef(obj, sec, n, insn, out);

	if (err != -ENOENT)
		return err;
	/* a call of a name nothing declares: a misspelled helper or a
	 * missing include, told when the program loads; open goes on, so
	 * inspect can show the object */
	if (insn->code == (BPF_JMP | BPF_CALL)) {
		out->kind = BSDK_RELO_UNDECLARED;
		return 0;
	}
	return relo_error(obj, sec, n, "refers to extern '%s', which is declared neither __kconfig nor __ksym: the loader cannot resolve it",
			  out->sym_name);
}

/* An ld_imm64 of a variable in a global data section (.data, .rodata, .bss). */
static int relo_data(struct bsdk_obj *obj, size_t sec, size_t n, const GElf_Sym *sym,
		     const struct bpf_insn *insn, struct relo *out)
{
	const char *sname = obj->file.secs[sym->st_shndx].name;
	struct bsdk_map *map = map_by_data_sec(obj, sym->st_shndx);
	/* Named variables carry their offset in st_value, section
	 * symbols in the instruction's imm; one of them is 0. */
	uint64_t off;

	if (map && sym->st_value >= map->value_size)
		return relo_error(obj, sec, n, "refers to symbol '%s' at offset %llu of '%s', outside the section",
				  out->sym_name, (unsigned long long)sym->st_value, sname);
	if (!map || !sym_offset(sym->st_value, insn->imm, map->value_size, &off))
		return relo_error(obj, sec, n, "refers to offset %lld of '%s', outside the section",
				  (long long)sym->st_value + insn->imm, sname);
	out->kind = BSDK_RELO_DATA;
	out->map = (size_t)(map - obj->maps);
	out->offset = off;
	return 0;
}

/* Classify one relocation and check it against what it points at. */
static int relo_parse(struct bsdk_obj *obj, size_t sec, size_t n,
		      const GElf_Rel *rel, struct relo *out)
{
	const struct elf_sec *s = &obj->file.secs[sec];
	size_t sym_idx = GELF_R_SYM(rel->r_info);
	const struct bpf_insn *insn;
	const GElf_Sym *sym;
	size_t sym_sec;

	if (rel->r_offset % INSN_SIZE)
		return relo_error(obj, sec, n, "is not aligned to an instruction (offset %llu)", (unsigned long long)rel->r_offset);
	if (rel->r_offset >= s->size)
		return relo_error(obj, sec, n, "points past the end of the section (offset %llu, size %zu)",
				  (unsigned long long)rel->r_offset, s->size);
	if (sym_idx >= obj->file.nsyms)
		return relo_error(obj, sec, n, "names symbol %zu, past the end of the symbol table (%zu)", sym_idx, obj->file.nsyms);
	sym = &obj->file.syms[sym_idx];
	sym_sec = sym->st_shndx;
	out->insn = rel->r_offset / INSN_SIZE;
	out->sym_name = elf_sym_name(&obj->file, sym);
	insn = sec_insn(obj, sec, out->insn);

	if (sym_sec == SHN_UNDEF && GELF_ST_BIND(sym->st_info) != STB_LOCAL && *out->sym_name)
		return relo_undef(obj, sec, n, insn, out);
	if (is_pseudo_call(insn)) {
		if (sym_sec != obj->text_sec || !obj->text_sec)
			return relo_error(obj, sec, n, "calls '%s', which is not a function in .text", out->sym_name);
		/* imm counts instructions from the one after the call. */
		int64_t target = (int64_t)(sym->st_value / INSN_SIZE) + insn->imm + 1;

		if (target < 0 || (uint64_t)target >= obj->file.secs[sym_sec].size / INSN_SIZE)
			return relo_error(obj, sec, n, "calls outside .text");
		out->kind = BSDK_RELO_CALL;
		out->target = (size_t)target;
		return 0;
	}
	if (!is_ld_imm64(insn))
		return relo_error(obj, sec, n, "(symbol '%s') is on instruction %zu, which is neither ld_imm64 nor a BPF-to-BPF call (code %#x)",
				  out->sym_name, out->insn, insn->code);
	if (rel->r_offset + 2 * INSN_SIZE > s->size)
		return relo_error(obj, sec, n, "is on an ld_imm64 cut off by the end of the section");
	if (sym_sec == 0 || sym_sec >= obj->file.nsecs)
		return relo_error(obj, sec, n, "refers to symbol %zu '%s', which is not defined in this object", sym_idx, out->sym_name);

	const char *sname = obj->file.secs[sym_sec].name;

	if (strcmp(sname, "maps") == 0 || strcmp(sname, ".maps") == 0) {
		struct bsdk_map *map = map_by_sec_offset(obj, sym_sec, sym->st_value);

		if (!map)
			return relo_error(obj, sec, n, "refers to '%s' in '%s', which is not a map definition", out->sym_name, sname);
		out->kind = BSDK_RELO_MAP;
		out->map = (size_t)(map - obj->maps);
		return 0;
	}
	if (elf_sec_is_data(&obj->file, sym_sec))
		return relo_data(obj, sec, n, sym, insn, out);
	if (sym_sec == obj->text_sec && obj->text_sec) {
		/* A function's address (callbacks of bpf_loop() & co.):
		 * the addend is in bytes here. */
		uint64_t off;

		if (!sym_offset(sym->st_value, insn->imm, obj->file.secs[sym_sec].size, &off) || off % INSN_SIZE)
			return relo_error(obj, sec, n, "takes the address of an invalid .text offset");
		out->kind = BSDK_RELO_FUNC;
		out->target = (size_t)off / INSN_SIZE;
		return 0;
	}
	return relo_error(obj, sec, n, "refers to '%s' in section '%s', which the loader cannot relocate", out->sym_name, sname);
}

static int collect_section(struct bsdk_obj *obj, size_t rel_sec)
{
	const struct elf_sec *rs = &obj->file.secs[rel_sec];
	size_t target = rs->shdr.sh_info, count;
	Elf_Data *data;
	struct relo *relos;

	if (target == 0 || target >= obj->file.nsecs)
		return obj_fail(obj, BSDK_EFORMAT, "section '%s': relocates section %zu, which does not exist", rs->name, target);
	/* Relocations of debug info and BTF are for debuggers, not us. */
	if (!elf_sec_is_prog(&obj->file, target))
		return 0;
	if (rs->shdr.sh_type == SHT_RELA)
		return obj_fail(obj, BSDK_EFORMAT, "section '%s': RELA relocations are not used by BPF", rs->name);
	if (rs->shdr.sh_link != obj->file.symtab_sec)
		return obj_fail(obj, BSDK_EFORMAT, "section '%s': does not use the symbol table", rs->name);
	if (rs->shdr.sh_entsize != sizeof(Elf64_Rel) ||
	    rs->size % sizeof(Elf64_Rel) || (rs->size && !rs->data))
		return obj_fail(obj, BSDK_EFORMAT, "section '%s': entry size %llu, expected %zu",
				rs->name,
				(unsigned long long)rs->shdr.sh_entsize, sizeof(Elf64_Rel));
	if (obj->relos[target])
		return obj_fail(obj, BSDK_EFORMAT, "section '%s' has two relocation sections", obj->file.secs[target].name);
	count = rs->size / sizeof(Elf64_Rel);
	relos = calloc(count ? count : 1, sizeof(*relos));
	if (!relos)
		return fail(ENOMEM);
	obj->relos[target] = relos;
	obj->nrelos[target] = count;

	data = elf_getdata(elf_getscn(obj->file.elf, rel_sec), NULL);
	for (size_t i = 0; i < count; i++) {
		GElf_Rel rel;
		int err;

		if (!data || !gelf_getrel(data, (int)i, &rel))
			return obj_fail(obj, BSDK_EFORMAT, "section '%s': relocation %zu cannot be read", obj->file.secs[target].name, i);
		err = relo_parse(obj, target, i, &rel, &relos[i]);
		if (err)
			return err;
	}
	qsort(relos, count, sizeof(*relos), relo_cmp);
	for (size_t i = 1; i < count; i++) {
		if (relos[i].insn == relos[i - 1].insn)
			return relo_error(obj, target, i, "relocates instruction %zu a second time", relos[i].insn);
	}
	return 0;
}

int relos_collect(struct bsdk_obj *obj)
{
	obj->relos = calloc(obj->file.nsecs, sizeof(*obj->relos));
	obj->nrelos = calloc(obj->file.nsecs, sizeof(*obj->nrelos));
	if (!obj->relos || !obj->nrelos)
		return fail(ENOMEM);
	for (size_t i = 1; i < obj->file.nsecs; i++) {
		if (obj->file.secs[i].shdr.sh_type == SHT_REL || obj->file.secs[i].shdr.sh_type == SHT_RELA) {
			int err = collect_section(obj, i);

			if (err)
				return err;
		}
	}
	return 0;
}

static const struct relo *relo_at(const struct bsdk_obj *obj, size_t sec, size_t insn)
{
	struct relo key = { .insn = insn };

	if (!obj->relos[sec])
		return NULL;
	return bsearch(&key, obj->relos[sec], obj->nrelos[sec], sizeof(key), relo_cmp);
}

/* The .text function holding instruction idx: subprogs are sorted and
 * do not overlap (progs_collect() checked). */
static const struct func *subprog_at(const struct bsdk_obj *obj, size_t idx)
{
	size_t lo = 0, hi = obj->nsubprogs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->subprogs[mid].first + obj->subprogs[mid].count <= idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < obj->nsubprogs && idx >= obj->subprogs[lo].first)
		return &obj->subprogs[lo];
	return NULL;
}

/* The linked program under construction, and where each function in it starts. */
struct piece {
	const struct func *fn;
	size_t base;
};

struct linker {
	const struct bsdk_prog *prog;
	struct linked out;
	struct piece *pieces;
	size_t npieces;
	size_t *placed;		/* per subprogram: its piece + 1, 0 when not yet */
};

/* Where sub starts in the linked program, appending it on first use (what
 * the extensions move with it - CO-RE, func and line info - they move). */
static int linker_place(struct linker *l, const struct bsdk_obj *obj,
			const struct func *sub, size_t *base)
{
	/* the program itself is placed first, and only once */
	bool is_sub = obj->nsubprogs && sub >= obj->subprogs &&
		      sub < obj->subprogs + obj->nsubprogs;
	size_t *placed = is_sub ? &l->placed[sub - obj->subprogs] : NULL;
	struct linked *out = &l->out;
	struct bpf_insn *insns;
	int err = 0;

	if (placed && *placed) {
		*base = l->pieces[*placed - 1].base;
		return 0;
	}
	if (out->count + sub->count > BPF_COMPLEXITY_LIMIT_INSNS)
		return fail(E2BIG);
	insns = realloc(out->insns, (out->count + sub->count) * INSN_SIZE);
	if (!insns)
		return fail(ENOMEM);
	out->insns = insns;
	memcpy(insns + out->count, sec_insn(obj, sub->sec, sub->first), sub->count * INSN_SIZE);
	*base = out->count;
	out->count += sub->count;
	err = array_push(&l->pieces, &l->npieces,
			 &(struct piece){ sub, *base }, sizeof(struct piece));
	if (!err && placed)
		*placed = l->npieces;
	/* what the extensions move or relocate in it */
	if (!err)
		err = passes_link_func(l->prog, sub, out, *base);
	return err;
}

/* Point the call or function load at pc to .text instruction target;
 * applied gets the callee's name and where it lands. */
static int link_call(struct linker *l, const struct bsdk_prog *prog,
		     size_t pc, size_t target, uint8_t src_reg,
		     struct relo *applied)
{
	const struct bsdk_obj *obj = prog->obj;
	const struct func *sub = subprog_at(obj, target);
	size_t base;
	int err;

	if (!sub)
		return log_fail(BSDK_ERELO, "program '%s': calls .text instruction %zu, which is not inside a function",
				prog->fn.name, target);
	err = linker_place(l, obj, sub, &base);
	if (err)
		return err;
	/* calls of static functions name the section: name the callee */
	applied->sym_name = sub->name;
	applied->target = base + target - sub->first;
	l->out.insns[pc].src_reg = src_reg;
	l->out.insns[pc].imm = (int32_t)((int64_t)applied->target - (int64_t)(pc + 1));
	return 0;
}

static int link_piece(struct linker *l, const struct bsdk_prog *prog, size_t k)
{
	const struct bsdk_obj *obj = prog->obj;
	const struct func *fn = l->pieces[k].fn;
	size_t base = l->pieces[k].base;
	int err = 0;

	for (size_t i = 0; i < fn->count && !err; i++) {
		const struct relo *r = relo_at(obj, fn->sec, fn->first + i);
		size_t pc = base + i;
		struct bpf_insn *insn = &l->out.insns[pc];
		struct relo applied = { 0 };

		if (!r) {
			/* A call clang resolved itself, within the section. */
			if (is_pseudo_call(insn)) {
				int64_t to = (int64_t)(fn->first + i) + insn->imm + 1;

				if (fn->sec != obj->text_sec || to < 0)
					return log_fail(BSDK_ERELO, "program '%s': instruction %zu calls a function the loader cannot find",
							prog->fn.name, pc);
				err = link_call(l, prog, pc, (size_t)to, BPF_PSEUDO_CALL, &applied);
			}
			continue;
		}
		if (r->kind != BSDK_RELO_CALL && r->kind != BSDK_RELO_KFUNC &&
		    r->kind != BSDK_RELO_UNDECLARED && i + 1 >= fn->count)
			return log_fail(BSDK_ERELO, "program '%s': ld_imm64 at instruction %zu is cut off by the end of the function",
					prog->fn.name, pc);
		applied = *r;
		applied.insn = pc;
		switch (r->kind) {
		case BSDK_RELO_MAP:
		case BSDK_RELO_DATA:
			insn[0].src_reg = r->kind == BSDK_RELO_MAP ?
					  BPF_PSEUDO_MAP_FD : BPF_PSEUDO_MAP_VALUE;
			insn[0].imm = obj->maps[r->map].fd;
			insn[1].imm = (int32_t)r->offset;
			break;
		case BSDK_RELO_CALL:
		case BSDK_RELO_FUNC:
			err = link_call(l, prog, pc, r->target,
					r->kind == BSDK_RELO_CALL ?
					BPF_PSEUDO_CALL : BPF_PSEUDO_FUNC,
					&applied);
			break;
		case BSDK_RELO_UNDECLARED:
			/* a call of nothing, as clang writes it (never counted
			 * as a helper's): load refuses the program */
			insn->src_reg = BPF_PSEUDO_CALL;
			insn->imm = -1;
			break;
		case BSDK_RELO_KSYM:
		case BSDK_RELO_KFUNC:
			passes_link_relo(obj, r, insn);
			break;
		}
		if (!err)
			err = array_push(&l->out.relos, &l->out.nrelos, &applied, sizeof(applied));
	}
	return err;
}

void linked_free(struct linked *l)
{
	free(l->insns);
	free(l->func);
	free(l->line);
	free(l->relos);
	memset(l, 0, sizeof(*l));
}

int relos_link_prog(const struct bsdk_prog *prog, struct linked *out)
{
	struct linker l = { .prog = prog };
	size_t base;
	int err;

	/* the caller frees *out whatever the result: it must hold nothing owned on failure too */
	*out = (struct linked){ 0 };
	l.placed = calloc(prog->obj->nsubprogs ? prog->obj->nsubprogs : 1, sizeof(*l.placed));
	if (!l.placed)
		return fail(ENOMEM);
	err = linker_place(&l, prog->obj, &prog->fn, &base);
	/* Appending may add pieces; walk until no new one appears. */
	for (size_t k = 0; !err && k < l.npieces; k++)
		err = link_piece(&l, prog, k);
	free(l.pieces);
	free(l.placed);
	if (err == -E2BIG)
		log_error("program '%s': more than %d instructions with its subprograms",
			  prog->fn.name, BPF_COMPLEXITY_LIMIT_INSNS);
	if (err)
		linked_free(&l.out);
	*out = l.out;
	return err;
}
