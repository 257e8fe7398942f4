// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_btf_print.c - the BTF value printer over types built here: every
 * kind it shows, each format, and BTF no compiler writes (typedef loops,
 * structs holding themselves, array lengths that overflow, types larger
 * than the record), which must end quickly with valid output.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bpfsdk.h"
#include "check.h"
#include "btf_build.h"
#include "json_valid.h"

static struct bb b;

/* What printing returned, and the text. */
static int print(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		 enum bsdk_btf_format fmt, unsigned int flags, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int err = bsdk_btf_print(btf, id, data, size, fmt, flags, f);

	fclose(f);
	return err;
}

static void check_print(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
			enum bsdk_btf_format fmt, unsigned int flags, int want_err,
			const char *want, const char *what)
{
	char *text;
	int err = print(btf, id, data, size, fmt, flags, &text);

	check_i64(err, want_err, "%s: return", what);
	if (want)
		check_str(text, want, "%s: output", what);
	if (fmt == BSDK_BTF_JSON && !(flags & BSDK_BTF_MEMBERS))
		check(json_valid(text, strlen(text)), "%s: valid JSON: %s", what, text);
	free(text);
}

static uint32_t u8_t, u16_t, u32_t, s32_t, u64_t, s8_t, char_t, bool_t, int128_t;
static uint32_t event_t, inner_t, state_t, flat_t, cmd_t, lines_t, plain_t;

static void build_types(void)
{
	uint32_t pid_t_, ret_t, ret2_t, comm_t, addr_t, ptr_t, uni_t;

	bb_init(&b);
	u8_t = bb_int(&b, "unsigned char", 1, 0);
	u16_t = bb_int(&b, "unsigned short", 2, 0);
	u32_t = bb_int(&b, "unsigned int", 4, 0);
	s32_t = bb_int(&b, "int", 4, BTF_INT_SIGNED);
	u64_t = bb_int(&b, "unsigned long long", 8, 0);
	s8_t = bb_int(&b, "signed char", 1, BTF_INT_SIGNED);
	char_t = bb_int(&b, "char", 1, BTF_INT_SIGNED);
	bool_t = bb_int(&b, "_Bool", 1, BTF_INT_BOOL);
	int128_t = bb_int(&b, "__int128", 16, BTF_INT_SIGNED);
	pid_t_ = bb_ref(&b, BTF_KIND_TYPEDEF, "pid_t", u32_t);
	ret_t = bb_ref(&b, BTF_KIND_TYPEDEF, "ret_t", s32_t);
	ret2_t = bb_ref(&b, BTF_KIND_CONST, NULL, ret_t);	/* const ret_t */
	comm_t = bb_array(&b, char_t, u32_t, 8);
	addr_t = bb_array(&b, u8_t, u32_t, 4);
	ptr_t = bb_ref(&b, BTF_KIND_PTR, NULL, 0);

	inner_t = bb_struct(&b, "inner", 4, 2);
	bb_member_bits(&b, "port", u16_t, 0, 0);
	bb_member_bits(&b, "delta", s8_t, 16, 0);

	state_t = bb_enum(&b, "state", 4, 2);
	bb_enumval(&b, "ST_OPEN", 1);
	bb_enumval(&b, "ST_CLOSED", 2);

	uni_t = bb_union(&b, NULL, 4, 2);
	bb_member_bits(&b, "x", u32_t, 0, 0);
	bb_member_bits(&b, "y", u16_t, 0, 0);

	event_t = bb_struct(&b, "event", 60, 14);
	bb_member_bits(&b, "pid", pid_t_, 0, 0);
	bb_member_bits(&b, "ret", ret2_t, 32, 0);
	bb_member_bits(&b, "lat_ns", u64_t, 64, 0);
	bb_member_bits(&b, "comm", comm_t, 128, 0);
	bb_member_bits(&b, "in", inner_t, 192, 0);
	bb_member_bits(&b, "st", state_t, 224, 0);
	bb_member_bits(&b, "a", u32_t, 256, 3);
	bb_member_bits(&b, "b", s32_t, 259, 5);
	bb_member_bits(&b, "c", u32_t, 264, 1);
	bb_member_bits(&b, "ptr", ptr_t, 320, 0);
	bb_member_bits(&b, "addr", addr_t, 384, 0);
	bb_member_bits(&b, "ok", bool_t, 416, 0);
	bb_member_bits(&b, NULL, uni_t, 448, 0);
	bb_member_bits(&b, "big", int128_t, 0, 0);	/* overlaps: fine for a test */

	/* command lines: named argv, counted by NAME_count; and a string that is none */
	uint32_t buf12 = bb_array(&b, char_t, u32_t, 12);

	cmd_t = bb_struct(&b, "cmd", 16, 2);
	bb_member_bits(&b, "argc", u32_t, 0, 0);
	bb_member_bits(&b, "argv", buf12, 32, 0);
	lines_t = bb_struct(&b, "lines", 16, 2);
	bb_member_bits(&b, "lines_count", u32_t, 0, 0);
	bb_member_bits(&b, "lines", buf12, 32, 0);
	plain_t = bb_struct(&b, "plain", 16, 2);
	bb_member_bits(&b, "n", u32_t, 0, 0);
	bb_member_bits(&b, "text", buf12, 32, 0);

	flat_t = bb_struct(&b, "flat", 24, 4);
	bb_member_bits(&b, "pid", u32_t, 0, 0);
	bb_member_bits(&b, "comm", comm_t, 32, 0);
	bb_member_bits(&b, "dur_ns", u64_t, 96, 0);
	bb_member_bits(&b, "st", state_t, 160, 0);
}

