// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_kbtf.c - the kernel BTF module: split BTF parsing, the name index, lookups by kind and
 * essential name over a BTF file built here, and (when the host has it) the running kernel's.
 */
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "test_obj_craft.h"
#include "btf_build.h"
#include "object/object.h"
#include "co-re/btf_index.h"
#include "channel/channel.h"
#include "format/btf.h"
#include "co-re/kbtf.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_split(void)
{
	struct bb base, split;
	uint32_t i32, foo, bar, ptr;
	size_t bsize, ssize;
	void *braw, *sraw;
	struct btf *b, *s;
	const struct btf_type *t;

	bb_init(&base);
	i32 = bb_int(&base, "int", 4, BTF_INT_SIGNED);
	foo = bb_struct(&base, "foo", 4, 1);
	bb_member(&base, "a", i32, 0);
	braw = bb_raw(&base, &bsize);
	b = btf_parse(braw, bsize, "base");
	check(b != NULL, "base BTF parses");
	if (!b)
		return;

	bb_init_split(&split, btf_type_count(b), (uint32_t)base.ns);
	bar = bb_struct(&split, "bar", 8, 2);
	bb_member(&split, "f", foo, 0);		/* a base type */
	bb_member(&split, "x", i32, 32);
	ptr = bb_ref(&split, BTF_KIND_PTR, NULL, bar);
	sraw = bb_raw(&split, &ssize);
	s = btf_parse_split(sraw, ssize, b, "split");
	check(s != NULL, "split BTF parses on its base");
	if (s) {
		check_u64(bar, 3, "split type IDs continue after the base's");
		check_u64(btf_first_id(s), 3, "first own ID");
		check_u64(btf_type_count(s), 5, "count includes the base");
		t = btf_type_by_id(s, bar);
		check_str(t ? btf_name(s, t) : "", "bar", "split type's name from its own strings");
		t = btf_type_by_id(s, foo);
		check_str(t ? btf_name(s, t) : "", "foo", "base type through the split BTF");
		check_str(btf_str(s, btf_members(btf_type_by_id(s, bar))[1].name_off), "x",
			  "member name in the split strings");
		check(btf_type_by_id(s, ptr) && btf_type_by_id(s, ptr)->type == bar,
		      "pointer to a split type");
		check(btf_base(s) == b, "btf_base() is the base");
	}
	btf_free(s);
	free(sraw);

	/* A split type that refers past the last ID fails with one message. */
	bb_free(&split);
	bb_init_split(&split, btf_type_count(b), (uint32_t)base.ns);
	bb_ref(&split, BTF_KIND_PTR, NULL, 7);
	sraw = bb_raw(&split, &ssize);
	cap_start();
	s = btf_parse_split(sraw, ssize, b, "split");
	bsdk_set_log(NULL, NULL);
	check(s == NULL, "split BTF with a type ID past the end is refused");
	check_i64(cap.errors, 1, "one error");
	check(strstr(cap.first, "past the last type") != NULL, "it says why: %s", cap.first);
	btf_free(s);
	free(sraw);
	bb_free(&split);

	btf_free(b);
	free(braw);
	bb_free(&base);
}

