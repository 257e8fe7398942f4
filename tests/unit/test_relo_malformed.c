// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_relo_malformed.c - broken relocations must be refused when the
 * object is opened, with one message naming the section and the entry:
 * an offset past the section or between instructions, a symbol past the
 * symbol table, a variable's offset that only wraps into the section, an
 * instruction that is neither ld_imm64 nor a call, and the relocation
 * sections' own headers.
 */
#include "test_obj_craft.h"

#define PROG_SEC "tracepoint/"
#define LD_IMM64 0x18	/* BPF_LD | BPF_IMM | BPF_DW */
#define CALL 0x85	/* BPF_JMP | BPF_CALL */
#define EXIT 0x95	/* BPF_JMP | BPF_EXIT */

struct insn {
	uint8_t code, regs;
	int16_t off;
	int32_t imm;
};

static struct insn *prog_insns(const struct img *im, size_t *count)
{
	Elf64_Shdr *sh = img_sec(im, PROG_SEC, NULL);

	*count = sh->sh_size / sizeof(struct insn);
	return img_data(im, sh);
}

/* The program's first relocation on an instruction with this code. */
static Elf64_Rel *rel_on(const struct img *im, uint8_t code)
{
	Elf64_Shdr *rs = img_rel_for(im, PROG_SEC);
	Elf64_Rel *rel = img_data(im, rs);
	size_t n;
	struct insn *insns = prog_insns(im, &n);

	for (size_t i = 0; i < rs->sh_size / sizeof(*rel); i++)
		if (insns[rel[i].r_offset / 8].code == code)
			return &rel[i];
	abort();
}

/* The relocation on the instruction that loads symbol name. */
static Elf64_Rel *rel_of(const struct img *im, const char *name)
{
	Elf64_Shdr *rs = img_rel_for(im, PROG_SEC);
	Elf64_Rel *rel = img_data(im, rs);
	size_t idx;

	img_sym(im, name, &idx);
	for (size_t i = 0; i < rs->sh_size / sizeof(*rel); i++)
		if (ELF64_R_SYM(rel[i].r_info) == idx)
			return &rel[i];
	abort();
}

