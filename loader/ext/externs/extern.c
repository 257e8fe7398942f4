// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * extern.c - the object's extern declarations, filled from the running
 * kernel: __kconfig variables (the kernel's version, features and
 * CONFIG_ options), __ksym variables (kernel variables, by BTF or by
 * address) and __ksym functions (kfuncs, by BTF ID). This file collects
 * them at open and writes them into the programs, as the externs' pass;
 * extern_resolve.c resolves them at load, kconfig.c reads the kernel's
 * configuration.
 *
 * clang leaves each extern as an undefined symbol, a BTF VAR or FUNC with
 * extern linkage in the DATASEC ".kconfig" or ".ksyms", and relocations
 * on the instructions that use it. At open, externs_collect() finds them
 * all and lays the __kconfig ones out in one read-only array map,
 * ".kconfig", as libbpf does; relo.c turns each use into a relocation of
 * that map (kconfig), or of the extern (ksym, kfunc). At load,
 * externs_resolve() reads the values and kernel BTF IDs, so that linking
 * writes them into the instructions:
 *
 *   kconfig     ld_imm64 -> BPF_PSEUDO_MAP_VALUE of .kconfig + offset
 *   typed ksym  ld_imm64 -> BPF_PSEUDO_BTF_ID, imm = the VAR's kernel BTF
 *               ID, next imm = the module's BTF fd (0: vmlinux)
 *   void ksym   ld_imm64 -> the address from /proc/kallsyms
 *   kfunc call  src_reg BPF_PSEUDO_KFUNC_CALL, imm = the FUNC's BTF ID,
 *               off = index of the module's BTF fd in fd_array (0: vmlinux)
 *
 * A __weak extern the kernel lacks reads as zero (NULL), and a call of a
 * missing weak kfunc becomes a call of a helper that does not exist: the
 * verifier only rejects it if the call can be reached, which is what
 * bpf_ksym_exists() guards.
 */
#include <stdio.h>

#include "ext/externs/extern.h"
#include "co-re/btf_index.h"
#include "format/btf.h"
#include "co-re/kbtf.h"

#define KCONFIG_SEC ".kconfig"
#define KSYMS_SEC ".ksyms"

/* What a missing weak kfunc's calls become: a helper number far past any
 * real one, plus the extern's index, so the verifier's "invalid func
 * unknown#N" says which. */
#define KFUNC_POISON 2002000000

/* A BTF record's info word: kind and vlen, no kind_flag. */
#define EXT_BTF_INFO(kind, vlen) (((uint32_t)(kind) << 24) | (uint32_t)(vlen))

const char *const extern_kind_names[3] = { "kconfig", "ksym", "kfunc" };

const char extern_key;

static void ext_state_free(void *p)
{
	struct ext_state *xs = p;

	free(xs->exts);
	free(xs->fd_array);
	free(xs);
}

/* An object without externs has this state: none. */
static struct ext_state no_externs = { .kconfig_map = SIZE_MAX };

struct ext_state *ext_state_of(const struct bsdk_obj *obj)
{
	struct ext_state *xs = obj_state_find(obj, &extern_key);

	return xs ? xs : &no_externs;
}

/* ---- Collecting the externs at open ------------------------------------- */

/* Classify a __kconfig variable's type: bool, tristate, char, integer or
 * char array, with its size and alignment. */
