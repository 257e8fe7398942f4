/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * test_obj_craft.h - what the loader's unit tests share: read a BPF object
 * the build compiled, find its sections and symbols in the raw bytes so a
 * test can break exactly one thing, capture the library's messages, and
 * check that opening the broken object fails the right way.
 *
 * Objects come from $BUILD/bpf/tests/NAME.bpf.o; tests/run exports BUILD,
 * and a test started by hand from the top of the tree falls back to build/.
 */
#ifndef BPFSDK_TEST_OBJ_CRAFT_H
#define BPFSDK_TEST_OBJ_CRAFT_H

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "check.h"

/* A whole object file in memory, to be mutated. */
struct img {
	unsigned char *buf;
	size_t size;
};

/* ---- reading objects ---- */

static const char *craft_build_dir(void)
{
	const char *b = getenv("BUILD");

	return b && *b ? b : "build";
}

/* Read $BUILD/bpf/tests/NAME.bpf.o; exits the test (as a failure) when it
 * is missing, since nothing else could be checked. */
__attribute__((unused))
static struct img img_read(const char *name)
{
	char path[4096];
	struct img im = { 0 };
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/bpf/tests/%s.bpf.o", craft_build_dir(), name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) || !(im.buf = malloc((size_t)n)) ||
	    fread(im.buf, 1, (size_t)n, f) != (size_t)n) {
		printf("not ok 1 - read '%s' (run make first; BUILD=%s)\n1..1\n",
		       path, craft_build_dir());
		exit(1);
	}
	fclose(f);
	im.size = (size_t)n;
	return im;
}

__attribute__((unused))
static struct img img_copy(const struct img *im)
{
	struct img c = { malloc(im->size), im->size };

	if (!c.buf)
		abort();
	memcpy(c.buf, im->buf, im->size);
	return c;
}

/* ---- finding things in the raw bytes (trusted: the build made them) ---- */

static Elf64_Ehdr *img_ehdr(const struct img *im)
{
	return (Elf64_Ehdr *)im->buf;
}

static Elf64_Shdr *img_shdr(const struct img *im, size_t i)
{
	return (Elf64_Shdr *)(im->buf + img_ehdr(im)->e_shoff) + i;
}

static char *img_sec_name(const struct img *im, const Elf64_Shdr *sh)
{
	const Elf64_Shdr *names = img_shdr(im, img_ehdr(im)->e_shstrndx);

	return (char *)im->buf + names->sh_offset + sh->sh_name;
}

/* The first section whose name starts with prefix; its index in *idx. */
__attribute__((unused))
static Elf64_Shdr *img_sec(const struct img *im, const char *prefix,
			   size_t *idx)
{
	for (size_t i = 1; i < img_ehdr(im)->e_shnum; i++) {
		Elf64_Shdr *sh = img_shdr(im, i);

		if (strncmp(img_sec_name(im, sh), prefix, strlen(prefix)) == 0) {
			if (idx)
				*idx = i;
			return sh;
		}
	}
	printf("# test object has no section '%s'\n", prefix);
	abort();
}

/* The first section of type type. */
__attribute__((unused))
static Elf64_Shdr *img_sec_type(const struct img *im, uint32_t type)
{
	for (size_t i = 1; i < img_ehdr(im)->e_shnum; i++)
		if (img_shdr(im, i)->sh_type == type)
			return img_shdr(im, i);
	abort();
}

__attribute__((unused))
static void *img_data(const struct img *im, const Elf64_Shdr *sh)
{
	return im->buf + sh->sh_offset;
}

/* The SHT_REL section that relocates the section named prefix... */
__attribute__((unused))
static Elf64_Shdr *img_rel_for(const struct img *im, const char *prefix)
{
	size_t target;

	img_sec(im, prefix, &target);
	for (size_t i = 1; i < img_ehdr(im)->e_shnum; i++) {
		Elf64_Shdr *sh = img_shdr(im, i);

		if (sh->sh_type == SHT_REL && sh->sh_info == target)
			return sh;
	}
	abort();
}