int main(void)
{
	struct img base = img_read("obj_basic"), im;
	Elf64_Shdr *sh;
	Elf64_Rel *rel;
	struct insn *insns;
	size_t n, exit_at = 0;

	insns = prog_insns(&base, &n);
	for (size_t i = 0; i < n; i++)
		if (insns[i].code == EXIT)
			exit_at = i;
	check(exit_at > 0, "obj_basic has an exit instruction to aim at");

	im = img_copy(&base);
	rel = rel_on(&im, LD_IMM64);
	rel->r_offset = img_sec(&im, PROG_SEC, NULL)->sh_size;
	expect_open_fails(&im, BSDK_ERELO, "offset at the end of the section",
			  "points past the end of the section");

	im = img_copy(&base);
	rel = rel_on(&im, LD_IMM64);
	rel->r_offset = 0xfffffffffffffff8ull;
	expect_open_fails(&im, BSDK_ERELO, "offset 2^64 - 8",
			  "points past the end of the section");

	im = img_copy(&base);
	rel_on(&im, LD_IMM64)->r_offset += 4;
	expect_open_fails(&im, BSDK_ERELO, "offset between instructions",
			  "is not aligned to an instruction");

	im = img_copy(&base);
	sh = img_sec_type(&im, SHT_SYMTAB);
	rel = rel_on(&im, LD_IMM64);
	rel->r_info = ELF64_R_INFO(sh->sh_size / sizeof(Elf64_Sym),
				   ELF64_R_TYPE(rel->r_info));
	expect_open_fails(&im, BSDK_ERELO, "symbol index one past the table",
			  "past the end of the symbol table");

	im = img_copy(&base);
	rel = rel_on(&im, LD_IMM64);
	rel->r_info = ELF64_R_INFO(0xffffffu, ELF64_R_TYPE(rel->r_info));
	expect_open_fails(&im, BSDK_ERELO, "symbol index 2^24 - 1",
			  "past the end of the symbol table");

	im = img_copy(&base);
	rel_on(&im, LD_IMM64)->r_offset = exit_at * 8;
	expect_open_fails(&im, BSDK_ERELO, "relocation on an exit instruction",
			  "neither ld_imm64 nor a BPF-to-BPF call");

	im = img_copy(&base);
	rel_on(&im, LD_IMM64)->r_offset = 8;	/* r1 = ... is no ld_imm64 */
	expect_open_fails(&im, BSDK_ERELO, "relocation on instruction 1",
			  "neither ld_imm64 nor a BPF-to-BPF call");

	im = img_copy(&base);
	rel = rel_of(&im, "counts");
	rel->r_info = ELF64_R_INFO(0, ELF64_R_TYPE(rel->r_info));
	expect_open_fails(&im, BSDK_ERELO, "ld_imm64 of the null symbol",
			  "not defined in this object");

	im = img_copy(&base);
	{
		size_t idx;

		img_sym(&im, "counts", &idx);
		rel = rel_on(&im, CALL);
		rel->r_info = ELF64_R_INFO(idx, ELF64_R_TYPE(rel->r_info));
	}
	expect_open_fails(&im, BSDK_ERELO, "call of a map",
			  "which is not a function in .text");

	im = img_copy(&base);
	insns = prog_insns(&im, &n);
	insns[rel_on(&im, CALL)->r_offset / 8].imm = 100000;
	expect_open_fails(&im, BSDK_ERELO, "call past the end of .text",
			  "calls outside .text");

	im = img_copy(&base);
	insns = prog_insns(&im, &n);
	insns[rel_of(&im, "target_pid")->r_offset / 8].imm = 4096;
	expect_open_fails(&im, BSDK_ERELO, "global variable offset past .rodata",
			  "outside the section");

	/* st_value + imm in 64 bits: a symbol at 2^64 - 8 is not offset 0 */
	im = img_copy(&base);
	insns = prog_insns(&im, &n);
	insns[rel_of(&im, "target_pid")->r_offset / 8].imm = 8;
	img_sym(&im, "target_pid", NULL)->st_value = 0xfffffffffffffff8ull;
	expect_open_fails(&im, BSDK_ERELO, "global variable at 2^64 - 8, plus 8",
			  "refers to symbol 'target_pid' at offset 18446744073709551608 of '.rodata'");

	/* nor does a sum below -2^63 overflow (a fuzzer's find) */
	im = img_copy(&base);
	insns = prog_insns(&im, &n);
	insns[rel_of(&im, "target_pid")->r_offset / 8].imm = -0x1c000000;
	img_sym(&im, "target_pid", NULL)->st_value = 0x8000000000000008ull;
	expect_open_fails(&im, BSDK_ERELO, "global variable at 2^63 + 8, minus 0x1c000000",
			  "outside the section");

	im = img_copy(&base);
	rel = img_data(&im, img_rel_for(&im, PROG_SEC));
	rel[1].r_offset = rel[0].r_offset;
	expect_open_fails(&im, BSDK_ERELO, "two relocations on one instruction",
			  "a second time");

	/* the relocation section itself */
	im = img_copy(&base);
	img_rel_for(&im, PROG_SEC)->sh_entsize = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "relocation entry size 0",
			  "entry size 0");

	im = img_copy(&base);
	img_rel_for(&im, PROG_SEC)->sh_size -= 8;
	expect_open_fails(&im, BSDK_EFORMAT, "relocation size not whole entries",
			  NULL);

	im = img_copy(&base);
	img_rel_for(&im, PROG_SEC)->sh_info = 999;
	expect_open_fails(&im, BSDK_EFORMAT, "relocates a section that does not exist",
			  "which does not exist");

	im = img_copy(&base);
	img_rel_for(&im, PROG_SEC)->sh_link = 0;
	expect_open_fails(&im, BSDK_EFORMAT, "relocation without the symbol table",
			  "does not use the symbol table");

	im = img_copy(&base);
	img_rel_for(&im, PROG_SEC)->sh_type = SHT_RELA;
	expect_open_fails(&im, BSDK_EFORMAT, "RELA relocations", "RELA");

	free(base.buf);
	return check_done();
}
