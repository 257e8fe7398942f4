// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_syms.c - bsdk_syms_lookup() names this program's own functions, in
 * this (position-independent) executable and in libc, a kernel function
 * from /proc/kallsyms, and says ENOENT and ESRCH where it cannot;
 * bsdk_syms_source() gives this file and the marker's line (the test is
 * built with -g), bsdk_syms_inlined() the marker alone; a name outlives the process cache's dropping its
 * process, and comes back as the same kept string.
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

enum { MARKER_FIRST = __LINE__ + 1, MARKER_LAST = __LINE__ + 5 };
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
	const char *file, *kept;
	uint64_t off;
	pid_t child;
	FILE *f;
	char buf[256];
	struct bsdk_sym_frame frames[4];
	int line, gone = 0, n;

	check(s != NULL, "bsdk_syms_new");
	check_name(s, getpid(), marker, "test_syms_marker", 0, "own function");
	check_name(s, getpid(), marker + 3, "test_syms_marker", 3, "inside own function");
	check_name(s, getpid(), (uint64_t)(uintptr_t)&getpid, "getpid", 0, "libc function");

	errno = 0;
	check(bsdk_syms_lookup(s, getpid(), 16, &off) == NULL && errno == ENOENT,
	      "an address in no mapping: NULL, ENOENT");

	/* The source line, from this test's DWARF. */
	file = NULL;
	line = 0;
	check(bsdk_syms_source(s, getpid(), marker + 3, &file, &line) == 0, "source: found");
	check(file && strlen(file) >= 11 && strcmp(file + strlen(file) - 11, "test_syms.c") == 0,
	      "source: the file is test_syms.c (%s)", file ? file : "(null)");
	check(line >= MARKER_FIRST && line <= MARKER_LAST, "source: line %d in %d-%d", line,
	      MARKER_FIRST, MARKER_LAST);
	check(bsdk_syms_source(s, getpid(), 16, &file, &line) == -ENOENT,
	      "source of an address in no mapping: -ENOENT");
	check(bsdk_syms_source(s, 0, marker, &file, &line) == -ENOENT, "source in the kernel: -ENOENT");

	/* Nothing inlined at the marker: one frame, itself, at its line. */
	n = bsdk_syms_inlined(s, getpid(), marker + 3, frames, 4);
	check(n == 1, "inlined: one function at the marker (%d)", n);
	check(n >= 1 && frames[0].name && strcmp(frames[0].name, "test_syms_marker") == 0 &&
	      frames[0].file == file && frames[0].line == line,
	      "inlined: the marker, at the line bsdk_syms_source() gives");
	check(bsdk_syms_inlined(s, getpid(), marker, frames, 0) == -EINVAL, "inlined: max 0: -EINVAL");
	check(bsdk_syms_inlined(s, 0, marker, frames, 4) == -ENOENT, "inlined in the kernel: -ENOENT");

	/* 40 processes that cannot exist (above the largest pid_max) fill
	 * the cache of 32 and drop this one's Dwfl: the name handed out
	 * before stays readable, and a new lookup gives the same string. */
	kept = bsdk_syms_lookup(s, getpid(), marker, &off);
	for (int i = 0; i < 40; i++) {
		errno = 0;
		if (bsdk_syms_lookup(s, 4194305 + i, marker, &off) != NULL || errno != ESRCH)
			break;
		gone++;
	}
	check(gone == 40, "40 processes that do not exist: NULL, ESRCH (%d)", gone);
	check(kept && strcmp(kept, "test_syms_marker") == 0, "a name outlives its dropped process");
	check(bsdk_syms_lookup(s, getpid(), marker, &off) == kept,
	      "the process read again: the same kept string");

	/* A process that is gone. */
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	errno = 0;
	check(bsdk_syms_lookup(s, child, marker, &off) == NULL && errno == ESRCH,
	      "a process that exited: NULL, ESRCH");
	check(bsdk_syms_source(s, child, marker, &file, &line) == -ESRCH,
	      "the source in a process that exited: -ESRCH");

	/* The kernel: the address /proc/kallsyms gives for a function must
	 * come back as that function (when we may see addresses at all). */
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(buf, sizeof(buf), f)) {
		unsigned long long addr;
		char type, name[128];

		if (sscanf(buf, "%llx %c %127s", &addr, &type, name) == 3 && addr &&
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
