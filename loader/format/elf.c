// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * elf.c - read the sections and symbols of a BPF ELF object.
 *
 * libelf does the decoding; this file checks every number it hands back
 * against the file before anything else trusts it. Each check here answers
 * a way a malformed object has crashed a BPF loader before: a section that
 * ends past the file, a symbol table whose entry size is zero, a string
 * index past the string table, a license that is not NUL-terminated.
 */
#include "object/internal.h"

static int bad_object(const struct bsdk_obj *obj, const char *what)
{
	return obj_fail(obj, BSDK_EFORMAT, "%s", what);
}

const char *elf_sym_name(const struct bsdk_obj *obj, const GElf_Sym *sym)
{
	const char *name;

	/* Section symbols have no name of their own: use the section's. */
	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION &&
	    sym->st_shndx > 0 && sym->st_shndx < obj->nsecs)
		return obj->secs[sym->st_shndx].name;
	name = elf_strptr(obj->elf, obj->strtab_sec, sym->st_name);
	return name ? name : "";
}

/* The order of obj->sec_order: by name, then by index, so that a search
 * finds the first of sections of the same name, as a scan would. Objects
 * with tens of thousands of sections ask for one by name for each. */
static int sec_order_cmp(const void *a, const void *b, void *arg)
{
	const struct bsdk_obj *obj = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(obj->secs[x].name, obj->secs[y].name);

	return c ? c : (x > y) - (x < y);
}

