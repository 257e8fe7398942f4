// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_btf_decl.c - bsdk_btf_c_decl(), the C declarations `bpfsdk gen
 * skeleton` writes, over BTF built here: the types clang writes, and names
 * no compiler writes, which go into a header users compile and so must not
 * come out as they are (an integer called "int; x", a struct tag or member
 * that is a keyword or no identifier).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bpfsdk.h"
#include "check.h"
#include "btf_build.h"

static void check_decl(const struct bsdk_btf *btf, uint32_t id, const char *name,
		       const char *want, const char *what)
{
	char buf[256];
	int n = bsdk_btf_c_decl(btf, id, name, buf, sizeof(buf));

	if (!want) {
		check_i64(n, -BSDK_EBTF, "%s: no declaration", what);
		return;
	}
	check(n == (int)strlen(want), "%s: length %d", what, n);
	check_str(buf, want, "%s", what);
}

int main(void)
{
	struct bb b;
	struct bsdk_btf *btf;
	uint32_t i32, u64, lui, odd, bad_int, arr, tag_kw, tag_bad, anon, anon_kw, vol;
	size_t size;
	void *raw;

	bb_init(&b);
	i32 = bb_int(&b, "int", 4, BTF_INT_SIGNED);
	u64 = bb_int(&b, "long long unsigned int", 8, 0);
	lui = bb_int(&b, "long unsigned int", 8, 0);
	odd = bb_int(&b, "int", 8, BTF_INT_SIGNED);		/* "int" of 8 bytes */
	bad_int = bb_int(&b, "int; void evil(void)", 4, 0);	/* a name no compiler writes */
	arr = bb_array(&b, i32, i32, 3);
	tag_kw = bb_struct(&b, "long", 4, 1);			/* struct tag: a keyword */
	bb_member(&b, "x", i32, 0);
	tag_bad = bb_struct(&b, "a\"b", 4, 1);			/* struct tag: no identifier */
	bb_member(&b, "x", i32, 0);
	anon = bb_struct(&b, NULL, 12, 2);
	bb_member(&b, "a", i32, 0);
	bb_member(&b, "b", u64, 32);
	anon_kw = bb_struct(&b, NULL, 4, 1);			/* a member called 'for' */
	bb_member(&b, "for", i32, 0);
	vol = bb_ref(&b, BTF_KIND_VOLATILE, NULL, arr);
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	if (!check(btf != NULL, "the BTF parses"))
		return check_done();

	check_decl(btf, i32, "n", "int n", "an int keeps its name");
	check_decl(btf, u64, "n", "long long unsigned int n", "clang's long long keeps its name");
	check_decl(btf, lui, "n", sizeof(long) == 8 ? "long unsigned int n" : "__u64 n",
		   "long is 8 bytes where long is");
	check_decl(btf, odd, "n", "__s64 n", "an 8-byte 'int' is a __s64");
	check_decl(btf, bad_int, "n", "__u32 n", "an integer named like code is a __u32");
	check_decl(btf, vol, "v", "int v[3]", "qualifiers dropped, the array kept");
	check_decl(btf, anon, "s", "struct { int a; long long unsigned int b; } s",
		   "an anonymous struct written out");
	check_decl(btf, i32, "int", NULL, "a variable called 'int'");
	check_decl(btf, i32, "a b", NULL, "a variable called 'a b'");
	check_decl(btf, tag_kw, "s", NULL, "struct long");
	check_decl(btf, tag_bad, "s", NULL, "a struct tag with a quote");
	check_decl(btf, anon_kw, "s", NULL, "a member called 'for'");

	bsdk_btf_free(btf);
	free(raw);
	bb_free(&b);
	return check_done();
}
