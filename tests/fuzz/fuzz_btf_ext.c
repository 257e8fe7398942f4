// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_btf_ext.c - libFuzzer target: any bytes as the .BTF.ext section of
 * a real object. .BTF.ext names sections and BTF types and strings of its
 * object, so alone it reaches little: the input's first byte picks one of
 * the base objects (every test object with a .BTF.ext), the rest replaces
 * that object's .BTF.ext, and the result is opened and walked as fuzz_obj
 * does - whatever .BTF.ext records open parses (func_info, line_info, and
 * CO-RE relocations where the loader reads them) and the linker moves.
 *
 *   make fuzz-btf-ext [FUZZ_SECONDS=60]
 *
 * The base objects are read at start from the directory $BSDK_FUZZ_BASES
 * (make sets it); a finding is replayed with the same directory.
 */
#include <dirent.h>
#include <elf.h>
#include <stdio.h>

#include "fuzz_walk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct base {
	uint8_t *image;
	size_t size;
	Elf64_Shdr *ext;	/* its .BTF.ext section header, in image */
};

static struct base bases[256];
static size_t nbases;

static Elf64_Shdr *find_ext(uint8_t *image, size_t size)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)image;
	Elf64_Shdr *sh, *names;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > size || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (Elf64_Shdr *)(image + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	for (size_t i = 1; i < eh->e_shnum; i++)
		if (names->sh_offset + sh[i].sh_name + sizeof(".BTF.ext") <= size &&
		    strcmp((char *)image + names->sh_offset + sh[i].sh_name, ".BTF.ext") == 0)
			return &sh[i];
	return NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("BSDK_FUZZ_BASES");
	struct dirent **names;
	int n;

	(void)argc, (void)argv;
	n = dir ? scandir(dir, &names, NULL, by_name) : -1;
	for (int i = 0; i < n; i++) {
		char path[4096];
		FILE *f;
		long len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		f = names[i]->d_name[0] != '.' && nbases < 256 ? fopen(path, "rb") : NULL;
		if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
			struct base *b = &bases[nbases];

			b->image = malloc((size_t)len);
			if (b->image && fread(b->image, 1, (size_t)len, f) == (size_t)len &&
			    (b->ext = find_ext(b->image, (size_t)len))) {
				b->size = (size_t)len;
				nbases++;
			} else {
				free(b->image);
			}
		}
		if (f)
			fclose(f);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (nbases == 0) {
		fprintf(stderr, "fuzz_btf_ext: no base objects with a .BTF.ext in BSDK_FUZZ_BASES=%s\n",
			dir ? dir : "(unset)");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct base *b;
	struct bsdk_obj *obj;
	size_t off, total;
	uint8_t *image;
	Elf64_Shdr *ext;

	if (size < 1)
		return 0;
	b = &bases[data[0] % nbases];
	/* the base, then the new .BTF.ext at an 8-byte boundary past its end */
	off = (b->size + 7) & ~(size_t)7;
	total = off + size - 1;
	image = calloc(1, total ? total : 1);
	if (!image)
		return 0;
	memcpy(image, b->image, b->size);
	memcpy(image + off, data + 1, size - 1);
	ext = (Elf64_Shdr *)(image + ((uint8_t *)b->ext - b->image));
	ext->sh_offset = off;
	ext->sh_size = size - 1;

	bsdk_set_log(log_sink, NULL);
	bsdk_set_log_level(BSDK_LOG_DEBUG);
	obj = bsdk_obj_open_mem(image, total, "fuzz");
	if (obj)
		walk(obj);
	bsdk_obj_close(obj);
	free(image);
	return 0;
}
