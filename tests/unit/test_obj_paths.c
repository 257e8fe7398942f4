// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_paths.c - paths of open and link no other suite reached: the
 * errors of a BTF map definition, legacy map definitions of 16 and 28
 * bytes (and a 28-byte one with a field this loader does not know), a
 * callback passed to bpf_loop() (BSDK_RELO_FUNC), the linker's refusals (an
 * address that only wraps into .text among them), and a second .BTF or
 * .BTF.ext section.
 */
#include <linux/btf.h>

#include "test_obj_craft.h"
#include "object/object.h"
#include "co-re/btf_index.h"
#include "channel/channel.h"
#include "format/btf.h"

/* ---- BTF of an image: find a type, get its bytes in the image ---- */

static struct btf *img_btf(const struct img *im)
{
	Elf64_Shdr *sh = img_sec(im, ".BTF", NULL);

	return btf_parse(img_data(im, sh), sh->sh_size, "test");
}

/* Where type id of btf (parsed from im) sits in the image. */
static struct btf_type *img_type(const struct img *im, const struct btf *btf, uint32_t id)
{
	Elf64_Shdr *sh = img_sec(im, ".BTF", NULL);
	size_t raw_size;
	const char *raw = btf_raw(btf, &raw_size);

	return (struct btf_type *)(im->buf + sh->sh_offset +
				   ((const char *)btf_type_by_id(btf, id) - raw));
}

/* The member named field of the struct that map var's type is. */
static struct btf_member *map_member(const struct img *im, const struct btf *btf,
				     const char *var, const char *field, uint32_t *struct_id)
{
	const struct btf_type *v = btf_type_by_id(btf, btf_find(btf, var, BTF_KIND_VAR));
	uint32_t sid;
	struct btf_type *t;

	btf_skip_mods(btf, v->type, &sid);
	t = img_type(im, btf, sid);
	if (struct_id)
		*struct_id = sid;
	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (strcmp(btf_str(btf, btf_members(t)[i].name_off), field) == 0)
			return (struct btf_member *)btf_members(t) + i;
	abort();
}

static void test_btf_map_errors(void)
{
	struct img base = img_read("obj_basic"), im;
	struct btf *btf = img_btf(&base);
	uint32_t sid, var = btf_find(btf, "counts", BTF_KIND_VAR);
	struct btf_member *m;

	/* map_member() sets sid: its call and the read of sid are two
	 * statements, as an assignment does not order its operands. */
	im = img_copy(&base);
	m = map_member(&im, btf, "counts", "key", &sid);
	m->type = sid;
	expect_open_fails(&im, BSDK_EBTF, "map key of a struct, not a pointer",
			  "map 'counts': field 'key' is not declared with __type()");

	im = img_copy(&base);
	m = map_member(&im, btf, "counts", "type", &sid);
	m->type = sid;
	expect_open_fails(&im, BSDK_EBTF, "map type of a struct, not a pointer to an array",
			  "map 'counts': field 'type' is not declared with __uint()");

	im = img_copy(&base);
	map_member(&im, btf, "counts", "key", NULL)->name_off =
		btf_type_by_id(btf, var)->name_off;
	expect_open_fails(&im, BSDK_EBTF, "a field named 'counts'",
			  "map 'counts': unknown field 'counts' in its definition");

	im = img_copy(&base);
	img_type(&im, btf, var)->type = map_member(&im, btf, "counts", "key", NULL)->type;
	expect_open_fails(&im, BSDK_EBTF, "a map variable of pointer type",
			  "map 'counts': definition in '.maps' is not a struct");
	btf_free(btf);
	free(base.buf);
}

/* ---- legacy definitions of other sizes ---- */

static void test_legacy_sizes(void)
{
	struct img base = img_read("obj_paths"), im;
	struct bsdk_obj *obj;
	struct bsdk_map *m;

	/* "maps16" becomes "maps": the oldest, 16-byte struct bpf_map_def */
	im = img_copy(&base);
	img_sec_name(&im, img_sec(&im, "maps16", NULL))[4] = '\0';
	obj = bsdk_obj_open_mem(im.buf, im.size, "16-byte legacy map");
	m = obj ? bsdk_obj_map_find(obj, "old16") : NULL;
	if (check(m != NULL, "a 16-byte legacy definition opens")) {
		check_u64(bsdk_map_value_size(m), 8, "its value_size");
		check_u64(bsdk_map_max_entries(m), 2, "its max_entries");
	}
	bsdk_obj_close(obj);
	free(im.buf);

	/* "maps28": three fields past map_flags, all zero */
	im = img_copy(&base);
	img_sec_name(&im, img_sec(&im, "maps28", NULL))[4] = '\0';
	obj = bsdk_obj_open_mem(im.buf, im.size, "28-byte legacy map");
	m = obj ? bsdk_obj_map_find(obj, "new28") : NULL;
	if (check(m != NULL, "a 28-byte legacy definition with a zero tail opens")) {
		check_u64(bsdk_map_value_size(m), 16, "its value_size");
		check_u64(bsdk_map_max_entries(m), 3, "its max_entries");
	}
	bsdk_obj_close(obj);
	free(im.buf);

	/* numa_node set: a field this loader would ignore */
	im = img_copy(&base);
	((uint32_t *)img_data(&im, img_sec(&im, "maps28", NULL)))[6] = 1;
	img_sec_name(&im, img_sec(&im, "maps28", NULL))[4] = '\0';
	expect_open_fails(&im, BSDK_EFORMAT, "a 28-byte legacy definition with numa_node set",
			  "map 'new28': legacy definition has non-zero fields past map_flags");
	free(base.buf);
}

