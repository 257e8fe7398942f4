// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * skel_driver - a program built on the skeleton the build generates from
 * tests/bpf/skel_types.bpf.o, for tests/bats/cli_gen.bats.
 *
 *   skel_driver [--object PATH] [--dump FILE]
 *
 * Opens the embedded object (or PATH), prints the initial values the
 * skeleton shows, sets .rodata knobs through skel->rodata, loads, attaches,
 * makes four getppid() calls and prints what the program counted in .bss;
 * then changes a .data value after load and shows the program saw it.
 * --dump FILE writes the embedded object's bytes to FILE and exits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>

#include "../bpf/skel_types.h"
#include "tests/skel_types.skel.h"

static int dump(const char *path)
{
	size_t size;
	const void *bytes = skel_types_bpf__elf_bytes(&size);
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(bytes, 1, size, f) != size || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct skel_types_bpf *skel;
	int err;

	if (argc == 3 && strcmp(argv[1], "--dump") == 0)
		return dump(argv[2]);
	skel = argc == 3 && strcmp(argv[1], "--object") == 0 ?
	       skel_types_bpf__open_file(argv[2]) : skel_types_bpf__open();
	if (!skel) {
		fprintf(stderr, "open failed: %s\n", strerror(errno));
		return 1;
	}
	printf("before load: small=%u big=0x%llx label=%s cookie=0x%llx typed=%u color=%u pair=%u,%u anon=%u,%u,%u,%llu matrix=%u\n",
	       skel->rodata->small, (unsigned long long)skel->rodata->big, skel->rodata->label,
	       (unsigned long long)skel->data->cookie, skel->data->typed, skel->data->color,
	       skel->data->pair.x, skel->data->pair.y, skel->data->anon.a, skel->data->anon.b,
	       skel->data->anon.c, (unsigned long long)skel->data->anon.d, skel->data->matrix[1][2]);
	skel->rodata->target_pid = (__u32)getpid();
	skel->rodata->small = 10;
	if (skel_types_bpf__load(skel)) {
		fprintf(stderr, "load failed: %s\n", strerror(errno));
		skel_types_bpf__destroy(skel);
		return 1;
	}
	err = skel_types_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "attach failed: %s\n", strerror(-err));
		skel_types_bpf__destroy(skel);
		return 1;
	}
	printf("attached %d\n", bsdk_obj_attached_count(skel->obj));
	for (int i = 0; i < 4; i++)
		syscall(SYS_getppid);
	printf("after 4: hits=%llu seen_cookie=0x%llx seen_sum=%llu small=%u\n",
	       (unsigned long long)skel->bss->hits, (unsigned long long)skel->bss->seen_cookie,
	       (unsigned long long)skel->bss->seen_sum, skel->rodata->small);
	skel->data->cookie = 0xabc;
	syscall(SYS_getppid);
	printf("after 5: hits=%llu seen_cookie=0x%llx\n", (unsigned long long)skel->bss->hits,
	       (unsigned long long)skel->bss->seen_cookie);
	skel_types_bpf__destroy(skel);
	return 0;
}
