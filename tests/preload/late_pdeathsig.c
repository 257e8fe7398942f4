// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * late_pdeathsig.so - makes a child's prctl(PR_SET_PDEATHSIG) come after
 * its parent's death, the window a fork()ing program must close itself.
 *
 * Preloaded (LD_PRELOAD) into a sample by tests/bats/sample_hardening.bats.
 * When the process calls prctl(PR_SET_PDEATHSIG, ...), it first writes its
 * pid to the file $BSDK_TEST_PDEATHSIG_MARK, then waits, up to 10 s, for
 * its parent to be gone (getppid() changes: the test kills the parent once
 * the file is there), and only then makes the real call. The kernel sends
 * the death signal only for a parent that dies after the call, so a child
 * that does not check getppid() after it is left running for good.
 * Every other prctl() passes straight through.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int prctl(int option, ...);

static void mark(const char *path)
{
	char tmp[4096], line[32];
	int fd, n;

	/* written whole, then renamed, so the test never reads half a pid */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	if (write(fd, line, n) == n && close(fd) == 0)
		rename(tmp, path);
	else
		close(fd);
}

static void wait_for_orphaning(pid_t parent)
{
	struct timespec tick = { .tv_nsec = 1000000 };

	for (int i = 0; i < 10000 && getppid() == parent; i++)
		nanosleep(&tick, NULL);
}

int prctl(int option, ...)
{
	static int (*real)(int, unsigned long, unsigned long, unsigned long,
			   unsigned long);
	unsigned long a[4];
	const char *path;
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);

	path = getenv("BSDK_TEST_PDEATHSIG_MARK");
	if (option == PR_SET_PDEATHSIG && path) {
		pid_t parent = getppid();

		mark(path);
		wait_for_orphaning(parent);
	}
	if (!real)
		real = (int (*)(int, unsigned long, unsigned long, unsigned long,
				unsigned long))dlsym(RTLD_NEXT, "prctl");
	return real(option, a[0], a[1], a[2], a[3]);
}