/* The symbol named name. */
__attribute__((unused))
static Elf64_Sym *img_sym(const struct img *im, const char *name, size_t *idx)
{
	Elf64_Shdr *st = img_sec_type(im, SHT_SYMTAB);
	Elf64_Shdr *strs = img_shdr(im, st->sh_link);
	Elf64_Sym *syms = img_data(im, st);

	for (size_t i = 0; i < st->sh_size / sizeof(*syms); i++) {
		if (strcmp((const char *)im->buf + strs->sh_offset + syms[i].st_name,
			   name) == 0) {
			if (idx)
				*idx = i;
			return &syms[i];
		}
	}
	printf("# test object has no symbol '%s'\n", name);
	abort();
}

/* ---- the library's messages ---- */

struct logcap {
	int errors, warnings;
	char first[1024];	/* the first error */
	char all[16384];	/* every message, one per line */
};

static struct logcap cap;

static void cap_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	size_t len = strlen(cap.all);

	(void)ctx;
	if (level == BSDK_LOG_ERROR && cap.errors++ == 0)
		snprintf(cap.first, sizeof(cap.first), "%s", msg);
	if (level == BSDK_LOG_WARN)
		cap.warnings++;
	snprintf(cap.all + len, sizeof(cap.all) - len, "%s\n", msg);
}

__attribute__((unused))
static void cap_start(void)
{
	memset(&cap, 0, sizeof(cap));
	bsdk_set_log(cap_log, NULL);
	bsdk_set_log_level(BSDK_LOG_WARN);
}

/* ---- the check every malformed object goes through ---- */

/* Opening im must fail with errno err, log exactly one error (containing
 * needle, when not NULL), and leave nothing behind (the ASan build checks
 * the last part). im is freed. */
__attribute__((unused))
static void expect_open_fails(struct img *im, int err, const char *what,
			      const char *needle)
{
	struct bsdk_obj *obj;
	int got;

	cap_start();
	errno = 0;
	obj = bsdk_obj_open_mem(im->buf, im->size, what);
	got = errno;
	bsdk_set_log(NULL, NULL);
	check(obj == NULL, "%s: open fails", what);
	check_i64(got, err, "%s: errno is %s", what, bsdk_strerror(err));
	check_i64(cap.errors, 1, "%s: exactly one error message", what);
	check_diag("    error: %s", cap.first);
	if (needle)
		check(strstr(cap.first, needle) != NULL,
		      "%s: the message says '%s'", what, needle);
	bsdk_obj_close(obj);
	free(im->buf);
	im->buf = NULL;
}

/* ---- what the kernel says of a map ---- */

/* BPF_OBJ_GET_INFO_BY_FD of map fd into *info: 0, or -1 with errno. */
__attribute__((unused))
static int craft_map_info(int fd, struct bpf_map_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uint64_t)(uintptr_t)info;
	return (int)syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

/* ---- whether bpf() works here (root, BPF enabled) ---- */

__attribute__((unused))
static int craft_bpf_usable(void)
{
	/* BPF_PROG_LOAD with nothing: EINVAL when allowed, EPERM when not */
	long r = syscall(__NR_bpf, 5 /* BPF_PROG_LOAD */, NULL, 0);

	return !(r < 0 && (errno == EPERM || errno == ENOSYS));
}

/* The start of a test on the kernel: skip the whole test (exit 0) where bpf() is not
 * permitted, else open $BUILD/bpf/tests/NAME.bpf.o, checked; NULL when it did not open. */
__attribute__((unused))
static struct bsdk_obj *craft_open_for_kernel(const char *name)
{
	struct bsdk_obj *obj;
	struct img im;

	if (!craft_bpf_usable()) {
		printf("ok 1 # skip bpf() not permitted\n1..1\n");
		exit(0);
	}
	im = img_read(name);
	obj = bsdk_obj_open_mem(im.buf, im.size, name);
	free(im.buf);
	check(obj != NULL, "open %s", name);
	return obj;
}

#endif /* BPFSDK_TEST_OBJ_CRAFT_H */
