// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_fixup.c - what the linker would have done to the .BTF clang wrote
 * into an object: the DATASECs' sizes and their variables' offsets, taken
 * from the ELF sections and symbols, and the static linkage of hidden
 * global functions. The kernel needs them, and so do the extensions that
 * read a data section's variables by its DATASEC; the object layer does
 * not (a map's place in '.maps' is its symbol's). The BTF pass
 * (btf_load.c) makes them as soon as .BTF is parsed.
 */
#include "ext/btf/btf_load.h"
#include "co-re/btf_index.h"

static int secinfo_cmp(const void *a, const void *b)
{
	const struct btf_var_secinfo *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* A data symbol, for finding a variable's offset by section and name. */
struct named_sym {
	size_t sec;
	const char *name;
	uint32_t value;
};

static int named_sym_cmp(const void *a, const void *b)
{
	const struct named_sym *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* clang leaves each DATASEC's size and its variables' offsets at 0: the
 * linker was to fill them in. The kernel refuses such BTF, so take them
 * from the ELF section and the symbols, as the kernel wants them: sorted.
 * The symbols are sorted once and searched, not scanned per variable. */
int btf_fixup_datasecs(struct btf *btf, const struct elf_file *ef)
{
	struct named_sym *syms = malloc((ef->nsyms ? ef->nsyms : 1) * sizeof(*syms));
	size_t nsyms = 0;

	if (!syms)
		return fail(ENOMEM);
	for (size_t s = 0; s < ef->nsyms; s++) {
		const GElf_Sym *sym = &ef->syms[s];

		if (GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_value <= UINT32_MAX)
			syms[nsyms++] = (struct named_sym){ sym->st_shndx,
				elf_sym_name(ef, sym), (uint32_t)sym->st_value };
	}
	qsort(syms, nsyms, sizeof(*syms), named_sym_cmp);
	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, id);
		struct btf_var_secinfo *v = (struct btf_var_secinfo *)(t + 1);
		size_t sec;

		if (btf_kind(t) != BTF_KIND_DATASEC ||
		    !elf_sec_by_name(ef, btf_name(btf, t), &sec) ||
		    ef->secs[sec].size > UINT32_MAX)
			continue;
		t->size = (uint32_t)ef->secs[sec].size;
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *var = btf_type_by_id(btf, v[i].type);
			struct named_sym key = { sec, var ? btf_name(btf, var) : "", 0 };
			const struct named_sym *found = var ?
				bsearch(&key, syms, nsyms, sizeof(key), named_sym_cmp) : NULL;

			if (found)
				v[i].offset = found->value;
		}
		qsort(v, btf_vlen(t), sizeof(*v), secinfo_cmp);
	}
	free(syms);
	/* the DATASECs' sizes changed */
	return btf_resolve(btf);
}

/* A global function the linker will not export (__hidden, as usdt.bpf.h's
 * bpf_usdt_arg()) can be verified like a static one: with what its caller
 * knows, e.g. that a pointer argument is not NULL. The kernel decides by
 * the BTF FUNC's linkage, so make it static, as libbpf does. */
void btf_mark_hidden_static(struct btf *btf, const struct elf_file *ef)
{
	for (size_t i = 1; i < ef->nsyms; i++) {
		const GElf_Sym *sym = &ef->syms[i];
		int vis = GELF_ST_VISIBILITY(sym->st_other);
		uint32_t id;

		if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || GELF_ST_BIND(sym->st_info) == STB_LOCAL ||
		    (vis != STV_HIDDEN && vis != STV_INTERNAL) || sym->st_shndx == SHN_UNDEF)
			continue;
		id = btf_find(btf, elf_sym_name(ef, sym), BTF_KIND_FUNC);
		if (id) {
			struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, id);

			t->info = BTF_INFO_ENC(BTF_KIND_FUNC, BTF_FUNC_STATIC, 0);
		}
	}
}