static void put(unsigned char *rec, size_t off, const void *v, size_t n) { memcpy(rec + off, v, n); }

static void test_event(const struct bsdk_btf *btf)
{
	unsigned char rec[64] = { 0 };
	uint32_t pid = 1234, x = 65538, st = 1, bits;
	int32_t ret = -2;
	uint64_t lat = 1500000, ptr = 0xffff888812345678ull;
	unsigned char addr[4] = { 10, 0, 0, 1 }, ok = 1;
	uint16_t port = 80;
	int8_t delta = -3;

	put(rec, 0, &pid, 4);
	put(rec, 4, &ret, 4);
	put(rec, 8, &lat, 8);
	memcpy(rec + 16, "bash\0zz", 8);
	put(rec, 24, &port, 2);
	put(rec, 26, &delta, 1);
	put(rec, 28, &st, 4);
	bits = 5 | 0x1f << 3 | 1 << 8;	/* a=5, b=-1 (5 bits), c=1 */
	put(rec, 32, &bits, 4);
	put(rec, 40, &ptr, 8);
	put(rec, 48, addr, 4);
	put(rec, 52, &ok, 1);
	put(rec, 56, &x, 4);

	check_print(btf, event_t, rec, 60, BSDK_BTF_JSON, 0, 0,
		    "{\"pid\":1234,\"ret\":-2,\"lat_ns\":1500000,\"comm\":\"bash\","
		    "\"in\":{\"port\":80,\"delta\":-3},\"st\":\"ST_OPEN\",\"a\":5,\"b\":-1,\"c\":1,"
		    "\"ptr\":\"0xffff888812345678\",\"addr\":[10,0,0,1],\"ok\":true,"
		    "\"x\":65538,\"y\":2,\"big\":27670134557308392543618258}",
		    "every kind, JSON");
	check_print(btf, event_t, rec, 60, BSDK_BTF_TEXT, BSDK_BTF_DURATIONS, 0,
		    "{pid=1234 ret=-2 lat_ns=1.500ms comm=\"bash\" in={port=80 delta=-3} st=ST_OPEN "
		    "a=5 b=-1 c=1 ptr=0xffff888812345678 addr=[10, 0, 0, 1] ok=true x=65538 y=2 "
		    "big=27670134557308392543618258}",
		    "every kind, text, durations");
	check_print(btf, event_t, rec, 60, BSDK_BTF_JSON, BSDK_BTF_MEMBERS, 0, NULL, "members");
	/* members continue an object the caller opened */
	{
		char *text;

		print(btf, inner_t, rec + 24, 4, BSDK_BTF_JSON, BSDK_BTF_MEMBERS, &text);
		check_str(text, ",\"port\":80,\"delta\":-3", "members: each after a comma");
		free(text);
		print(btf, u32_t, rec, 4, BSDK_BTF_JSON, BSDK_BTF_MEMBERS, &text);
		check_str(text, ",\"value\":1234", "members of a scalar: \"value\"");
		free(text);
	}

	/* enum values outside the enum are numbers */
	st = 7;
	put(rec, 28, &st, 4);
	check_print(btf, state_t, rec + 28, 4, BSDK_BTF_JSON, 0, 0, "7", "enum outside");
	/* integers at their limits */
	lat = UINT64_MAX;
	check_print(btf, u64_t, &lat, 8, BSDK_BTF_JSON, 0, 0, "18446744073709551615", "u64 max");
	ret = INT32_MIN;
	check_print(btf, s32_t, &ret, 4, BSDK_BTF_JSON, 0, 0, "-2147483648", "s32 min");
	check_print(btf, bool_t, "\0", 1, BSDK_BTF_TEXT, 0, 0, "false", "bool false");
}

