// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * profile_target - a program to profile: it spends SECONDS on the CPU in
 * one function, profile_target_spin(), so a profiler can be checked
 * against it.
 *
 *   profile_target SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Global and not inlined: a symbol of its own that every sample of the
 * loop lands in. The clock is read only every 2^20 turns, so nearly all
 * the time is spent here rather than in clock_gettime(). */
__attribute__((noinline)) unsigned long profile_target_spin(double seconds);

unsigned long profile_target_spin(double seconds)
{
	volatile unsigned long n = 0;
	double end = now() + seconds;

	do {
		for (unsigned long i = 0; i < (1UL << 20); i++)
			n = n + i;
	} while (now() < end);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: profile_target SECONDS\n");
		return 2;
	}
	printf("%lu\n", profile_target_spin(strtod(argv[1], NULL)));
	return 0;
}
