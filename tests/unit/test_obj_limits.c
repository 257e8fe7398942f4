// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_limits.c - limits that hold for the whole object, the
 * accessors that must take NULL like their siblings, and what a load
 * leaves behind in bpffs: nothing when it fails, and never a pin outside
 * /sys/fs/bpf/NAME, whatever name the object gives its map.
 */
#include <sys/stat.h>
#include <sys/vfs.h>

#include "test_obj_craft.h"

#define PIN "/sys/fs/bpf/bsdk_test_pinned"
#define BPF_FS_MAGIC 0xcafe4a11

static void test_data_cap(void)
{
	struct img base = img_read("obj_basic"), im;
	struct bsdk_obj *obj;

	/* .bss of 200 MB alone is fine */
	im = img_copy(&base);
	img_sec(&im, ".bss", NULL)->sh_size = 200u << 20;
	obj = bsdk_obj_open_mem(im.buf, im.size, "200 MB of .bss");
	check(obj != NULL, "200 MB of .bss opens");
	bsdk_obj_close(obj);
	free(im.buf);

	/* and 100 MB more of .data, each under the cap, are not */
	im = img_copy(&base);
	img_sec(&im, ".bss", NULL)->sh_size = 200u << 20;
	img_sec(&im, ".data", NULL)->sh_type = SHT_NOBITS;
	img_sec(&im, ".data", NULL)->sh_size = 100u << 20;
	expect_open_fails(&im, E2BIG, "300 MB of .data and .bss",
			  "more than the 268435456 this loader takes");
	free(base.buf);
}

static void test_null(void)
{
	errno = 0;
	check_i64(bsdk_perfbuf_timeout_ms(NULL), -EINVAL, "bsdk_perfbuf_timeout_ms(NULL)");
	check_i64(errno, EINVAL, "sets errno");
	check_i64(bsdk_ringbuf_timeout_ms(NULL), -EINVAL, "bsdk_ringbuf_timeout_ms(NULL)");
	check_i64(bsdk_perfbuf_epoll_fd(NULL), -EINVAL, "bsdk_perfbuf_epoll_fd(NULL), its sibling");
	check_i64(bsdk_obj_unpin(NULL), 0, "bsdk_obj_unpin(NULL)");
}

/* A load that fails (the program is rejected) removes the pin it made. */
static void test_failed_load_unpins(void)
{
	struct img im = img_read("obj_pin");
	Elf64_Shdr *sh = img_sec(&im, "tracepoint/", NULL);
	struct bsdk_obj *obj;
	struct stat st;
	int err;

	unlink(PIN);
	((unsigned char *)img_data(&im, sh))[0] = 0xff;	/* no such opcode */
	obj = bsdk_obj_open_mem(im.buf, im.size, "obj_pin, broken");
	free(im.buf);
	if (!check(obj != NULL, "the broken obj_pin opens"))
		return;
	cap_start();
	err = bsdk_obj_load(obj);
	bsdk_set_log(NULL, NULL);
	check(err < 0, "its load fails (%d)", err);
	check(stat(PIN, &st) < 0 && errno == ENOENT, "and leaves no pin at " PIN);
	bsdk_obj_close(obj);

	/* A pin it reused is not its own: a good load makes the pin, the
	 * broken one reuses it, fails, and leaves it. */
	im = img_read("obj_pin");
	obj = bsdk_obj_open_mem(im.buf, im.size, "obj_pin");
	check(obj && bsdk_obj_load(obj) == 0 && stat(PIN, &st) == 0, "a good load pins " PIN);
	bsdk_obj_close(obj);	/* the pin outlives the object */
	((unsigned char *)img_data(&im, img_sec(&im, "tracepoint/", NULL)))[0] = 0xff;
	obj = bsdk_obj_open_mem(im.buf, im.size, "obj_pin, broken");
	free(im.buf);
	cap_start();
	bsdk_set_log_level(BSDK_LOG_INFO);
	err = obj ? bsdk_obj_load(obj) : -1;
	bsdk_set_log(NULL, NULL);
	bsdk_set_log_level(BSDK_LOG_WARN);
	check(err < 0, "the broken load that reuses it fails");
	check(strstr(cap.all, "reusing the map pinned at '" PIN "'") != NULL, "it did reuse the pin");
	check(stat(PIN, &st) == 0, "and leaves the pin it reused");
	bsdk_obj_close(obj);
	unlink(PIN);
}

/* The map's name in the BTF becomes "../bpf/bsdk_pwn1": the kernel refuses
 * that BTF (not an identifier), so nothing but the loader checks it. */
static void test_pin_name(void)
{
	struct img im = img_read("obj_pin");
	Elf64_Shdr *sh = img_sec(&im, ".BTF", NULL);
	char *p = img_data(&im, sh), *end = p + sh->sh_size;
	struct bsdk_obj *obj;
	struct stat st;
	int err;

	while (p < end && !(p[-1] == '\0' && strcmp(p, "bsdk_test_pinned") == 0))
		p++;
	if (!check(p < end, "the map's name is in the BTF strings"))
		return;
	memcpy(p, "../bpf/bsdk_pwn1", 16);	/* as long as the name */
	unlink("/sys/fs/bpf/bsdk_pwn1");
	obj = bsdk_obj_open_mem(im.buf, im.size, "obj_pin, renamed");
	free(im.buf);
	if (!check(obj != NULL, "the renamed obj_pin opens"))
		return;
	cap_start();
	err = bsdk_obj_load(obj);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EINVAL, "its load fails with EINVAL");
	check(strstr(cap.all, "map '../bpf/bsdk_pwn1': cannot be pinned by name: its name is not a C identifier") != NULL,
	      "saying the name cannot be pinned");
	check_diag("    %s", cap.all);
	check(stat("/sys/fs/bpf/bsdk_pwn1", &st) < 0, "no pin at /sys/fs/bpf/bsdk_pwn1");
	bsdk_obj_close(obj);
	unlink("/sys/fs/bpf/bsdk_pwn1");
}

int main(void)
{
	struct statfs fs;

	test_data_cap();
	test_null();
	if (!craft_bpf_usable() || statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC) {
		printf("# skipped the pin tests: bpf() not permitted or no bpffs at /sys/fs/bpf\n");
		return check_done();
	}
	test_failed_load_unpins();
	test_pin_name();
	return check_done();
}