static void test_strings(const struct bsdk_btf *btf)
{
	/* flat.comm has 8 chars at offset 4: no NUL, quotes, control and
	 * non-UTF-8 bytes, a valid two-byte sequence */
	static const unsigned char hostile[8] = { '"', '\\', '\n', 0x01, 0xff, 0xc3, 0xa9, 'x' };
	unsigned char rec[24] = { 0 };

	memcpy(rec + 4, hostile, 8);
	check_print(btf, flat_t, rec, 24, BSDK_BTF_JSON, 0, 0,
		    "{\"pid\":0,\"comm\":\"\\\"\\\\\\n\\u0001\\udcff\xc3\xa9x\",\"dur_ns\":0,\"st\":0}",
		    "string escapes, JSON");
	check_print(btf, flat_t, rec, 24, BSDK_BTF_TEXT, 0, 0,
		    "{pid=0 comm=\"\\\"\\\\\\n\\x01\\xff\xc3\xa9x\" dur_ns=0 st=0}",
		    "string escapes, text");
}

/* One JSON shape per member: a command line is always a list, of one string or none too;
 * any other char array always one string. */
static void test_argv(const struct bsdk_btf *btf)
{
	unsigned char rec[16] = { 2, 0, 0, 0, 'l', 's', 0, '-', 'l', 0 };
	unsigned char bin[16] = { 2, 0, 0, 0, 'a', 'b', 0, 'c', 0, 5, 0 };
	unsigned char prog[16] = { 2, 0, 0, 0, 's', 'h', 0, 'a', '\t', 'b', '\n', 'c', 0 };

	check_print(btf, cmd_t, rec, 16, BSDK_BTF_JSON, 0, 0,
		    "{\"argc\":2,\"argv\":[\"ls\",\"-l\"]}", "argv: the array whole, a list");
	check_print(btf, cmd_t, rec, 10, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"argc\":2,\"argv\":[\"ls\",\"-l\"]}", "argv: cut after the last NUL");
	check_print(btf, cmd_t, rec, 7, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"argc\":2,\"argv\":[\"ls\"]}", "argv: one string, still a list");
	check_print(btf, cmd_t, rec, 4, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"argc\":2,\"argv\":[]}", "argv: none sent, an empty list");
	check_print(btf, cmd_t, bin, 11, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"argc\":2,\"argv\":[\"ab\",\"c\"]}", "a binary last piece is left out");
	check_print(btf, cmd_t, prog, 16, BSDK_BTF_JSON, 0, 0,
		    "{\"argc\":2,\"argv\":[\"sh\",\"a\\tb\\nc\"]}",
		    "a last argument with a tab and a newline (an awk program) is kept");
	check_print(btf, cmd_t, rec, 16, BSDK_BTF_TEXT, 0, 0,
		    "{argc=2 argv=[\"ls\" \"-l\"]}", "argv: text");
	check_print(btf, cmd_t, rec, 16, BSDK_BTF_COLUMNS, 0, 0,
		    "        2  ls -l", "argv: a column, bare");
	check_print(btf, lines_t, rec, 7, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"lines_count\":2,\"lines\":[\"ls\"]}", "NAME_count: a list");
	check_print(btf, plain_t, rec, 16, BSDK_BTF_JSON, 0, 0,
		    "{\"n\":2,\"text\":\"ls\"}", "no command line: one string");
	check_print(btf, plain_t, rec, 10, BSDK_BTF_JSON, 0, -ERANGE,
		    "{\"n\":2,\"text\":\"ls\"}", "no command line, cut after two: one string");
}

