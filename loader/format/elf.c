// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * elf.c - read the sections and symbols of a BPF ELF object (struct
 * elf_file, elf.h), its license and kernel version.
 *
 * libelf does the decoding; this file checks every number it hands back
 * against the file before anything else trusts it. Each check here answers
 * a way a malformed object has crashed a BPF loader before: a section that
 * ends past the file, a symbol table whose entry size is zero, a string
 * index past the string table, a license that is not NUL-terminated.
 */
#include "format/elf.h"

static int bad_object(const struct elf_file *ef, const char *what)
{
	return elf_fail(ef, BSDK_EFORMAT, "%s", what);
}

const char *elf_sym_name(const struct elf_file *ef, const GElf_Sym *sym)
{
	const char *name;

	/* Section symbols have no name of their own: use the section's. */
	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION &&
	    sym->st_shndx > 0 && sym->st_shndx < ef->nsecs)
		return ef->secs[sym->st_shndx].name;
	name = elf_strptr(ef->elf, ef->strtab_sec, sym->st_name);
	return name ? name : "";
}

/* The order of ef->sec_order: by name, then by index, so that a search
 * finds the first of sections of the same name, as a scan would. Objects
 * with tens of thousands of sections ask for one by name for each. */
static int sec_order_cmp(const void *a, const void *b, void *arg)
{
	const struct elf_file *ef = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(ef->secs[x].name, ef->secs[y].name);

	return c ? c : (x > y) - (x < y);
}

const struct elf_sec *elf_sec_by_name(const struct elf_file *ef, const char *name, size_t *index)
{
	size_t lo = 0, n = ef->sec_order ? ef->nsecs - 1 : 0, hi = n;	/* no section 0 */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ef->secs[ef->sec_order[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || strcmp(ef->secs[ef->sec_order[lo]].name, name) != 0)
		return NULL;
	if (index)
		*index = ef->sec_order[lo];
	return &ef->secs[ef->sec_order[lo]];
}

bool elf_sec_name_unique(const struct elf_file *ef, const char *name)
{
	size_t first, n = ef->sec_order ? ef->nsecs - 1 : 0;

	if (!elf_sec_by_name(ef, name, &first))
		return true;
	/* the index has same-named sections next to each other, the first first */
	for (size_t i = 0; i + 1 < n; i++)
		if (ef->sec_order[i] == first)
			return strcmp(ef->secs[ef->sec_order[i + 1]].name, name) != 0;
	return true;
}

bool elf_sec_is_prog(const struct elf_file *ef, size_t sec)
{
	const GElf_Shdr *sh = &ef->secs[sec].shdr;

	return sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR) &&
	       ef->secs[sec].size > 0;
}