static int kcfg_classify(struct bsdk_obj *obj, struct ext *e, uint32_t type)
{
	const struct btf_type *t = btf_skip_mods(obj->btf, type, NULL);
	uint64_t size;

	if (!t || btf_type_size(obj->btf, type, &size) || size == 0 || size > 4096)
		goto bad;
	e->size = (uint32_t)size;
	e->align = 1;
	if (btf_kind(t) == BTF_KIND_INT) {
		uint32_t enc = BTF_INT_ENCODING(*(const uint32_t *)(t + 1));

		if (size != 1 && size != 2 && size != 4 && size != 8)
			goto bad;
		e->align = e->size;
		e->is_signed = enc & BTF_INT_SIGNED;
		if (enc & BTF_INT_BOOL)
			e->kcfg = KCFG_BOOL;
		else if (size == 1 && (enc & BTF_INT_CHAR || strcmp(btf_name(obj->btf, t), "char") == 0))
			e->kcfg = KCFG_CHAR;
		else
			e->kcfg = KCFG_INT;
		return 0;
	}
	if (btf_kind(t) == BTF_KIND_ENUM && strcmp(btf_name(obj->btf, t), "libbpf_tristate") == 0) {
		e->kcfg = KCFG_TRISTATE;
		e->align = e->size;
		return 0;
	}
	if (btf_kind(t) == BTF_KIND_ARRAY) {
		const struct btf_array *a = (const void *)(t + 1);
		const struct btf_type *el = btf_skip_mods(obj->btf, a->type, NULL);

		if (el && btf_kind(el) == BTF_KIND_INT && el->size == 1) {
			e->kcfg = KCFG_CHAR_ARR;
			return 0;
		}
	}
bad:
	return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s': its type is none of bool, enum libbpf_tristate, char, an integer of 1, 2, 4 or 8 bytes, or a char array",
			e->name);
}

/* The names the loader fills itself, besides CONFIG_*; their types are fixed. */
static int kcfg_check_special(struct bsdk_obj *obj, const struct ext *e)
{
	if (strcmp(e->name, "LINUX_KERNEL_VERSION") == 0) {
		if (e->kcfg != KCFG_INT || e->size < 4)
			return obj_fail(obj, BSDK_EBTF, "kconfig extern 'LINUX_KERNEL_VERSION' must be a 32- or 64-bit integer");
	} else if (strncmp(e->name, "LINUX_HAS_", 10) == 0) {
		if (e->kcfg != KCFG_BOOL)
			return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s' must be declared bool", e->name);
	}
	return 0;
}

static int ext_cmp(const void *a, const void *b)
{
	const struct ext *x = a, *y = b;

	/* kconfig ones first, largest alignment first: no padding between */
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The symbol of an extern, by name: undefined, global or weak. */
static const GElf_Sym *ext_sym(const struct bsdk_obj *obj, const char *name)
{
	for (size_t i = 1; i < obj->file.nsyms; i++) {
		const GElf_Sym *s = &obj->file.syms[i];
		int bind = GELF_ST_BIND(s->st_info);

		if (s->st_shndx == SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) &&
		    strcmp(elf_sym_name(&obj->file, s), name) == 0)
			return s;
	}
	return NULL;
}

/* A type the kernel accepts in place of what it cannot take (a 4-byte int,
 * or any int), 0 when the object has none. */
static uint32_t any_int(const struct btf *btf)
{
	uint32_t found = 0;

	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (t && btf_kind(t) == BTF_KIND_INT) {
			if (t->size == 4)
				return id;
			if (!found)
				found = id;
		}
	}
	return found;
}

static int secinfo_offset_cmp(const void *a, const void *b)
{
	const struct btf_var_secinfo *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/*
 * The kernel refuses BTF with extern VARs and FUNCs, and DATASECs holding
 * FUNCs, so rewrite them in place, keeping every record's size and type
 * ID: .kconfig gets its layout and allocated variables; .ksyms becomes an
 * anonymous struct of ints (its variables' types become that int, their
 * linkage allocated); extern FUNCs become global ones, whose unnamed
 * parameters the kernel also refuses, so those borrow the function's name.
 */
/* Turn DATASEC sec into an anonymous struct of int members (one per
 * entry, the record keeps its size), or an empty one without an int. */
static void datasec_to_struct(struct btf *btf, uint32_t sec_id, uint32_t int_id)
{
	struct btf_type *sec = (struct btf_type *)btf_type_by_id(btf, sec_id);
	struct btf_member *m = (struct btf_member *)(sec + 1);
	uint32_t isize = int_id ? btf_type_by_id(btf, int_id)->size : 0;
	uint16_t n = int_id ? btf_vlen(sec) : 0;

	for (uint16_t i = 0; i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo vs = *(struct btf_var_secinfo *)&m[i];
		struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, vs.type);

		if (t && btf_kind(t) == BTF_KIND_VAR) {
			if (int_id)
				t->type = int_id;
			((struct btf_var *)(t + 1))->linkage = BTF_VAR_GLOBAL_ALLOCATED;
		}
		if (i < n)
			m[i] = (struct btf_member){ 0, int_id, i * isize * 8 };
	}
	sec->name_off = 0;
	sec->info = EXT_BTF_INFO(BTF_KIND_STRUCT, n);
	sec->size = n * isize;
}

