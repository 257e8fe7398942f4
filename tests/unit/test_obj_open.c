// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_open.c - bsdk_obj_open() on what is not an object: the errno it
 * returns is the one of this failure, never one left over from an earlier
 * call, with one error message; and a file that is not ELF is refused.
 * And bsdk_strerror() names the kernel's errno libc does not know.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "test_obj_craft.h"

/* Open path with errno set to a value no failure here would give. */
static void expect_errno(const char *path, int err, const char *what, const char *needle)
{
	struct bsdk_obj *obj;
	int got;

	cap_start();
	errno = ERANGE;
	obj = bsdk_obj_open(path);
	got = errno;
	bsdk_set_log(NULL, NULL);
	check(obj == NULL, "%s: open fails", what);
	check_i64(got, err, "%s: errno is %s", what, bsdk_strerror(err));
	check_i64(cap.errors, 1, "%s: one error message", what);
	check_diag("    error: %s", cap.first);
	if (needle)
		check(strstr(cap.first, needle) != NULL, "%s: it says '%s'", what, needle);
	bsdk_obj_close(obj);
}

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

int main(void)
{
	char dir[] = "/tmp/test_obj_open.XXXXXX", path[4096];
	struct img im = img_read("obj_basic");
	struct bsdk_obj *obj;

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/missing.o", dir);
	expect_errno(path, ENOENT, "a file that does not exist", "cannot open");
	expect_errno(dir, EISDIR, "a directory", "not a regular file");
	expect_errno("/dev/null", EINVAL, "a character device", "not a regular file");

	snprintf(path, sizeof(path), "%s/fifo", dir);
	if (mkfifo(path, 0600) == 0) {
		/* O_RDONLY on a FIFO would wait for a writer: give it one */
		int w = open(path, O_RDWR | O_NONBLOCK);

		expect_errno(path, EINVAL, "a FIFO", "not a regular file");
		close(w);
		unlink(path);
	}

	snprintf(path, sizeof(path), "%s/empty.o", dir);
	write_file(path, "", 0);
	expect_errno(path, BSDK_EFORMAT, "an empty file", "empty object");
	unlink(path);

	snprintf(path, sizeof(path), "%s/text.o", dir);
	write_file(path, "#!/bin/sh\necho not an object\n", 29);
	expect_errno(path, BSDK_EFORMAT, "a shell script", "not an ELF file");
	write_file(path, "\177EL", 3);
	expect_errno(path, BSDK_EFORMAT, "three bytes of the ELF magic", "not an ELF file");
	/* the magic, then nothing: read once, and libelf finds no header */
	write_file(path, "\177ELF", 4);
	expect_errno(path, BSDK_EFORMAT, "the ELF magic alone", NULL);

	/* a real object, read from a file: the same as from memory */
	write_file(path, im.buf, im.size);
	errno = 0;
	obj = bsdk_obj_open(path);
	if (check(obj != NULL, "obj_basic opens from a file (%s)", strerror(errno)))
		check(bsdk_obj_map_find(obj, "counts") != NULL, "with its map 'counts'");
	bsdk_obj_close(obj);
	unlink(path);
	rmdir(dir);
	free(im.buf);

	/* The kernel's own ENOTSUPP (an arm64 kernel before 6.4 refuses a
	 * trampoline with it) is not in libc's table: named, either sign. */
	check(strcmp(bsdk_strerror(-524), "Operation not supported by this kernel (its ENOTSUPP, 524)") == 0,
	      "bsdk_strerror(-524) names the kernel's ENOTSUPP: %s", bsdk_strerror(-524));
	check(strcmp(bsdk_strerror(524), bsdk_strerror(-524)) == 0, "and so does bsdk_strerror(524)");
	check(strcmp(bsdk_strerror(ENOENT), strerror(ENOENT)) == 0, "ENOENT is libc's text");
	return check_done();
}
