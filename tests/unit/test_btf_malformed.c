// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_btf_malformed.c - .BTF and .BTF.ext: broken ones are refused at open
 * with BSDK_EBTF (or BSDK_EFORMAT for a section that holds no data) and one
 * message; and the sanitiser that rewrites kinds an older kernel lacks
 * keeps every type ID and produces BTF the kernel accepts.
 */
#include <linux/btf.h>

#include "test_obj_craft.h"
#include "object/object.h"
#include "ext/btf/btf_load.h"
#include "co-re/btf_index.h"
#include "channel/channel.h"
#include "format/btf.h"

/* Where type id of the object's .BTF sits in the file. */
static void *btf_type_in_img(const struct img *im, uint32_t id)
{
	Elf64_Shdr *sh = img_sec(im, ".BTF", NULL);
	struct btf *btf = btf_parse(img_data(im, sh), sh->sh_size, "test");
	size_t raw_size;
	const char *raw = btf_raw(btf, &raw_size);
	size_t off = (size_t)((const char *)btf_type_by_id(btf, id) - raw);

	btf_free(btf);
	return im->buf + sh->sh_offset + off;
}

/* The first type of kind, in the object's .BTF. */
static uint32_t btf_first_of(const struct img *im, int kind)
{
	Elf64_Shdr *sh = img_sec(im, ".BTF", NULL);
	struct btf *btf = btf_parse(img_data(im, sh), sh->sh_size, "test");
	uint32_t id = 1;

	while (id < btf_type_count(btf) &&
	       btf_kind(btf_type_by_id(btf, id)) != kind)
		id++;
	btf_free(btf);
	return id;
}

struct ext_hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, func_off, func_len, line_off, line_len;
};

/* The first block of func_info (line == 0) or line_info of .BTF.ext: the
 * block header { sec_name_off, num_info } followed by its records. */
static uint32_t *ext_block(const struct img *im, int line)
{
	unsigned char *ext = img_data(im, img_sec(im, ".BTF.ext", NULL));
	struct ext_hdr h;

	memcpy(&h, ext, sizeof(h));
	return (uint32_t *)(ext + h.hdr_len + (line ? h.line_off : h.func_off) + 4);
}

static void test_malformed(void)
{
	struct img base = img_read("obj_basic"), im;
	struct btf_header *h;
	struct btf_type *t;

	im = img_copy(&base);
	img_sec(&im, ".BTF", NULL)->sh_type = SHT_NOBITS;
	expect_open_fails(&im, BSDK_EFORMAT, ".BTF as SHT_NOBITS", "holds no data");

	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	h->magic = 0x9feb;
	expect_open_fails(&im, BSDK_EBTF, ".BTF of the other byte order", "bad magic");

	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	h->str_len = 0xfffffff0u;
	expect_open_fails(&im, BSDK_EBTF, ".BTF string section past the data",
			  "outside the data");

	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	h->type_off = 0xfffffffcu;
	h->type_len = 8;
	expect_open_fails(&im, BSDK_EBTF, ".BTF type_off + type_len wraps",
			  "outside the data");

	/* records are read in place as structs: they must be aligned */
	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	h->hdr_len += 1;
	expect_open_fails(&im, BSDK_EBTF, ".BTF types at an odd offset",
			  "outside the data");

	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	h->type_len = 6;
	expect_open_fails(&im, BSDK_EBTF, ".BTF cut inside the first type",
			  "ends inside a type record");

	im = img_copy(&base);
	h = img_data(&im, img_sec(&im, ".BTF", NULL));
	((char *)h)[h->hdr_len + h->str_off + h->str_len - 1] = 'x';
	expect_open_fails(&im, BSDK_EBTF, ".BTF strings without a final NUL",
			  "start and end with NUL");

	im = img_copy(&base);
	t = btf_type_in_img(&im, btf_first_of(&im, BTF_KIND_PTR));
	t->type = 0xffff;
	expect_open_fails(&im, BSDK_EBTF, ".BTF pointer to type 65535",
			  "past the last type");

	im = img_copy(&base);
	t = btf_type_in_img(&im, btf_first_of(&im, BTF_KIND_STRUCT));
	((struct btf_member *)(t + 1))->type = 0x7fffffff;
	expect_open_fails(&im, BSDK_EBTF, ".BTF struct member of type 2^31 - 1",
			  "past the last type");

	im = img_copy(&base);
	t = btf_type_in_img(&im, btf_first_of(&im, BTF_KIND_INT));
	t->name_off = 0xffffff;
	expect_open_fails(&im, BSDK_EBTF, ".BTF name offset past the strings",
			  "name offset past the string section");

	im = img_copy(&base);
	t = btf_type_in_img(&im, btf_first_of(&im, BTF_KIND_STRUCT));
	((struct btf_member *)(t + 1))->name_off = 0x7ffffff0;
	expect_open_fails(&im, BSDK_EBTF, ".BTF member name past the strings",
			  "name offset past the string section");

	im = img_copy(&base);
	t = btf_type_in_img(&im, 1);
	t->info = (t->info & ~0x1f000000u) | (31u << 24);
	expect_open_fails(&im, BSDK_EBTF, ".BTF kind 31", "unknown kind");

	im = img_copy(&base);
	t = btf_type_in_img(&im, btf_first_of(&im, BTF_KIND_DATASEC));
	t->info |= 0xffff;	/* vlen: runs past the section */
	expect_open_fails(&im, BSDK_EBTF, ".BTF datasec with 65535 entries",
			  "runs past the type section");

	/* .BTF.ext */
	im = img_copy(&base);
	*(uint16_t *)img_data(&im, img_sec(&im, ".BTF.ext", NULL)) = 0;
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext bad magic", "bad header");

	im = img_copy(&base);
	((struct ext_hdr *)img_data(&im, img_sec(&im, ".BTF.ext", NULL)))->line_len = 0x7fffffff;
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext line_info past the section",
			  "outside the data");

	im = img_copy(&base);
	ext_block(&im, 0)[0] = 0;
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext func_info for section ''",
			  "holds no code");

	im = img_copy(&base);
	ext_block(&im, 0)[1] = 0x10000000;
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext 2^28 func_info records",
			  "do not fit");

	im = img_copy(&base);
	ext_block(&im, 0)[2] = 0x100000;	/* insn_off of record 0 */
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext func_info past its section",
			  "outside the section");

	im = img_copy(&base);
	ext_block(&im, 0)[3] = btf_first_of(&im, BTF_KIND_INT);	/* type_id */
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext func_info of an int",
			  "is not a function");

	im = img_copy(&base);
	ext_block(&im, 1)[2 + 2] = 0xffffff;	/* line_off of record 0 */
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext line_info source past the strings",
			  "string offset out of range");

	im = img_copy(&base);
	ext_block(&im, 1)[2] = 3;	/* insn_off of record 0: not a whole insn */
	expect_open_fails(&im, BSDK_EBTF, ".BTF.ext line_info between instructions",
			  "outside the section");

	free(base.buf);
}

