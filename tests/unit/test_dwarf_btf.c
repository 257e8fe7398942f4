// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_dwarf_btf - a struct found only in an object's DWARF, converted to
 * BTF (loader/readers/records/dwarf_btf.c) through bsdk_records_*(): every member's
 * offset, size and bitfield equal what the host compiler gives the same
 * declaration (tests/bpf/decode_types.h), and a filled record prints as
 * JSON with each value in its place. The object is
 * tests/bpf/decode_types.bpf.c, which sends struct rich from a local.
 */
#include <stddef.h>
#include <stdlib.h>
#include <linux/btf.h>

#include "check.h"
#include "test_obj_craft.h"
#include "bpfsdk.h"
#include "../bpf/decode_types.h"

struct want {
	const char *name;
	size_t offset, size;
	uint32_t bitfield;
	int kind;
};

static void check_member(const struct bsdk_btf *btf, uint32_t id, const struct want *w)
{
	struct bsdk_btf_info info;
	int err = bsdk_btf_info(btf, id, w->name, &info);

	if (!check(err == 0, "member %s found (%d)", w->name, err))
		return;
	check_u64(info.offset, w->offset, "%s: offset", w->name);
	check_u64(info.size, w->size, "%s: size", w->name);
	check_u64(info.bitfield, w->bitfield, "%s: bitfield bits", w->name);
	check_i64(info.kind, w->kind, "%s: kind", w->name);
}