static void test_columns(const struct bsdk_btf *btf)
{
	unsigned char rec[24] = { 0 };
	uint32_t pid = 42, st = 2;
	uint64_t dur = 2500;
	size_t len;
	char *text;
	FILE *f;

	put(rec, 0, &pid, 4);
	memcpy(rec + 4, "cat", 4);
	put(rec, 12, &dur, 8);
	put(rec, 20, &st, 4);
	f = open_memstream(&text, &len);
	check_i64(bsdk_btf_print_header(btf, flat_t, BSDK_BTF_DURATIONS, f), 0, "header");
	fputc('\n', f);
	check_i64(bsdk_btf_print(btf, flat_t, rec, 24, BSDK_BTF_COLUMNS, BSDK_BTF_DURATIONS, f), 0,
		  "columns");
	fclose(f);
	check_str(text,
		  "      pid  comm        dur_ns  st\n"
		  "       42  cat        2.500us  ST_CLOSED",
		  "columns line up under the header");
	free(text);
	f = open_memstream(&text, &len);
	check_i64(bsdk_btf_print_header(btf, event_t, 0, f), -EINVAL, "no columns for nested");
	fclose(f);
	free(text);
}

/* snprintf's contract: what fits and a NUL, the whole length returned. */
static void test_snprint(const struct bsdk_btf *btf)
{
	unsigned char rec[4] = { 80, 0, 0xfd, 0 };	/* port 80, delta -3 */
	char buf[64], small[8];
	int err = 1;

	check_i64(bsdk_btf_snprint(btf, inner_t, rec, 4, BSDK_BTF_JSON, 0, buf, sizeof(buf), &err),
		  22, "snprint: the length");
	check_str(buf, "{\"port\":80,\"delta\":-3}", "snprint: the text");
	check_i64(err, 0, "snprint: no problem");
	check_i64(bsdk_btf_snprint(btf, inner_t, rec, 4, BSDK_BTF_JSON, 0, small, sizeof(small),
				   NULL), 22, "snprint: the whole length when it does not fit");
	check_str(small, "{\"port\"", "snprint: what fits, NUL-terminated");
	check_i64(bsdk_btf_snprint(btf, inner_t, rec, 4, BSDK_BTF_JSON, 0, NULL, 0, NULL), 22,
		  "snprint: a size query");
	check_i64(bsdk_btf_snprint(btf, inner_t, rec, 2, BSDK_BTF_JSON, 0, buf, sizeof(buf), &err),
		  24, "snprint: a short record");
	check_str(buf, "{\"port\":80,\"delta\":null}", "snprint: null past the record");
	check_i64(err, -ERANGE, "snprint: -ERANGE in *err");
}

static void test_info(const struct bsdk_btf *btf)
{
	struct bsdk_btf_info info;

	check_i64(bsdk_btf_find_type(btf, "event"), event_t, "find struct event");
	check_i64(bsdk_btf_find_type(btf, "pid_t"), 10, "find typedef");
	check_i64(bsdk_btf_find_type(btf, "nope"), -ENOENT, "find: none");
	check_i64(bsdk_btf_info(btf, event_t, NULL, &info), 0, "info of a type");
	check_u64(info.size, 60, "info: size");
	check(!info.flat, "event is not flat");
	check_i64(bsdk_btf_info(btf, flat_t, NULL, &info), 0, "info of flat");
	check(info.flat, "flat is flat");
	check_i64(bsdk_btf_info(btf, event_t, "lat_ns", &info), 0, "member lat_ns");
	check_u64(info.offset, 8, "lat_ns offset");
	check_u64(info.size, 8, "lat_ns size");
	check_i64(bsdk_btf_info(btf, event_t, "y", &info), 0, "member of an anonymous union");
	check_u64(info.offset, 56, "y offset");
	check_i64(bsdk_btf_info(btf, event_t, "b", &info), 0, "bitfield");
	check_u64(info.bitfield, 5, "b: 5 bits");
	check(info.is_signed, "b is signed");
	check_i64(bsdk_btf_info(btf, event_t, "comm", &info), 0, "comm");
	check(info.is_string && info.nelems == 8 && info.elem_size == 1, "comm: a string of 8");
	check_i64(bsdk_btf_info(btf, event_t, "zz", &info), -ENOENT, "no such member");
}