static void test_file(void)
{
	struct bb b;
	char path[PATH_MAX];
	uint32_t i32, foo, foo2, td, id;
	const struct btf *found, *k;
	struct kbtf_cand *cands = NULL;
	int fd = -1, n;

	bb_init(&b);
	i32 = bb_int(&b, "int", 4, BTF_INT_SIGNED);
	foo = bb_struct(&b, "foo", 4, 1);
	bb_member(&b, "a", i32, 0);
	foo2 = bb_struct(&b, "foo___v2", 8, 1);
	bb_member(&b, "a", i32, 32);
	td = bb_ref(&b, BTF_KIND_TYPEDEF, "foo", foo);	/* same name, other kind */
	bb_union(&b, "foo", 4, 0);
	bb_write_tmp(&b, path, sizeof(path));

	k = kbtf_vmlinux(path);
	check(k != NULL, "kbtf_vmlinux() reads a BTF file");
	check(kbtf_vmlinux(path) == k, "a second call returns the same BTF");
	check_i64(kbtf_find(path, "foo", BTF_KIND_STRUCT, &found, &id, &fd), 0, "find struct foo");
	check_u64(id, foo, "struct foo's ID");
	check(found == k && fd == 0, "found in vmlinux, fd 0");
	check_i64(kbtf_find(path, "foo", BTF_KIND_TYPEDEF, NULL, &id, NULL), 0, "find typedef foo");
	check_u64(id, td, "typedef foo's ID");
	check_i64(kbtf_find(path, "foo___v2", BTF_KIND_STRUCT, NULL, &id, NULL), 0,
		  "a flavoured name is found by its full name");
	check_u64(id, foo2, "foo___v2's ID");
	check_i64(kbtf_find(path, "foo", BTF_KIND_ENUM, NULL, NULL, NULL), -ENOENT,
		  "no enum foo: -ENOENT");
	check_i64(kbtf_find(path, "fo", BTF_KIND_STRUCT, NULL, NULL, NULL), -ENOENT,
		  "a prefix is not a match");

	n = kbtf_candidates(path, "foo___mine", btf_essential_len("foo___mine"),
			    BTF_KIND_STRUCT, &cands);
	check_i64(n, 2, "two struct candidates for foo___mine");
	if (n == 2)
		check(cands[0].id + cands[1].id == foo + foo2, "they are foo and foo___v2");
	free(cands);
	check_u64(btf_essential_len("task_struct___old"), 11, "essential length");
	check_u64(btf_essential_len("a__b"), 4, "two underscores are not a flavour");
	unlink(path);
	bb_free(&b);

	/* A file that is not there: NULL, errno, one message naming it. */
	cap_start();
	errno = 0;
	k = kbtf_vmlinux("/nonexistent/vmlinux");
	n = errno;
	bsdk_set_log(NULL, NULL);
	check(k == NULL, "a missing BTF file gives NULL");
	check_i64(n, ENOENT, "errno ENOENT");
	check_i64(cap.errors, 1, "one error");
	check(strstr(cap.first, "/nonexistent/vmlinux") != NULL, "it names the file: %s", cap.first);

	/* Not BTF at all. */
	snprintf(path, sizeof(path), "%s/bpfsdk-btf-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	check(fd >= 0 && write(fd, "not btf at all, really not", 26) == 26, "write a junk file");
	close(fd);
	cap_start();
	k = kbtf_vmlinux(path);
	bsdk_set_log(NULL, NULL);
	check(k == NULL, "junk is refused");
	check_i64(cap.errors, 1, "one error: %s", cap.first);
	unlink(path);
}

static void test_vmlinux(void)
{
	const struct btf *k;
	uint32_t id;
	double t0;

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		check_diag("no /sys/kernel/btf/vmlinux here: skipping the running kernel's BTF");
		return;
	}
	t0 = now_s();
	k = kbtf_vmlinux(NULL);
	check(k != NULL, "the running kernel's BTF parses");
	if (!k)
		return;
	check_diag("vmlinux BTF: %u types, read and parsed in %.1f ms", btf_type_count(k) - 1,
		   (now_s() - t0) * 1e3);
	check(kbtf_vmlinux(NULL) == k, "parsed once");
	check_i64(kbtf_find(NULL, "task_struct", BTF_KIND_STRUCT, NULL, &id, NULL), 0,
		  "struct task_struct is there");
	check_str(btf_name(k, btf_type_by_id(k, id)), "task_struct", "by the ID found");
	check_i64(kbtf_find(NULL, "do_sys_openat2", BTF_KIND_FUNC, NULL, NULL, NULL), 0,
		  "FUNC do_sys_openat2");
	check_i64(kbtf_find(NULL, "no_such_type_anywhere", BTF_KIND_STRUCT, NULL, NULL, NULL),
		  -ENOENT, "an unknown name, modules searched too: -ENOENT");
}

/* bsdk_obj_open_opts: sizes older and newer than this library's, and a btf_path that fails. */
static void test_open_opts(void)
{
	struct img im = img_read("co_re_flavour");
	struct {
		struct bsdk_obj_open_opts o;
		uint64_t future;	/* a field a newer library might have */
	} big = { { .sz = sizeof(big) }, 0 };
	struct bsdk_obj_open_opts small = { .sz = 4 };
	struct bsdk_obj *obj;
	int err;

	obj = bsdk_obj_open_mem_opts(im.buf, im.size, "opts", NULL);
	check(obj != NULL, "NULL options are the defaults");
	bsdk_obj_close(obj);
	obj = bsdk_obj_open_mem_opts(im.buf, im.size, "opts", &big.o);
	check(obj != NULL, "a larger struct whose extra bytes are zero is accepted");
	bsdk_obj_close(obj);
	big.future = 1;
	cap_start();
	obj = bsdk_obj_open_mem_opts(im.buf, im.size, "opts", &big.o);
	err = errno;
	bsdk_set_log(NULL, NULL);
	check(obj == NULL && err == EINVAL, "a field this library does not know, set: EINVAL");
	check_i64(cap.errors, 1, "one error: %s", cap.first);
	cap_start();
	obj = bsdk_obj_open_mem_opts(im.buf, im.size, "opts", &small);
	err = errno;
	bsdk_set_log(NULL, NULL);
	check(obj == NULL && err == EINVAL, "sz smaller than the first version: EINVAL");
	check_i64(cap.errors, 1, "one error: %s", cap.first);
	cap_start();
	obj = bsdk_obj_open_mem_opts(im.buf, im.size, "opts", &(struct bsdk_obj_open_opts){
		.sz = sizeof(struct bsdk_obj_open_opts), .btf_path = "/nonexistent/btf" });
	err = errno;
	bsdk_set_log(NULL, NULL);
	check(obj == NULL && err == ENOENT, "a btf_path that is not there fails the open: ENOENT");
	check_i64(cap.errors, 1, "one error: %s", cap.first);
	free(im.buf);
}

int main(void)
{
	test_split();
	test_file();
	test_vmlinux();
	test_open_opts();
	kbtf_release();
	return check_done();
}