/* ---- the sanitiser ---- */

#define INFO(kind, vlen) ((uint32_t)(kind) << 24 | (vlen))

/* Every kind younger than BTF, once. */
static const char all_strs[] = "\0int\0user\0v\0.data\0float\0tag\0e\0A\0B\0f";
enum { S_INT = 1, S_USER = 5, S_V = 10, S_DATA = 12, S_FLOAT = 18,
       S_TAG = 24, S_E = 28, S_A = 30, S_B = 32, S_F = 34 };
static const uint32_t all_types[] = {
	/* 1 */ S_INT, INFO(BTF_KIND_INT, 0), 4, BTF_INT_SIGNED << 24 | 32,
	/* 2 */ 0, INFO(BTF_KIND_PTR, 0), 3,
	/* 3 */ S_USER, INFO(BTF_KIND_TYPE_TAG, 0), 1,
	/* 4 */ S_V, INFO(BTF_KIND_VAR, 0), 1, BTF_VAR_GLOBAL_ALLOCATED,
	/* 5 */ S_DATA, INFO(BTF_KIND_DATASEC, 1), 4, 4, 0, 4,
	/* 6 */ S_FLOAT, INFO(BTF_KIND_FLOAT, 0), 4,
	/* 7 */ S_TAG, INFO(BTF_KIND_DECL_TAG, 0), 4, (uint32_t)-1,
	/* 8 */ S_E, INFO(BTF_KIND_ENUM64, 2), 8, S_A, 1, 0, S_B, 0xffffffff, 1,
	/* 9 */ 0, INFO(BTF_KIND_FUNC_PROTO, 0), 1,
	/* 10 */ S_F, INFO(BTF_KIND_FUNC, BTF_FUNC_GLOBAL), 9,
};

static void *blob_make(size_t *size)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_len = sizeof(all_types),
		.str_off = sizeof(all_types), .str_len = sizeof(all_strs),
	};
	char *b = malloc(sizeof(h) + sizeof(all_types) + sizeof(all_strs));

	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), all_types, sizeof(all_types));
	memcpy(b + sizeof(h) + sizeof(all_types), all_strs, sizeof(all_strs));
	*size = sizeof(h) + sizeof(all_types) + sizeof(all_strs);
	return b;
}

static int kernel_btf_load(const void *raw, size_t size, char *log, size_t log_size)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uint64_t)(uintptr_t)raw;
	attr.btf_size = (uint32_t)size;
	attr.btf_log_buf = (uint64_t)(uintptr_t)log;
	attr.btf_log_size = (uint32_t)log_size;
	attr.btf_log_level = 1;
	log[0] = '\0';
	fd = (int)syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -errno;
}