static void externs_fix_btf(struct bsdk_obj *obj, uint32_t kcfg_sec, uint32_t ksym_sec)
{
	struct ext_state *xs = ext_state_of(obj);
	struct btf *btf = obj->btf;
	uint32_t int_id = any_int(btf);

	if (kcfg_sec && xs->kconfig_map != SIZE_MAX) {
		struct btf_type *sec = (struct btf_type *)btf_type_by_id(btf, kcfg_sec);
		struct btf_var_secinfo *vs = (struct btf_var_secinfo *)(sec + 1);
		uint16_t kept = 0;

		/* the used variables get their place in .kconfig; declared but
		 * unused ones leave the section (which the record shrinking
		 * allows: types are found by ID, not by walking the bytes) */
		for (uint16_t i = 0; i < btf_vlen(sec); i++) {
			struct btf_type *var = (struct btf_type *)btf_type_by_id(btf, vs[i].type);

			if (var && btf_kind(var) == BTF_KIND_VAR)
				((struct btf_var *)(var + 1))->linkage = BTF_VAR_GLOBAL_ALLOCATED;
			for (size_t k = 0; var && k < xs->nexts; k++) {
				if (xs->exts[k].btf_id == vs[i].type) {
					vs[kept] = vs[i];
					vs[kept++].offset = xs->exts[k].offset;
					break;
				}
			}
		}
		sec->info = EXT_BTF_INFO(BTF_KIND_DATASEC, kept);
		/* the kernel wants them in offset order */
		qsort(vs, kept, sizeof(*vs), secinfo_offset_cmp);
		sec->size = obj->maps[xs->kconfig_map].value_size;
	} else if (kcfg_sec) {
		datasec_to_struct(btf, kcfg_sec, int_id);
	}
	if (ksym_sec)
		datasec_to_struct(btf, ksym_sec, int_id);
	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, id);
		const struct btf_type *proto;
		struct btf_param *p;

		if (!t || btf_kind(t) != BTF_KIND_FUNC || btf_vlen(t) != BTF_FUNC_EXTERN)
			continue;
		t->info = EXT_BTF_INFO(BTF_KIND_FUNC, BTF_FUNC_GLOBAL);
		proto = btf_type_by_id(btf, t->type);
		if (!proto || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
			continue;
		p = (struct btf_param *)(proto + 1);
		for (uint16_t i = 0; i < btf_vlen(proto); i++)
			if (p[i].type && !p[i].name_off)
				p[i].name_off = t->name_off;
	}
}