/* ---- a callback: the address of a .text function ---- */

static void test_callback(void)
{
	struct img im = img_read("obj_paths");
	struct bsdk_obj *obj = bsdk_obj_open_mem(im.buf, im.size, "obj_paths");
	struct bsdk_prog *p = obj ? bsdk_obj_prog_find(obj, "loop_sum") : NULL;
	int funcs = 0, calls = 0;

	free(im.buf);
	if (!check(p != NULL, "obj_paths opens"))
		return;
	for (size_t i = 0; i < bsdk_prog_relo_count(p); i++) {
		struct bsdk_relo_info r;

		bsdk_prog_relo(p, i, &r);
		if (r.kind == BSDK_RELO_FUNC) {
			funcs++;
			check_str(r.kind_name, "func", "the callback's relocation is a 'func'");
			check_str(r.symbol, "add_one", "naming the callback");
			/* appended after the program's own 26 instructions */
			check(r.target >= 26 && r.target < bsdk_prog_linked_insn_count(p),
			      "pointing into the linked program (insn %zu of %zu)",
			      r.target, bsdk_prog_linked_insn_count(p));
		}
		calls += r.kind == BSDK_RELO_CALL;
	}
	check_i64(funcs, 1, "one BSDK_RELO_FUNC");
	check_i64(calls, 1, "and one BPF-to-BPF call");
	if (craft_bpf_usable()) {
		cap_start();
		check_i64(bsdk_obj_load(obj), 0, "the kernel takes the program with its callback");
		bsdk_set_log(NULL, NULL);
		check_diag("    %s", cap.all);
	}
	bsdk_obj_close(obj);
}

/* ---- the linker's refusals ---- */

static void test_linker_errors(void)
{
	struct img base = img_read("obj_paths"), im;
	Elf64_Shdr *prog;
	struct bpf_insn *insns;

	/* twice() shrunk to one instruction, the call aimed just past it:
	 * inside .text, inside no function */
	im = img_copy(&base);
	img_sym(&im, "twice", NULL)->st_size = 8;
	prog = img_sec(&im, "tracepoint/", NULL);
	insns = img_data(&im, prog);
	insns[19].imm = 0;
	expect_open_fails(&im, BSDK_ERELO, "a call between two functions",
			  "calls .text instruction 1, which is not inside a function");

	/* the program ends between the two halves of its ld_imm64 of 'sums' */
	im = img_copy(&base);
	img_sym(&im, "loop_sum", NULL)->st_size = 13 * 8;
	expect_open_fails(&im, BSDK_ERELO, "an ld_imm64 across the end of the program",
			  "ld_imm64 at instruction 12 is cut off by the end of the function");

	/* the callback's address is the .text section symbol plus 0x18 (the
	 * first relocation); that symbol at 2^64 - 8 and the addend 0x20
	 * make add_one only by wrapping around */
	im = img_copy(&base);
	{
		Elf64_Rel *rel = img_data(&im, img_rel_for(&im, "tracepoint/"));
		Elf64_Sym *syms = img_data(&im, img_sec_type(&im, SHT_SYMTAB));

		insns = img_data(&im, img_sec(&im, "tracepoint/", NULL));
		check_i64(insns[rel[0].r_offset / 8].imm, 0x18, "the callback is .text + 0x18");
		insns[rel[0].r_offset / 8].imm = 0x20;
		syms[ELF64_R_SYM(rel[0].r_info)].st_value = 0xfffffffffffffff8ull;
	}
	expect_open_fails(&im, BSDK_ERELO, "a callback at (2^64 - 8) + 0x20 in .text",
			  "takes the address of an invalid .text offset");

	/* the call's relocation (the last) dropped: a call to nowhere known */
	im = img_copy(&base);
	img_rel_for(&im, "tracepoint/")->sh_size -= 16;
	expect_open_fails(&im, BSDK_ERELO, "a call without its relocation",
			  "instruction 19 calls a function the loader cannot find");
	free(base.buf);
}

/* ---- two .BTF.ext or .BTF sections ---- */

static void test_duplicate_sections(void)
{
	struct img base = img_read("obj_paths"), im;

	/* ".rel.BTF.ext" named from its fifth byte on: ".BTF.ext" */
	im = img_copy(&base);
	img_sec(&im, ".rel.BTF.ext", NULL)->sh_name += 4;
	expect_open_fails(&im, BSDK_EFORMAT, "two .BTF.ext sections",
			  "two sections are named '.BTF.ext'");

	im = img_copy(&base);
	img_sec(&im, ".rel.BTF", NULL)->sh_name += 4;
	expect_open_fails(&im, BSDK_EFORMAT, "two .BTF sections", "two sections are named '.BTF'");
	free(base.buf);
}

int main(void)
{
	test_btf_map_errors();
	test_legacy_sizes();
	test_callback();
	test_linker_errors();
	test_duplicate_sections();
	return check_done();
}