/* Sections clang uses for global variables: each becomes an array map. */
bool elf_sec_is_data(const struct elf_file *ef, size_t sec)
{
	const struct elf_sec *s = &ef->secs[sec];

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

static int read_sections(struct elf_file *ef)
{
	size_t shnum, shstrndx;

	if (elf_getshdrnum(ef->elf, &shnum) || elf_getshdrstrndx(ef->elf, &shstrndx))
		return bad_object(ef, "cannot read the section header table");
	if (shnum == 0)
		return bad_object(ef, "no sections");
	if (shstrndx >= shnum)
		return bad_object(ef, "section name table index out of range");
	/* A section header table larger than the file is a lie, whatever
	 * e_shnum or section 0's sh_size claims. */
	if (shnum > ef->image_size / sizeof(Elf64_Shdr))
		return bad_object(ef, "more section headers than fit in the file");

	ef->secs = calloc(shnum, sizeof(*ef->secs));
	if (!ef->secs)
		return fail(ENOMEM);
	ef->nsecs = shnum;
	ef->secs[0].name = "";

	for (size_t i = 1; i < shnum; i++) {
		struct elf_sec *s = &ef->secs[i];
		Elf_Scn *scn = elf_getscn(ef->elf, i);
		Elf_Data *data;

		if (!scn || !gelf_getshdr(scn, &s->shdr))
			return elf_fail(ef, BSDK_EFORMAT, "section %zu: cannot read its header", i);
		s->name = elf_strptr(ef->elf, shstrndx, s->shdr.sh_name);
		if (!s->name)
			return elf_fail(ef, BSDK_EFORMAT, "section %zu: name offset %u is outside the section name table",
					i, s->shdr.sh_name);
		s->size = s->shdr.sh_size;
		if (s->shdr.sh_type == SHT_NOBITS || s->size == 0)
			continue;
		if (range_outside(s->shdr.sh_offset, s->shdr.sh_size, ef->image_size))
			return elf_fail(ef, BSDK_EFORMAT, "section '%s': offset %#llx + size %#llx is past the end of the file (%zu bytes)",
					s->name,
					(unsigned long long)s->shdr.sh_offset,
					(unsigned long long)s->shdr.sh_size,
					ef->image_size);
		data = elf_getdata(scn, NULL);
		if (!data || data->d_size != s->size || !data->d_buf)
			return elf_fail(ef, BSDK_EFORMAT, "section '%s': cannot read its data", s->name);
		s->data = data->d_buf;
	}
	ef->sec_order = malloc(shnum * sizeof(*ef->sec_order));
	if (!ef->sec_order)
		return fail(ENOMEM);
	for (size_t i = 1; i < shnum; i++)
		ef->sec_order[i - 1] = i;
	qsort_r(ef->sec_order, shnum - 1, sizeof(*ef->sec_order), sec_order_cmp, ef);
	return 0;
}

static int read_symbols(struct elf_file *ef)
{
	const struct elf_sec *symtab = NULL;
	Elf_Data *data;

	for (size_t i = 1; i < ef->nsecs; i++) {
		if (ef->secs[i].shdr.sh_type != SHT_SYMTAB)
			continue;
		if (symtab)
			return bad_object(ef, "more than one symbol table");
		symtab = &ef->secs[i];
		ef->symtab_sec = i;
	}
	if (!symtab)
		return bad_object(ef, "no symbol table (was it stripped?)");
	if (symtab->shdr.sh_entsize != sizeof(Elf64_Sym))
		return elf_fail(ef, BSDK_EFORMAT, "symbol table: entry size %llu, expected %zu",
				(unsigned long long)symtab->shdr.sh_entsize,
				sizeof(Elf64_Sym));
	if (symtab->size % sizeof(Elf64_Sym) || !symtab->data)
		return bad_object(ef, "symbol table size is not a whole number of entries");
	if (symtab->shdr.sh_link == 0 || symtab->shdr.sh_link >= ef->nsecs ||
	    ef->secs[symtab->shdr.sh_link].shdr.sh_type != SHT_STRTAB)
		return bad_object(ef, "symbol table does not link to a string table");
	ef->strtab_sec = symtab->shdr.sh_link;

	ef->nsyms = symtab->size / sizeof(Elf64_Sym);
	ef->syms = calloc(ef->nsyms ? ef->nsyms : 1, sizeof(*ef->syms));
	if (!ef->syms)
		return fail(ENOMEM);
	data = elf_getdata(elf_getscn(ef->elf, ef->symtab_sec), NULL);
	for (size_t i = 0; i < ef->nsyms; i++) {
		GElf_Sym *sym = &ef->syms[i];

		if (!data || !gelf_getsym(data, (int)i, sym))
			return elf_fail(ef, BSDK_EFORMAT, "symbol %zu: cannot read it", i);
		/* Every later lookup indexes ef->secs with st_shndx. */
		if (sym->st_shndx >= ef->nsecs && sym->st_shndx < SHN_LORESERVE)
			return elf_fail(ef, BSDK_EFORMAT, "symbol %zu: section index %u out of range", i, sym->st_shndx);
		if (!elf_strptr(ef->elf, ef->strtab_sec, sym->st_name))
			return elf_fail(ef, BSDK_EFORMAT, "symbol %zu: name offset %u is outside the string table", i, sym->st_name);
	}
	return 0;
}

static int read_license_and_version(struct elf_file *ef)
{
	const struct elf_sec *s;

	s = elf_sec_by_name(ef, "license", NULL);
	if (s && s->data) {
		/* The kernel reads the license as a C string: one without a
		 * NUL inside its section would make us read past it. */
		if (!memchr(s->data, '\0', s->size))
			return bad_object(ef, "license is not NUL-terminated");
		ef->license = strdup(s->data);
	} else {
		ef->license = strdup("");
	}
	if (!ef->license)
		return fail(ENOMEM);

	s = elf_sec_by_name(ef, "version", NULL);
	if (s && s->data) {
		if (s->size != sizeof(uint32_t))
			return bad_object(ef, "'version' section is not 4 bytes");
		memcpy(&ef->kversion, s->data, sizeof(uint32_t));
	}
	return 0;
}

int elf_parse(struct elf_file *ef)
{
	GElf_Ehdr ehdr;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return bad_object(ef, "libelf is too old");
	ef->elf = elf_memory(ef->image, ef->image_size);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF)
		return bad_object(ef, "not an ELF file");
	if (!gelf_getehdr(ef->elf, &ehdr))
		return bad_object(ef, "cannot read the ELF header");
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return bad_object(ef, "not a 64-bit ELF file");
	if (ehdr.e_machine != EM_BPF)
		return elf_fail(ef, BSDK_EFORMAT, "ELF machine %u is not BPF (%u): was it built with clang -target bpf?",
				ehdr.e_machine, EM_BPF);
	if (ehdr.e_type != ET_REL)
		return bad_object(ef, "not a relocatable object (ET_REL)");
	/* Instructions and map definitions are read in host byte order. */
	if (ehdr.e_ident[EI_DATA] !=
	    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return bad_object(ef, "byte order differs from this machine's");

	err = read_sections(ef);
	if (!err)
		err = read_symbols(ef);
	if (!err)
		err = read_license_and_version(ef);
	return err;
}

void elf_file_free(struct elf_file *ef)
{
	free(ef->syms);
	free(ef->secs);
	free(ef->sec_order);
	free(ef->license);
	if (ef->elf)
		elf_end(ef->elf);
	free(ef->image);
	memset(ef, 0, sizeof(*ef));
}