/* One DATASEC's externs into xs->exts. */
static int collect_sec(struct bsdk_obj *obj, uint32_t sec_id, bool kconfig)
{
	struct ext_state *xs = ext_state_of(obj);
	const struct btf_type *sec = btf_type_by_id(obj->btf, sec_id);
	const struct btf_var_secinfo *vs = btf_secinfos(sec);

	for (uint16_t i = 0; i < btf_vlen(sec); i++) {
		const struct btf_type *t = btf_type_by_id(obj->btf, vs[i].type);
		struct ext e = { .btf_id = vs[i].type, .kernel_btf_fd = 0 };
		const GElf_Sym *sym;
		int err;

		if (!t || (btf_kind(t) != BTF_KIND_VAR && btf_kind(t) != BTF_KIND_FUNC))
			return obj_fail(obj, BSDK_EBTF, "DATASEC '%s': entry %u is neither a variable nor a function",
					btf_name(obj->btf, sec), i);
		e.name = btf_name(obj->btf, t);
		sym = ext_sym(obj, e.name);
		if (!sym) {
			/* declared and never used: clang keeps the BTF only */
			log_debug("'%s': extern '%s' is declared but not used", obj->name, e.name);
			continue;
		}
		e.weak = GELF_ST_BIND(sym->st_info) == STB_WEAK;
		if (kconfig) {
			if (btf_kind(t) != BTF_KIND_VAR)
				return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s' is a function; __kconfig is for variables", e.name);
			e.kind = EXT_KCONFIG;
			err = kcfg_classify(obj, &e, t->type);
			if (!err)
				err = kcfg_check_special(obj, &e);
			if (err)
				return err;
		} else if (btf_kind(t) == BTF_KIND_FUNC) {
			e.kind = EXT_KFUNC;
			e.type_id = t->type;
		} else {
			const struct btf_type *vt = btf_skip_mods(obj->btf, t->type, &e.type_id);

			e.kind = EXT_KSYM;
			/* extern const void sym __ksym: only its address */
			e.typed = vt != NULL && e.type_id != 0;
		}
		if (array_push(&xs->exts, &xs->nexts, &e, sizeof(e)))
			return -ENOMEM;
	}
	return 0;
}

int externs_collect(struct bsdk_obj *obj)
{
	uint32_t kcfg_sec = 0, ksym_sec = 0, off = 0;
	struct ext_state *xs;
	struct bsdk_map *map;
	int err = 0;

	xs = obj_state(obj, &extern_key, sizeof(*xs), ext_state_free);
	if (!xs)
		return -errno;
	xs->kconfig_map = SIZE_MAX;
	if (!obj->btf) {
		for (size_t i = 1; i < obj->file.nsyms; i++) {
			const GElf_Sym *s = &obj->file.syms[i];

			if (s->st_shndx == SHN_UNDEF && GELF_ST_BIND(s->st_info) != STB_LOCAL &&
			    *elf_sym_name(&obj->file, s))
				return obj_fail(obj, BSDK_EBTF, "extern '%s': the object has no BTF, which says whether it is __kconfig or __ksym (build with clang -g)",
						elf_sym_name(&obj->file, s));
		}
		return 0;
	}
	kcfg_sec = btf_find(obj->btf, KCONFIG_SEC, BTF_KIND_DATASEC);
	ksym_sec = btf_find(obj->btf, KSYMS_SEC, BTF_KIND_DATASEC);
	if (kcfg_sec)
		err = collect_sec(obj, kcfg_sec, true);
	if (!err && ksym_sec)
		err = collect_sec(obj, ksym_sec, false);
	if (err)
		return err;
	if (xs->nexts)
		qsort(xs->exts, xs->nexts, sizeof(*xs->exts), ext_cmp);
	for (size_t i = 0; i < xs->nexts; i++) {
		struct ext *e = &xs->exts[i];

		if (e->kind != EXT_KCONFIG)
			continue;
		off = (off + e->align - 1) / e->align * e->align;
		e->offset = off;
		off += e->size;
	}
	if (off) {
		map = map_add(obj, KCONFIG_SEC, KCONFIG_SEC, 0, 0);
		if (!map)
			return -errno;
		map->type = BPF_MAP_TYPE_ARRAY;
		map->key_size = sizeof(uint32_t);
		map->value_size = (off + 7) / 8 * 8;
		map->max_entries = 1;
		map->is_global_data = true;
		map->is_rodata = true;		/* frozen after its value is written */
		map->map_flags = BPF_F_RDONLY_PROG;
		map->init_data = calloc(1, map->value_size);
		if (!map->init_data)
			return -ENOMEM;
		xs->kconfig_map = (size_t)(map - obj->maps);
	}
	externs_fix_btf(obj, kcfg_sec, ksym_sec);
	return 0;
}

const struct ext *ext_find(const struct ext_state *xs, const char *name, size_t *index)
{
	for (size_t i = 0; i < xs->nexts; i++) {
		if (strcmp(xs->exts[i].name, name) == 0) {
			if (index)
				*index = i;
			return &xs->exts[i];
		}
	}
	return NULL;
}

