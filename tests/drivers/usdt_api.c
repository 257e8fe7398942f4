// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * usdt_api - bsdk_prog_attach_usdt(), for tests/bats/usdt.bats.
 *
 *   usdt_api OBJECT
 *
 * Loads OBJECT (build/bpf/tests/usdt_api.bpf.o), attaches its target-less
 * "usdt" program to this binary's own probe bpfsdk_api:fired in this
 * process only, with cookie 0x5eed, fires the probe three times with the
 * argument 1000 + i, and prints what the program saw:
 *
 *   count N  cookie C  arg A     (the last argument)
 *   bad-args ok|FAILED           the call refuses a NULL provider
 *
 * then destroys the link, fires once more and prints "after-destroy N".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/sdt.h>

#include "bpfsdk.h"

__attribute__((noinline)) static void fire(long v)
{
	DTRACE_PROBE1(bpfsdk_api, fired, v);
	__asm__ __volatile__("" ::: "memory");
}

static long global(const struct bsdk_obj *obj, const char *name)
{
	volatile long *p = bsdk_obj_global_ptr(obj, name, NULL);

	return p ? *p : -1;
}

int main(int argc, char **argv)
{
	struct bsdk_link *link;
	struct bsdk_prog *prog;
	struct bsdk_obj *obj;
	char self[4096];
	ssize_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: usdt_api OBJECT\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	obj = bsdk_obj_open(argv[1]);
	if (!obj || bsdk_obj_load(obj))
		return 1;
	prog = bsdk_obj_prog_find(obj, "on_api_probe");
	if (!prog)
		return 1;
	errno = 0;
	link = bsdk_prog_attach_usdt(prog, getpid(), self, NULL, "fired", 0);
	printf("bad-args %s\n", !link && errno == EINVAL ? "ok" : "FAILED");
	link = bsdk_prog_attach_usdt(prog, getpid(), self, "bpfsdk_api", "fired", 0x5eed);
	if (!link)
		return 1;
	for (long i = 1; i <= 3; i++)
		fire(1000 + i);
	printf("count %ld cookie %#lx arg %ld\n", global(obj, "seen_count"),
	       global(obj, "seen_cookie"), global(obj, "seen_arg"));
	bsdk_link_destroy(link);
	fire(2000);
	printf("after-destroy %ld\n", global(obj, "seen_count"));
	bsdk_obj_close(obj);
	return 0;
}
