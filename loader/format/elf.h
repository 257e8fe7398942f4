/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * elf.h - a BPF ELF object file as read by elf.c: its sections and
 * symbols, every bound checked, its license and kernel version. It knows
 * nothing of maps or programs. Not installed.
 */
#ifndef BPFSDK_ELF_H
#define BPFSDK_ELF_H

#include <gelf.h>
#include <libelf.h>

#include "base/base.h"

/* One ELF section as the loader sees it, bounds already checked. */
struct elf_sec {
	const char *name;
	GElf_Shdr shdr;
	const void *data;	/* NULL for SHT_NOBITS and empty sections */
	size_t size;		/* sh_size (also for NOBITS) */
};

struct elf_file {
	const char *name;	/* for messages: the object's name, not owned */
	void *image;		/* our copy of the file, owned */
	size_t image_size;
	Elf *elf;

	struct elf_sec *secs;
	size_t nsecs;
	size_t *sec_order;	/* section indices sorted by name, then index */

	GElf_Sym *syms;		/* .symtab, copied out of the image */
	size_t nsyms;
	size_t symtab_sec;
	size_t strtab_sec;

	char *license;
	uint32_t kversion;
};

/* An error in the file, naming it: `return elf_fail(ef, BSDK_EFORMAT, "...", ...);` */
#define elf_fail(ef, err, fmt, ...) log_fail(err, "'%s': " fmt, (ef)->name, ##__VA_ARGS__)

/* Parse ef->image (image_size bytes; name set): sections, symbols, license, version. */
int elf_parse(struct elf_file *ef);
/* Free what elf_parse() made, and the image. */
void elf_file_free(struct elf_file *ef);
const char *elf_sym_name(const struct elf_file *ef, const GElf_Sym *sym);
const struct elf_sec *elf_sec_by_name(const struct elf_file *ef, const char *name, size_t *index);
/* No second section of this name (true when there is none at all). */
bool elf_sec_name_unique(const struct elf_file *ef, const char *name);
bool elf_sec_is_prog(const struct elf_file *ef, size_t sec);
bool elf_sec_is_data(const struct elf_file *ef, size_t sec);

#endif /* BPFSDK_ELF_H */
