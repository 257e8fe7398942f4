// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_syms.c - bsdk_syms_lookup() names this program's own functions, in
 * this (position-independent) executable and in libc, a kernel function
 * from /proc/kallsyms, and says ENOENT and ESRCH where it cannot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "check.h"
#include "bpfsdk.h"

/* Global and not inlined: a symbol of its own in .symtab. */
__attribute__((noinline)) int test_syms_marker(int x);

int test_syms_marker(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static void check_name(struct bsdk_syms *s, int pid, uint64_t addr, const char *want,
		       uint64_t want_off, const char *what)
{
	uint64_t off = ~0ULL;
	const char *name = bsdk_syms_lookup(s, pid, addr, &off);

	check_str(name ? name : "(null)", want, "%s: name", what);
	check_u64(off, want_off, "%s: offset", what);
}

int main(void)
{
	struct bsdk_syms *s = bsdk_syms_new();
	uint64_t marker = (uint64_t)(uintptr_t)&test_syms_marker;
	uint64_t off;
	pid_t child;
	FILE *f;
	char line[256];

	check(s != NULL, "bsdk_syms_new");
	check_name(s, getpid(), marker, "test_syms_marker", 0, "own function");
	check_name(s, getpid(), marker + 3, "test_syms_marker", 3, "inside own function");
	check_name(s, getpid(), (uint64_t)(uintptr_t)&getpid, "getpid", 0, "libc function");

	errno = 0;
	check(bsdk_syms_lookup(s, getpid(), 16, &off) == NULL && errno == ENOENT,
	      "an address in no mapping: NULL, ENOENT");

	/* A process that is gone. */
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	errno = 0;
	check(bsdk_syms_lookup(s, child, marker, &off) == NULL && errno == ESRCH,
	      "a process that exited: NULL, ESRCH");

	/* The kernel: the address /proc/kallsyms gives for a function must
	 * come back as that function (when we may see addresses at all). */
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[128];

		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 && addr &&
		    strcmp(name, "schedule") == 0) {
			check_name(s, 0, addr, "schedule", 0, "kernel function");
			check_name(s, 0, addr + 1, "schedule", 1, "inside kernel function");
			break;
		}
	}
	if (f)
		fclose(f);
	bsdk_syms_free(s);
	return check_done();
}