/* BTF no compiler writes: the walk ends, the output is valid JSON. */
static void test_hostile(void)
{
	struct bsdk_btf *btf;
	uint32_t u32, loop_a, selfs, huge, zero, empty, big, deep, overflow, toobig, nested;
	unsigned char rec[64];
	char *text;
	size_t size;
	void *raw;

	memset(rec, 0xab, sizeof(rec));
	bb_init(&b);
	u32 = bb_int(&b, "u32", 4, 0);
	loop_a = bb_ref(&b, BTF_KIND_TYPEDEF, "a", loop_a = b.next_id + 1);	/* a -> b -> a */
	bb_ref(&b, BTF_KIND_TYPEDEF, "b", loop_a);
	selfs = bb_struct(&b, "self", 4, 2);	/* holds itself twice */
	bb_member_bits(&b, "me", selfs, 0, 0);
	bb_member_bits(&b, "again", selfs, 0, 0);
	huge = bb_array(&b, u32, u32, 0xffffffff);			/* 16 GiB of u32 */
	empty = bb_struct(&b, "empty", 0, 0);
	zero = bb_array(&b, empty, u32, 0xffffffff);			/* 2^32 nothings */
	big = bb_struct(&b, "big", 4096, 2);	/* past the record */
	bb_member_bits(&b, "x", u32, 0, 0);
	bb_member_bits(&b, "far", u32, 4000 * 8, 0);
	overflow = bb_array(&b, huge, u32, 0xffffffff);			/* size overflows */
	deep = bb_array(&b, zero, u32, 0xffffffff);			/* 2^64 nothings */
	toobig = bb_int(&b, "wide", 32, 0);				/* a 256-bit int */
	nested = bb_union(&b, "nest", 4, 3);	/* 3^depth paths */
	bb_member_bits(&b, "p", nested, 0, 0);
	bb_member_bits(&b, "q", nested, 0, 0);
	bb_member_bits(&b, "r", nested, 0, 0);
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	bb_free(&b);
	if (!check(btf != NULL, "hostile BTF parses"))
		return;

	check_print(btf, loop_a, rec, 4, BSDK_BTF_JSON, 0, -BSDK_EBTF, "null", "typedef loop");
	check_print(btf, selfs, rec, 4, BSDK_BTF_JSON, 0, -BSDK_EBTF, NULL, "struct holds itself");
	check_print(btf, huge, rec, 8, BSDK_BTF_JSON, 0, -ERANGE, "[2880154539,2880154539]",
		    "huge array: stops at the record's end");
	check_print(btf, zero, rec, 8, BSDK_BTF_JSON, 0, -BSDK_EBTF, NULL, "2^32 empty structs");
	check_print(btf, deep, rec, 8, BSDK_BTF_JSON, 0, -BSDK_EBTF, NULL, "2^64 empty structs");
	check_print(btf, overflow, rec, 8, BSDK_BTF_JSON, 0, -ERANGE, "[[2880154539,2880154539]]",
		    "array whose size overflows: what the record holds");
	{
		struct bsdk_btf_info info;

		check_i64(bsdk_btf_info(btf, overflow, NULL, &info), -BSDK_EBTF,
			  "info: an overflowing size is an error");
	}
	check_print(btf, big, rec, 8, BSDK_BTF_JSON, 0, -ERANGE, "{\"x\":2880154539,\"far\":null}",
		    "type larger than the record");
	check_print(btf, big, rec, 0, BSDK_BTF_JSON, 0, -ERANGE, "null", "empty record");
	check_print(btf, toobig, rec, 64, BSDK_BTF_JSON, 0, -BSDK_EBTF, "null", "256-bit int");
	check_print(btf, nested, rec, 4, BSDK_BTF_JSON, 0, -BSDK_EBTF, NULL, "exponential union");
	check_print(btf, 9999, rec, 4, BSDK_BTF_JSON, 0, -BSDK_EBTF, "null", "ID past the last");
	check_print(btf, 0, rec, 4, BSDK_BTF_TEXT, 0, -BSDK_EBTF, "?", "void");
	check_i64(print(btf, u32, NULL, 4, BSDK_BTF_JSON, 0, &text), -EINVAL, "no data");
	free(text);
	check_i64(print(btf, u32, rec, 4, BSDK_BTF_COLUMNS, 0, &text), -EINVAL,
		  "columns of a scalar");
	free(text);
	bsdk_btf_free(btf);
}

