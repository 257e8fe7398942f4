// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_elf_malformed.c - objects broken at the ELF level must be refused
 * at open with BSDK_EFORMAT (or the code for the kind of mistake) and one
 * error message, never a crash. Each case takes a good object the build
 * compiled and breaks one thing in its bytes; the list is the one BPF
 * loaders learned the hard way (see docs and issue 3, item 8).
 */
#include "test_obj_craft.h"

static void check_good(const struct img *base, const char *name)
{
	struct bsdk_obj *obj;

	cap_start();
	obj = bsdk_obj_open_mem(base->buf, base->size, name);
	bsdk_set_log(NULL, NULL);
	check(obj != NULL, "%s: the unmodified object opens", name);
	check_i64(cap.errors, 0, "%s: without an error message", name);
	bsdk_obj_close(obj);
}

int main(void)
{
	struct img base = img_read("obj_basic");
	struct img legacy = img_read("obj_legacy");
	const char *prog_sec = "tracepoint/";
	struct img im;
	Elf64_Shdr *sh;
	Elf64_Sym *sym;

	check_good(&base, "obj_basic");
	check_good(&legacy, "obj_legacy");

	im = img_copy(&base);
	im.size = 40;	/* inside the ELF header */
	expect_open_fails(&im, BSDK_EFORMAT, "truncated header", NULL);

	im = img_copy(&base);
	memcpy(im.buf, "\x7f" "ELG", 4);
	expect_open_fails(&im, BSDK_EFORMAT, "not ELF", "not an ELF file");

	im = img_copy(&base);
	img_ehdr(&im)->e_machine = EM_X86_64;
	expect_open_fails(&im, BSDK_EFORMAT, "x86 machine", "is not BPF");

	/* e_shnum 0 means "the count is in section 0's sh_size": a huge one
	 * must not make anyone allocate or walk that many headers. */
	im = img_copy(&base);
	img_shdr(&im, 0)->sh_size = 0xffffffffu;
	img_ehdr(&im)->e_shnum = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "e_shnum 0, section 0 sh_size 4G", NULL);

	im = img_copy(&base);
	img_shdr(&im, 0)->sh_size = 0x7fffffffffffffffull;
	img_ehdr(&im)->e_shnum = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "e_shnum 0, section 0 sh_size 2^63", NULL);

	im = img_copy(&base);
	img_ehdr(&im)->e_shstrndx = 200;
	expect_open_fails(&im, BSDK_EFORMAT, "e_shstrndx out of range", NULL);

	im = img_copy(&base);
	img_ehdr(&im)->e_shoff = im.size - 32;
	expect_open_fails(&im, BSDK_EFORMAT, "section headers past the file", NULL);

	/* the symbol table's entry size: zero would divide by zero, a wrong
	 * one would read symbols out of step */
	im = img_copy(&base);
	img_sec_type(&im, SHT_SYMTAB)->sh_entsize = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "symtab sh_entsize 0", "entry size");

	im = img_copy(&base);
	img_sec_type(&im, SHT_SYMTAB)->sh_entsize = 16;
	expect_open_fails(&im, BSDK_EFORMAT, "symtab sh_entsize 16", "entry size");

	im = img_copy(&base);
	img_sec_type(&im, SHT_SYMTAB)->sh_size -= 4;
	expect_open_fails(&im, BSDK_EFORMAT, "symtab size not whole entries", NULL);

	im = img_copy(&base);
	img_sec_type(&im, SHT_SYMTAB)->sh_link = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "symtab links no string table", NULL);

	im = img_copy(&base);
	img_sec_type(&im, SHT_SYMTAB)->sh_type = SHT_PROGBITS;
	expect_open_fails(&im, BSDK_EFORMAT, "no symbol table", "no symbol table");

	/* string table indexes out of range: a section name, a symbol name */
	im = img_copy(&base);
	img_sec(&im, prog_sec, NULL)->sh_name = 0x7fffffff;
	expect_open_fails(&im, BSDK_EFORMAT, "section name out of range",
			  "outside the section name table");

	im = img_copy(&base);
	img_sym(&im, "on_getpid", NULL)->st_name = 0x7fffffff;
	expect_open_fails(&im, BSDK_EFORMAT, "symbol name out of range",
			  "outside the string table");

	im = img_copy(&base);
	img_sym(&im, "on_getpid", NULL)->st_shndx = 0x7000;
	expect_open_fails(&im, BSDK_EFORMAT, "symbol section index out of range",
			  "section index");

	/* section offset + size: wrapping around, and past the end */
	im = img_copy(&base);
	sh = img_sec(&im, prog_sec, NULL);
	sh->sh_offset = 0xfffffffffffffff0ull;
	sh->sh_size = 0x100;
	expect_open_fails(&im, BSDK_EFORMAT, "section offset + size wraps", NULL);

	im = img_copy(&base);
	sh = img_sec(&im, prog_sec, NULL);
	sh->sh_offset = im.size - 8;
	expect_open_fails(&im, BSDK_EFORMAT, "section past the end of the file",
			  "past the end of the file");

	im = img_copy(&base);
	sh = img_sec(&im, ".BTF", NULL);
	sh->sh_size = 0xffffffffffffff00ull;
	expect_open_fails(&im, BSDK_EFORMAT, "section size 2^64 - 256", NULL);

	/* code */
	im = img_copy(&base);
	img_sec(&im, prog_sec, NULL)->sh_size -= 4;
	expect_open_fails(&im, BSDK_EFORMAT, "program size not a multiple of 8",
			  "not a multiple of the 8-byte instruction size");

	/* fuzz finding: instructions are read in place, as structs */
	im = img_copy(&base);
	img_sec(&im, prog_sec, NULL)->sh_offset += 1;
	expect_open_fails(&im, BSDK_EFORMAT, "program at an odd file offset",
			  "not 8-byte aligned");

	im = img_copy(&base);
	sym = img_sym(&im, "on_getpid", NULL);
	sym->st_size = 0x100000;
	expect_open_fails(&im, BSDK_EFORMAT, "function past its section",
			  "do not describe whole instructions");

	im = img_copy(&base);
	sym = img_sym(&im, "global_add", NULL);
	sym->st_value = 4;
	expect_open_fails(&im, BSDK_EFORMAT, "subprogram not on an instruction",
			  "global_add");

	im = img_copy(&base);
	img_sec(&im, prog_sec, NULL)->sh_flags &= ~(uint64_t)SHF_EXECINSTR;
	expect_open_fails(&im, BSDK_EFORMAT, "no program", "no BPF programs");

	im = img_copy(&base);
	memcpy(img_sec_name(&im, img_sec(&im, prog_sec, NULL)), "tracepoinX", 10);
	expect_open_fails(&im, BSDK_ESECTION, "unknown section name",
			  "accepted prefixes");

	/* fuzz finding: .bss takes no room in the file, its size is only a
	 * number; 3.6 GB made open allocate that much */
	im = img_copy(&base);
	img_sec(&im, ".bss", NULL)->sh_size = 3674210312u;
	expect_open_fails(&im, E2BIG, "a .bss of 3.6 GB", "more than the");

	/* the license is read as a C string */
	im = img_copy(&base);
	sh = img_sec(&im, "license", NULL);
	memset(img_data(&im, sh), 'X', sh->sh_size);
	expect_open_fails(&im, BSDK_EFORMAT, "license without NUL",
			  "not NUL-terminated");

	/* legacy maps: the section divides evenly among its symbols */
	im = img_copy(&legacy);
	img_sec(&im, "maps", NULL)->sh_size += 1;
	expect_open_fails(&im, BSDK_EFORMAT, "legacy maps size not a multiple",
			  "not a multiple of a map definition");

	im = img_copy(&legacy);
	img_sec(&im, "maps", NULL)->sh_size = 8;
	expect_open_fails(&im, BSDK_EFORMAT, "legacy maps too small for 2 maps",
			  "not a multiple of a map definition");

	im = img_copy(&legacy);
	img_sym(&im, "legacy_counts", NULL)->st_value = 4;
	expect_open_fails(&im, BSDK_EFORMAT, "legacy map off its record",
			  "record boundary");

	free(base.buf);
	free(legacy.buf);
	return check_done();
}