/* The last line of a kernel log, for a diagnostic. */
static const char *log_tail(char *log)
{
	size_t n = strlen(log);

	while (n && log[n - 1] == '\n')
		log[--n] = '\0';
	while (n && log[n - 1] != '\n')
		n--;
	return log + n;
}

static void test_sanitize(void)
{
	static const int want[] = { 0, BTF_KIND_INT, BTF_KIND_PTR, BTF_KIND_VOLATILE,
		BTF_KIND_INT, BTF_KIND_STRUCT, BTF_KIND_STRUCT, BTF_KIND_INT,
		BTF_KIND_ENUM, BTF_KIND_FUNC_PROTO, BTF_KIND_FUNC };
	static char log[65536];
	int bpf_ok = craft_bpf_usable();
	size_t size, out_size;
	void *blob = blob_make(&size), *out;
	struct btf *btf, *san;
	const struct btf_type *t;
	struct bsdk_obj *obj;

	if (!blob)
		abort();
	btf = btf_parse(blob, size, "all kinds");
	check(btf != NULL, "sanitiser input: hand-made BTF with every new kind parses");
	if (!btf)
		return;
	out = btf_sanitize(btf, ~0u, &out_size);
	san = out ? btf_parse(out, out_size, "sanitised") : NULL;
	check(san != NULL, "sanitised BTF parses");
	if (!san)
		return;
	check_u64(btf_type_count(san), btf_type_count(btf),
		  "sanitised BTF keeps every type ID");
	for (uint32_t id = 1; id < btf_type_count(san); id++)
		check_i64(btf_kind(btf_type_by_id(san, id)), want[id],
			  "sanitised type %u has kind %d", id, want[id]);
	t = btf_type_by_id(san, 8);
	check_u64(btf_vlen(t), 2, "enum64 -> enum keeps its 2 values");
	check_i64(((const struct btf_enum *)(t + 1))[1].val, -1,
		  "enum64 value 0x1ffffffff -> low 32 bits");
	t = btf_type_by_id(san, 5);
	check_u64(((const struct btf_member *)(t + 1))->offset, 0,
		  "datasec -> struct: the variable's offset in bits");
	t = btf_type_by_id(san, 10);
	check_u64(btf_vlen(t), 0, "global function -> static");
	check_str(btf_str(san, btf_type_by_id(san, 1)->name_off), "int",
		  "untouched records keep their names");

	if (!bpf_ok) {
		printf("ok %d # skip the kernel checks: bpf() not permitted\n", ++check_count);
	} else {
		int err = kernel_btf_load(blob, size, log, sizeof(log));

		check_i64(err, 0, "the kernel takes the hand-made BTF as it is");
		if (err)
			check_diag("kernel: %s", log_tail(log));
		err = kernel_btf_load(out, out_size, log, sizeof(log));
		check_i64(err, 0, "the kernel takes the sanitised BTF");
		if (err)
			check_diag("kernel: %s", log_tail(log));
	}
	btf_free(san);
	free(out);
	btf_free(btf);
	free(blob);

	/* A real object's BTF: clang leaves DATASEC sizes and offsets 0, the
	 * kernel refuses those; open fills them in. */
	{
		struct img im = img_read("obj_basic");

		obj = bsdk_obj_open_mem(im.buf, im.size, "obj_basic");
		free(im.buf);
	}
	check(obj && obj->btf, "obj_basic opens with BTF");
	if (!obj || !obj->btf)
		return;
	{
		uint32_t id = btf_find(obj->btf, ".maps", BTF_KIND_DATASEC);
		const struct btf_var_secinfo *v;

		t = btf_type_by_id(obj->btf, id);
		v = btf_secinfos(t);
		check(id && t->size == 56, "'.maps' DATASEC size from the ELF section (%u)",
		      t ? t->size : 0);
		check(btf_vlen(t) == 2 && v[0].offset < v[1].offset && v[1].offset > 0,
		      "'.maps' variables at their symbols' offsets, sorted (%u, %u)",
		      v[0].offset, v[1].offset);
	}
	for (int missing = 0; bpf_ok && missing <= 1; missing++) {
		int err;

		out = btf_sanitize(obj->btf, missing ? ~0u : 0, &out_size);
		err = kernel_btf_load(out, out_size, log, sizeof(log));
		check_i64(err, 0, "the kernel takes obj_basic's BTF, %s",
			  missing ? "every new kind rewritten" : "as it is");
		if (err)
			check_diag("kernel: %s", log_tail(log));
		free(out);
	}
	bsdk_obj_close(obj);
}

int main(void)
{
	test_malformed();
	test_sanitize();
	return check_done();
}