/* ---- Applying at link --------------------------------------------------- */

void extern_apply(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn)
{
	struct ext_state *xs = ext_state_of(obj);
	const struct ext *e = &xs->exts[r->ext];

	if (r->kind == BSDK_RELO_KFUNC) {
		if (e->resolved || !xs->resolved) {
			/* before resolution (at open): a kfunc call, ID unknown */
			insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
			insn->imm = (int32_t)e->kernel_btf_id;
			insn->off = e->fd_idx;
		} else {
			insn->src_reg = 0;
			insn->imm = KFUNC_POISON + (int32_t)r->ext;
			insn->off = 0;
		}
		return;
	}
	/* BSDK_RELO_KSYM: an ld_imm64 */
	if (e->resolved && e->kernel_btf_id) {
		insn[0].src_reg = BPF_PSEUDO_BTF_ID;
		insn[0].imm = (int32_t)e->kernel_btf_id;
		insn[1].imm = e->kernel_btf_fd;
	} else {
		insn[0].src_reg = 0;
		insn[0].imm = (int32_t)(uint32_t)e->addr;
		insn[1].imm = (int32_t)(uint32_t)(e->addr >> 32);
	}
}

void extern_explain(const struct bsdk_prog *prog, const struct linked *l, long insn)
{
	const struct ext_state *xs = ext_state_of(prog->obj);
	const struct bpf_insn *in;
	int64_t idx;

	if (insn < 0 || (size_t)insn >= l->count)
		return;
	in = &l->insns[insn];
	idx = (int64_t)in->imm - KFUNC_POISON;
	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0 || idx < 0 ||
	    (uint64_t)idx >= xs->nexts || xs->exts[idx].kind != EXT_KFUNC)
		return;
	log_error("  instruction %ld calls kfunc '%s', which this kernel does not have (%s); it is __weak, so the call must be behind bpf_ksym_exists(%s)",
		  insn, xs->exts[idx].name, xs->exts[idx].why, xs->exts[idx].name);
}

/* A use of an extern (an undefined symbol): a kfunc call, or an ld_imm64
 * of a kconfig variable (its place in .kconfig), a ksym variable or a
 * kfunc's address. externs_collect() found them all. */
int extern_relo(struct bsdk_obj *obj, size_t sec, size_t n, const struct bpf_insn *insn,
		struct relo *out)
{
	const struct ext_state *xs = ext_state_of(obj);
	size_t idx;
	const struct ext *e = ext_find(xs, out->sym_name, &idx);

	if (!e)
		return -ENOENT;
	out->ext = idx;
	if (insn->code == (BPF_JMP | BPF_CALL)) {
		if (e->kind != EXT_KFUNC)
			return relo_error(obj, sec, n, "calls '%s', which is a %s variable, not a function", e->name,
					  e->kind == EXT_KCONFIG ? "__kconfig" : "__ksym");
		out->kind = BSDK_RELO_KFUNC;
		return 0;
	}
	if (insn->code != (BPF_LD | BPF_IMM | BPF_DW))
		return relo_error(obj, sec, n, "(extern '%s') is on instruction %zu, which is neither ld_imm64 nor a call (code %#x)",
				  e->name, out->insn, insn->code);
	if ((out->insn + 2) * sizeof(struct bpf_insn) > obj->file.secs[sec].size)
		return relo_error(obj, sec, n, "is on an ld_imm64 cut off by the end of the section");
	if (e->kind == EXT_KCONFIG) {
		out->kind = BSDK_RELO_DATA;
		out->map = xs->kconfig_map;
		out->offset = e->offset;
		return 0;
	}
	out->kind = BSDK_RELO_KSYM;
	return 0;
}

/* The kfuncs of modules: their calls' off indexes fd_array. */
int extern_prog_attr(struct bsdk_prog *prog, union bpf_attr *attr)
{
	const struct ext_state *xs = ext_state_of(prog->obj);

	if (xs->nfd_array)
		attr->fd_array = (uint64_t)(uintptr_t)xs->fd_array;
	return 0;
}