const struct elf_sec *elf_sec_by_name(const struct bsdk_obj *obj, const char *name, size_t *index)
{
	size_t lo = 0, n = obj->sec_order ? obj->nsecs - 1 : 0, hi = n;	/* no section 0 */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(obj->secs[obj->sec_order[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || strcmp(obj->secs[obj->sec_order[lo]].name, name) != 0)
		return NULL;
	if (index)
		*index = obj->sec_order[lo];
	return &obj->secs[obj->sec_order[lo]];
}

bool elf_sec_name_unique(const struct bsdk_obj *obj, const char *name)
{
	size_t first, n = obj->sec_order ? obj->nsecs - 1 : 0;

	if (!elf_sec_by_name(obj, name, &first))
		return true;
	/* the index has same-named sections next to each other, the first first */
	for (size_t i = 0; i + 1 < n; i++)
		if (obj->sec_order[i] == first)
			return strcmp(obj->secs[obj->sec_order[i + 1]].name, name) != 0;
	return true;
}

bool elf_sec_is_prog(const struct bsdk_obj *obj, size_t sec)
{
	const GElf_Shdr *sh = &obj->secs[sec].shdr;

	return sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR) &&
	       obj->secs[sec].size > 0;
}

/* Sections clang uses for global variables: each becomes an array map. */
bool elf_sec_is_data(const struct bsdk_obj *obj, size_t sec)
{
	const struct elf_sec *s = &obj->secs[sec];

	if (s->shdr.sh_type != SHT_PROGBITS && s->shdr.sh_type != SHT_NOBITS)
		return false;
	if (s->shdr.sh_flags & SHF_EXECINSTR)
		return false;
	return strcmp(s->name, ".data") == 0 ||
	       strncmp(s->name, ".data.", 6) == 0 ||
	       strcmp(s->name, ".rodata") == 0 ||
	       strncmp(s->name, ".rodata.", 8) == 0 ||
	       strcmp(s->name, ".bss") == 0 ||
	       strncmp(s->name, ".bss.", 5) == 0;
}

static int read_sections(struct bsdk_obj *obj)
{
	size_t shnum, shstrndx;

	if (elf_getshdrnum(obj->elf, &shnum) || elf_getshdrstrndx(obj->elf, &shstrndx))
		return bad_object(obj, "cannot read the section header table");
	if (shnum == 0)
		return bad_object(obj, "no sections");
	if (shstrndx >= shnum)
		return bad_object(obj, "section name table index out of range");
	/* A section header table larger than the file is a lie, whatever
	 * e_shnum or section 0's sh_size claims. */
	if (shnum > obj->image_size / sizeof(Elf64_Shdr))
		return bad_object(obj, "more section headers than fit in the file");

	obj->secs = calloc(shnum, sizeof(*obj->secs));
	if (!obj->secs)
		return fail(ENOMEM);
	obj->nsecs = shnum;
	obj->secs[0].name = "";

	for (size_t i = 1; i < shnum; i++) {
		struct elf_sec *s = &obj->secs[i];
		Elf_Scn *scn = elf_getscn(obj->elf, i);
		Elf_Data *data;

		if (!scn || !gelf_getshdr(scn, &s->shdr))
			return obj_fail(obj, BSDK_EFORMAT, "section %zu: cannot read its header", i);
		s->name = elf_strptr(obj->elf, shstrndx, s->shdr.sh_name);
		if (!s->name)
			return obj_fail(obj, BSDK_EFORMAT, "section %zu: name offset %u is outside the section name table",
					i, s->shdr.sh_name);
		s->size = s->shdr.sh_size;
		if (s->shdr.sh_type == SHT_NOBITS || s->size == 0)
			continue;
		if (range_outside(s->shdr.sh_offset, s->shdr.sh_size, obj->image_size))
			return obj_fail(obj, BSDK_EFORMAT, "section '%s': offset %#llx + size %#llx is past the end of the file (%zu bytes)",
					s->name,
					(unsigned long long)s->shdr.sh_offset,
					(unsigned long long)s->shdr.sh_size,
					obj->image_size);
		data = elf_getdata(scn, NULL);
		if (!data || data->d_size != s->size || !data->d_buf)
			return obj_fail(obj, BSDK_EFORMAT, "section '%s': cannot read its data", s->name);
		s->data = data->d_buf;
	}
	obj->sec_order = malloc(shnum * sizeof(*obj->sec_order));
	if (!obj->sec_order)
		return fail(ENOMEM);
	for (size_t i = 1; i < shnum; i++)
		obj->sec_order[i - 1] = i;
	qsort_r(obj->sec_order, shnum - 1, sizeof(*obj->sec_order), sec_order_cmp, obj);
	return 0;
}

static int read_symbols(struct bsdk_obj *obj)
{
	const struct elf_sec *symtab = NULL;
	Elf_Data *data;

	for (size_t i = 1; i < obj->nsecs; i++) {
		if (obj->secs[i].shdr.sh_type != SHT_SYMTAB)
			continue;
		if (symtab)
			return bad_object(obj, "more than one symbol table");
		symtab = &obj->secs[i];
		obj->symtab_sec = i;
	}
	if (!symtab)
		return bad_object(obj, "no symbol table (was it stripped?)");
	if (symtab->shdr.sh_entsize != sizeof(Elf64_Sym))
		return obj_fail(obj, BSDK_EFORMAT, "symbol table: entry size %llu, expected %zu",
				(unsigned long long)symtab->shdr.sh_entsize,
				sizeof(Elf64_Sym));
	if (symtab->size % sizeof(Elf64_Sym) || !symtab->data)
		return bad_object(obj, "symbol table size is not a whole number of entries");
	if (symtab->shdr.sh_link == 0 || symtab->shdr.sh_link >= obj->nsecs ||
	    obj->secs[symtab->shdr.sh_link].shdr.sh_type != SHT_STRTAB)
		return bad_object(obj, "symbol table does not link to a string table");
	obj->strtab_sec = symtab->shdr.sh_link;

	obj->nsyms = symtab->size / sizeof(Elf64_Sym);
	obj->syms = calloc(obj->nsyms ? obj->nsyms : 1, sizeof(*obj->syms));
	if (!obj->syms)
		return fail(ENOMEM);
	data = elf_getdata(elf_getscn(obj->elf, obj->symtab_sec), NULL);
	for (size_t i = 0; i < obj->nsyms; i++) {
		GElf_Sym *sym = &obj->syms[i];

		if (!data || !gelf_getsym(data, (int)i, sym))
			return obj_fail(obj, BSDK_EFORMAT, "symbol %zu: cannot read it", i);
		/* Every later lookup indexes obj->secs with st_shndx. */
		if (sym->st_shndx >= obj->nsecs && sym->st_shndx < SHN_LORESERVE)
			return obj_fail(obj, BSDK_EFORMAT, "symbol %zu: section index %u out of range", i, sym->st_shndx);
		if (!elf_strptr(obj->elf, obj->strtab_sec, sym->st_name))
			return obj_fail(obj, BSDK_EFORMAT, "symbol %zu: name offset %u is outside the string table", i, sym->st_name);
	}
	return 0;
}

static int read_license_and_version(struct bsdk_obj *obj)
{
	const struct elf_sec *s;

	s = elf_sec_by_name(obj, "license", NULL);
	if (s && s->data) {
		/* The kernel reads the license as a C string: one without a
		 * NUL inside its section would make us read past it. */
		if (!memchr(s->data, '\0', s->size))
			return bad_object(obj, "license is not NUL-terminated");
		obj->license = strdup(s->data);
	} else {
		obj->license = strdup("");
	}
	if (!obj->license)
		return fail(ENOMEM);

	s = elf_sec_by_name(obj, "version", NULL);
	if (s && s->data) {
		if (s->size != sizeof(uint32_t))
			return bad_object(obj, "'version' section is not 4 bytes");
		memcpy(&obj->kversion, s->data, sizeof(uint32_t));
	}
	return 0;
}

int elf_parse(struct bsdk_obj *obj)
{
	GElf_Ehdr ehdr;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return bad_object(obj, "libelf is too old");
	obj->elf = elf_memory(obj->image, obj->image_size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF)
		return bad_object(obj, "not an ELF file");
	if (!gelf_getehdr(obj->elf, &ehdr))
		return bad_object(obj, "cannot read the ELF header");
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return bad_object(obj, "not a 64-bit ELF file");
	if (ehdr.e_machine != EM_BPF)
		return obj_fail(obj, BSDK_EFORMAT, "ELF machine %u is not BPF (%u): was it built with clang -target bpf?",
				ehdr.e_machine, EM_BPF);
	if (ehdr.e_type != ET_REL)
		return bad_object(obj, "not a relocatable object (ET_REL)");
	/* Instructions and map definitions are read in host byte order. */
	if (ehdr.e_ident[EI_DATA] !=
	    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return bad_object(obj, "byte order differs from this machine's");

	err = read_sections(obj);
	if (!err)
		err = read_symbols(obj);
	if (!err)
		err = read_license_and_version(obj);
	return err;
}