int main(void)
{
	struct img im = img_read("decode_types");
	struct bsdk_obj *obj = bsdk_obj_open_mem(im.buf, im.size, "decode_types");
	struct bsdk_record_type t;
	struct bsdk_records *r;
	struct bsdk_btf_info info;
	const struct bsdk_map *map;
	char buf[1024];
	int err;

	if (!check(obj != NULL, "decode_types opens"))
		return check_done();
	check(bsdk_btf_find_type(bsdk_obj_btf(obj), "rich") < 0, "struct rich is not in .BTF");
	r = bsdk_records_new(obj);
	if (!check(r != NULL, "bsdk_records_new") || !check(bsdk_records_have_dwarf(r), "DWARF"))
		return check_done();

	/* the call site names it */
	map = bsdk_obj_map_find(obj, "rich_events");
	err = bsdk_records_map_type(r, map, &t);
	check_i64(err, 0, "bsdk_records_map_type");
	check_i64(t.source, BSDK_RECORD_DWARF_LOCAL, "source");
	check_str(t.name, "rich", "type name");
	check_str(t.prog, "send_rich", "program");
	check_str(t.variable, "r", "variable");
	check_str(t.layout, "DWARF", "layout");
	if (!check(t.btf != NULL, "a BTF"))
		return check_done();

	err = bsdk_btf_info(t.btf, t.type_id, NULL, &info);
	check_i64(err, 0, "bsdk_btf_info(rich)");
	check_i64(info.kind, BTF_KIND_STRUCT, "rich is a struct");
	check_u64(info.size, sizeof(struct rich), "sizeof(struct rich)");
	check_u64(info.fixed_size, offsetof(struct rich, tail), "before the flexible array");

	const struct want members[] = {
		{ "pid", offsetof(struct rich, pid), 4, 0, BTF_KIND_INT },
		{ "small", offsetof(struct rich, small), 1, 0, BTF_KIND_INT },
		{ "flag", offsetof(struct rich, flag), 1, 0, BTF_KIND_INT },
		/* bitfields: their byte, with the bits in bitfield */
		{ "low3", offsetof(struct rich, flag) + 1, 1, 3, BTF_KIND_INT },
		{ "mid5", offsetof(struct rich, flag) + 1, 1, 5, BTF_KIND_INT },
		{ "grid", offsetof(struct rich, grid), sizeof(((struct rich *)0)->grid), 0, BTF_KIND_ARRAY },
		{ "pair", offsetof(struct rich, pair), sizeof(pair_t), 0, BTF_KIND_STRUCT },
		{ "u", offsetof(struct rich, u), 4, 0, BTF_KIND_UNION },
		{ "color", offsetof(struct rich, color), sizeof(enum color), 0, BTF_KIND_ENUM },
		{ "wide", offsetof(struct rich, wide), sizeof(enum wide), 0, BTF_KIND_ENUM64 },
		{ "ptr", offsetof(struct rich, ptr), 8, 0, BTF_KIND_PTR },
		{ "name", offsetof(struct rich, name), 8, 0, BTF_KIND_ARRAY },
		{ "neg", offsetof(struct rich, neg), 8, 0, BTF_KIND_INT },
		{ "tail", offsetof(struct rich, tail), 0, 0, BTF_KIND_ARRAY },
	};
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		check_member(t.btf, t.type_id, &members[i]);
	err = bsdk_btf_info(t.btf, t.type_id, "grid", &info);
	check_u64(info.nelems, 2, "grid: 2 rows");
	err = bsdk_btf_info(t.btf, t.type_id, "name", &info);
	check(info.is_string, "name is a string");
	err = bsdk_btf_info(t.btf, t.type_id, "small", &info);
	check(info.is_signed, "small is signed");

	/* a filled record, printed */
	struct rich v = {
		.pid = 4242, .small = -5, .flag = 1, .low3 = 5, .mid5 = 17,
		.grid = { { 1, 2, 3 }, { 4, 5, 6 } }, .pair = { 7, 8 }, .u.word = 0x01020304,
		.color = COLOR_NEG, .wide = WIDE_BIG, .ptr = (const char *)0x1000,
		.name = "abc", .neg = -9000000000LL,
	};
	long len = bsdk_btf_snprint(t.btf, t.type_id, &v, sizeof(v), BSDK_BTF_JSON, 0, buf,
				    sizeof(buf), &err);
	check(len > 0 && (size_t)len < sizeof(buf), "printed (%ld)", len);
	/* the flexible array lies past sizeof: null, and -ERANGE says so */
	check_i64(err, -ERANGE, "printed, but for the flexible array");
	check_str(buf,
		  "{\"pid\":4242,\"small\":-5,\"flag\":true,\"low3\":5,\"mid5\":17,"
		  "\"grid\":[[1,2,3],[4,5,6]],\"pair\":{\"a\":7,\"b\":8},"
		  "\"u\":{\"word\":16909060,\"bytes\":[4,3,2,1]},\"color\":\"COLOR_NEG\","
		  "\"wide\":\"WIDE_BIG\",\"ptr\":\"0x1000\",\"name\":\"abc\","
		  "\"neg\":-9000000000,\"tail\":null}",
		  "the record as JSON");

	/* a char array that is no command line (test_btf_print.c has those) is one C string,
	 * whatever the record holds past its NUL and wherever it stops: one JSON shape */
	memcpy(v.name, "ab\0cd\0\0\0", 8);
	size_t at = offsetof(struct rich, name);
	const struct { size_t size; const char *want; } packs[] = {
		{ sizeof(v), "\"name\":\"ab\"" },		/* the array whole */
		{ at + 6, "\"name\":\"ab\"" },		/* cut after two strings */
		{ at + 7, "\"name\":\"ab\"" },
		{ at + 5, "\"name\":\"ab\"" },
		{ at + 3, "\"name\":\"ab\"" },
	};
	for (size_t i = 0; i < sizeof(packs) / sizeof(packs[0]); i++) {
		bsdk_btf_snprint(t.btf, t.type_id, &v, packs[i].size, BSDK_BTF_JSON, 0, buf,
				 sizeof(buf), &err);
		if (!check(strstr(buf, packs[i].want) != NULL, "record of %zu bytes: %s",
			   packs[i].size, packs[i].want))
			check_diag("got %s", buf);
	}
	bsdk_btf_snprint(t.btf, t.type_id, &v, at + 6, BSDK_BTF_TEXT, 0, buf, sizeof(buf), &err);
	check(strstr(buf, "name=\"ab\"") != NULL, "text: %s", buf);

	/* by name too, and a name that is nowhere */
	err = bsdk_records_find(r, "rich", &t);
	check_i64(err, 0, "bsdk_records_find(rich)");
	check_str(t.layout, "DWARF", "found in DWARF");
	check_i64(bsdk_records_find(r, "no_such_type", &t), -ENOENT, "bsdk_records_find(none)");
	/* the size rule: only struct rich of the program's own fits */
	err = bsdk_records_by_size(r, map, sizeof(struct rich) + 4, &t);
	check_i64(err, 0, "bsdk_records_by_size");
	check_i64(t.source, BSDK_RECORD_SIZE, "size rule");
	check_str(t.name ? t.name : "(null)", "rich", "size rule's choice");
	err = bsdk_records_by_size(r, map, 3, &t);
	check_i64(t.source, BSDK_RECORD_NONE, "no struct of 3 bytes");

	bsdk_records_free(r);
	bsdk_obj_close(obj);
	free(im.buf);
	return check_done();
}
