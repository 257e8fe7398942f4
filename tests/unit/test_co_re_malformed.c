// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_co_re_malformed.c - broken CO-RE relocation records (.BTF.ext core_relo) are refused at
 * open, each with BSDK_EBTF and one message saying what is wrong: access strings that do not
 * fit the type, type IDs past the end, relocations on instructions that cannot carry them,
 * values that disagree with the object's own BTF. Mutations of tests/bpf/co_re_flavour.bpf.c.
 */
#include <linux/btf.h>

#include "test_obj_craft.h"
#include "object/object.h"
#include "channel/channel.h"

struct ext_hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, func_off, func_len, line_off, line_len, core_off, core_len;
};

/* The core_relo list: its rec_size word, then { sec_name_off, num_info, records }. */
static uint32_t *core_list(const struct img *im)
{
	unsigned char *ext = img_data(im, img_sec(im, ".BTF.ext", NULL));
	struct ext_hdr h;

	memcpy(&h, ext, sizeof(h));
	if (h.hdr_len < sizeof(h) || h.core_len == 0) {
		printf("# co_re_flavour.bpf.o has no core_relo records\n");
		abort();
	}
	return (uint32_t *)(ext + h.hdr_len + h.core_off);
}

/* Record i of the first block: { insn_off, type_id, access_str_off, kind }. */
static uint32_t *rec(const struct img *im, unsigned i)
{
	return core_list(im) + 3 + 4 * i;
}

/* The nth (from 0) record of kind in the first block. */
static unsigned rec_of_kind(const struct img *im, uint32_t kind, unsigned nth)
{
	uint32_t n = core_list(im)[2];

	for (unsigned i = 0; i < n; i++)
		if (rec(im, i)[3] == kind && nth-- == 0)
			return i;
	printf("# no core_relo record of kind %u\n", kind);
	abort();
}

/* The offset in .BTF's strings of s. */
static uint32_t btf_str_off(const struct img *im, const char *s)
{
	unsigned char *btf = img_data(im, img_sec(im, ".BTF", NULL));
	struct btf_header h;
	const char *strs;

	memcpy(&h, btf, sizeof(h));
	strs = (const char *)btf + h.hdr_len + h.str_off;
	for (uint32_t off = 0; off < h.str_len; off += (uint32_t)strlen(strs + off) + 1)
		if (strcmp(strs + off, s) == 0)
			return off;
	printf("# no string '%s' in .BTF\n", s);
	abort();
}

/* The index of the first instruction of the program's section with opcode code. */
static uint32_t insn_with_code(const struct img *im, uint8_t code)
{
	Elf64_Shdr *sh = img_sec(im, "tp/", NULL);
	const struct bpf_insn *insns = img_data(im, sh);

	for (uint32_t i = 0; i < sh->sh_size / 8; i++)
		if (insns[i].code == code)
			return i;
	abort();
}