/* A member name of 64 KiB in an array of 1024 structs: printed with every
 * element, it would make 64 MiB of output from a 4 KiB record. Its length
 * is paid for, so the output stays near the record's size: cut, closed,
 * valid, and the cut said. */
static void test_long_names(void)
{
	enum { NAME_LEN = 65536, ELEMS = 1024 };
	char *name = malloc(NAME_LEN + 1), *text;
	unsigned char *rec = calloc(ELEMS, 4);
	struct bsdk_btf *btf;
	uint32_t u32, s, arr;
	size_t size, len;
	void *raw;

	if (!name || !rec)
		abort();
	memset(name, 'n', NAME_LEN);
	name[NAME_LEN] = '\0';
	bb_init(&b);
	u32 = bb_int(&b, "u32", 4, 0);
	s = bb_struct(&b, "s", 4, 1);
	bb_member_bits(&b, name, u32, 0, 0);
	arr = bb_array(&b, s, u32, ELEMS);
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	bb_free(&b);
	if (check(btf != NULL, "BTF with a 64 KiB member name parses")) {
		check_i64(print(btf, arr, rec, ELEMS * 4, BSDK_BTF_JSON, 0, &text), -BSDK_EBTF,
			  "long names: the walk is cut");
		len = strlen(text);
		check(len < 4u << 20, "long names: %zu bytes of output for a 4 KiB record, under 4 MiB", len);
		check(json_valid(text, len), "long names: the output is valid JSON");
		free(text);
		bsdk_btf_free(btf);
	}
	free(name);
	free(rec);
}

/* An array of 2^32 empty structs at the deepest level printed, inside 30 to
 * 34 arrays of one: each element is a value too deep to print, and each
 * must still be paid for, or the walk writes "null" 2^32 times (a
 * fuzzer's find: 17 GB from a 662-byte record). */
static void test_deep_elements(void)
{
	unsigned char rec[8] = { 0 };
	struct bsdk_btf *btf;
	uint32_t u32, empty, cur, tops[5];
	size_t size, len;
	char *text;
	void *raw;

	bb_init(&b);
	u32 = bb_int(&b, "u32", 4, 0);
	empty = bb_struct(&b, "empty", 0, 0);
	cur = bb_array(&b, empty, u32, 0xffffffff);
	for (int level = 1; level <= 34; level++) {
		cur = bb_array(&b, cur, u32, 1);
		if (level >= 30)
			tops[level - 30] = cur;
	}
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	bb_free(&b);
	if (!check(btf != NULL, "nested arrays parse"))
		return;
	for (int i = 0; i < 5; i++) {
		check_i64(print(btf, tops[i], rec, sizeof(rec), BSDK_BTF_JSON, 0, &text), -BSDK_EBTF,
			  "2^32 empty structs in %d arrays: the walk is cut", 30 + i);
		len = strlen(text);
		check(len < 1u << 20, "in %d arrays: %zu bytes of output", 30 + i, len);
		check(json_valid(text, len), "in %d arrays: valid JSON", 30 + i);
		free(text);
	}
	bsdk_btf_free(btf);
}

int main(void)
{
	struct bsdk_btf *btf;
	size_t size;
	void *raw;

	build_types();
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	bb_free(&b);
	if (!check(btf != NULL, "test BTF parses"))
		return check_done();
	test_event(btf);
	test_strings(btf);
	test_argv(btf);
	test_columns(btf);
	test_info(btf);
	test_snprint(btf);
	bsdk_btf_free(btf);
	test_hostile();
	test_long_names();
	test_deep_elements();
	return check_done();
}
