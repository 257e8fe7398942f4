// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * cli_trigger - fire the hooks the bpfsdk CLI tests attach to, from a pid
 * the test knows ($!) before it starts `bpfsdk run --set target_pid=...`.
 *
 *   cli_trigger STEP...
 *
 * Steps run in order:
 *   --go FILE           wait (up to 120 s) until FILE exists
 *   getppid N           N getppid() calls
 *   getpgid N START     getpgid(START + i) for i < N
 *   uprobe N START      cli_uprobe_hit(START + i) for i < N
 *   open PATH           open(PATH, O_RDONLY) once (it need not exist)
 *   exec PROG ARG...    execv(PROG, [PROG, ARG...]): the last step, the
 *                       same pid
 *
 * A test creates FILE once bpfsdk says it is attached, so that no call
 * happens before the probes are in place; several --go steps let it fire
 * in rounds. getpgid() of a pid that does not exist fails with ESRCH,
 * which is fine: the tracepoint fires on entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The uprobe target. noinline and a global symbol: the loader finds it in
 * the symbol table, and every call really enters it. */
__attribute__((noinline)) uint64_t cli_uprobe_hit(uint64_t x);
__attribute__((noinline)) uint64_t cli_uprobe_hit(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));	/* keep the call and its body */
	return 2 * x + 1;
}

static int wait_for(const char *path)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	for (int i = 0; i < 24000; i++) {
		if (access(path, F_OK) == 0)
			return 0;
		nanosleep(&tick, NULL);
	}
	fprintf(stderr, "error: '%s' did not appear within 120 s\n", path);
	return -1;
}

static int parse(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "error: '%s' is not a number\n", s);
		return -1;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: cli_trigger [--go FILE | getppid N | getpgid N START | uprobe N START | open PATH]... [exec PROG ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	volatile uint64_t sink = 0;

	if (argc < 2)
		return usage();
	for (int i = 1; i < argc;) {
		const char *step = argv[i];
		uint64_t n, start = 0;
		int args = strcmp(step, "--go") == 0 || strcmp(step, "getppid") == 0 ? 1 : 2;

		if (strcmp(step, "exec") == 0 && i + 1 < argc) {
			execv(argv[i + 1], &argv[i + 1]);
			fprintf(stderr, "error: exec '%s': %s\n", argv[i + 1], strerror(errno));
			return 1;
		}
		if (strcmp(step, "open") == 0 && i + 1 < argc) {
			int fd = open(argv[i + 1], O_RDONLY);

			if (fd >= 0)
				close(fd);
			i += 2;
			continue;
		}
		if (strcmp(step, "--go") && strcmp(step, "getppid") &&
		    strcmp(step, "getpgid") && strcmp(step, "uprobe")) {
			fprintf(stderr, "error: unknown step '%s'\n", step);
			return usage();
		}
		if (i + args >= argc)
			return usage();
		if (strcmp(step, "--go") == 0) {
			if (wait_for(argv[i + 1]))
				return 1;
			i += 2;
			continue;
		}
		if (parse(argv[i + 1], &n) || (args == 2 && parse(argv[i + 2], &start)))
			return 2;
		for (uint64_t k = 0; k < n; k++) {
			if (strcmp(step, "getppid") == 0)
				sink += (uint64_t)syscall(SYS_getppid);
			else if (strcmp(step, "getpgid") == 0)
				sink += (uint64_t)syscall(SYS_getpgid, (long)(start + k));
			else
				sink += cli_uprobe_hit(start + k);
		}
		i += 1 + args;
	}
	(void)sink;
	return 0;
}