int main(void)
{
	struct img base = img_read("co_re_flavour"), im;
	unsigned exists, type_rec, small_rec, enum_rec;

	/* The object itself opens, with its relocations (whether or not a kernel BTF is here). */
	{
		struct bsdk_obj *obj;

		cap_start();
		obj = bsdk_obj_open_mem(base.buf, base.size, "co_re_flavour");
		bsdk_set_log(NULL, NULL);
		check(obj != NULL, "co_re_flavour opens: %s", cap.first);
		check_u64(obj ? bsdk_prog_core_relo_count(bsdk_obj_prog_next(obj, NULL)) : 0, 13,
			  "its program has 13 CO-RE relocations, its subprogram's one included");
		bsdk_obj_close(obj);
	}
	exists = rec_of_kind(&base, BPF_CORE_FIELD_EXISTS, 0);
	type_rec = rec_of_kind(&base, BPF_CORE_TYPE_EXISTS, 0);
	small_rec = rec_of_kind(&base, BPF_CORE_TYPE_EXISTS, 1);	/* no_such_struct___mine */
	enum_rec = rec_of_kind(&base, BPF_CORE_ENUMVAL_VALUE, 0);

	im = img_copy(&base);
	rec(&im, 0)[2] = 0x7ffffff0;
	expect_open_fails(&im, BSDK_EBTF, "access string offset past the strings",
			  "access string offset 2147483632 is past the string section");

	im = img_copy(&base);
	rec(&im, 0)[1] = rec(&im, small_rec)[1];	/* a struct of one member */
	rec(&im, 0)[2] = btf_str_off(&im, "0:4");
	expect_open_fails(&im, BSDK_EBTF, "access string past the last member",
			  "names a member past the last");

	im = img_copy(&base);
	rec(&im, enum_rec)[2] = btf_str_off(&im, "0:1");
	expect_open_fails(&im, BSDK_EBTF, "enum access string with two indices",
			  "not an enumerator of the enum");

	im = img_copy(&base);
	rec(&im, type_rec)[2] = btf_str_off(&im, "0:1");
	expect_open_fails(&im, BSDK_EBTF, "type relocation with a member access",
			  "must be \"0\"");

	im = img_copy(&base);
	rec(&im, 0)[1] = 0x7fffffff;
	expect_open_fails(&im, BSDK_EBTF, "type ID past the end",
			  "type 2147483647 is not in the object's BTF");

	im = img_copy(&base);
	rec(&im, 0)[1] = 0;
	expect_open_fails(&im, BSDK_EBTF, "type ID 0 (void)", "type 0 is not in the object's BTF");

	im = img_copy(&base);
	rec(&im, 0)[0] = 8 * insn_with_code(&im, BPF_JMP | BPF_CALL);
	expect_open_fails(&im, BSDK_EBTF, "relocation on a call", "which cannot carry a relocated value");

	im = img_copy(&base);
	rec(&im, 0)[0] = 8 * insn_with_code(&im, BPF_JMP | BPF_EXIT);
	expect_open_fails(&im, BSDK_EBTF, "relocation on exit", "which cannot carry a relocated value");

	im = img_copy(&base);
	rec(&im, exists)[0] = 8 * insn_with_code(&im, BPF_LDX | BPF_MEM | BPF_W);
	expect_open_fails(&im, BSDK_EBTF, "field_exists on a load",
			  "field_exists is on a load or store");

	im = img_copy(&base);
	rec(&im, 0)[0] += 4;
	expect_open_fails(&im, BSDK_EBTF, "instruction offset between instructions",
			  "is not an instruction of the section");

	im = img_copy(&base);
	rec(&im, 0)[0] = 0xfffffff8;
	expect_open_fails(&im, BSDK_EBTF, "instruction offset past the section",
			  "is not an instruction of the section");

	im = img_copy(&base);
	rec(&im, 0)[3] = 13;
	expect_open_fails(&im, BSDK_EBTF, "unknown kind", "unknown kind 13");

	im = img_copy(&base);
	rec(&im, 0)[3] = BPF_CORE_FIELD_BYTE_SIZE;	/* the instruction holds the offset, 16 */
	expect_open_fails(&im, BSDK_EBTF, "instruction value not the local BTF's",
			  "holds 16 where the object's BTF gives field_byte_size '0:2' 4");

	im = img_copy(&base);
	memcpy(rec(&im, 1), rec(&im, 0), 16);
	expect_open_fails(&im, BSDK_EBTF, "two records on one instruction", "relocated twice");

	im = img_copy(&base);
	core_list(&im)[0] = 12;
	expect_open_fails(&im, BSDK_EBTF, "record size smaller than a record",
			  "core_relo record size 12 is invalid");

	im = img_copy(&base);
	core_list(&im)[2] = 0x10000000;
	expect_open_fails(&im, BSDK_EBTF, "more records than fit", "records do not fit");

	im = img_copy(&base);
	core_list(&im)[1] = btf_str_off(&im, "license");
	expect_open_fails(&im, BSDK_EBTF, "block names a section without code",
			  "core_relo names a section that holds no code");

	free(base.buf);
	return check_done();
}
