// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * uprobe_target - a program to probe: it calls uprobe_target_mix() with
 * the numbers it is given and prints what each call returned, so a tracer
 * can be checked against it.
 *
 *   uprobe_target A B C [COUNT]   COUNT calls of mix(A + i, B, C), i from 0
 */
#include <stdio.h>
#include <stdlib.h>

/* Global and never inlined: the symbol must exist, and every call must
 * really enter it, for a uprobe on it to fire once per call. */
__attribute__((noinline)) long uprobe_target_mix(long a, long b, long c);

long uprobe_target_mix(long a, long b, long c)
{
	/* The empty asm keeps the compiler from computing calls ahead. */
	__asm__ volatile("" ::: "memory");
	return a * b + c;
}

int main(int argc, char **argv)
{
	long a, b, c, count = 1;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: uprobe_target A B C [COUNT]\n");
		return 2;
	}
	a = strtol(argv[1], NULL, 0);
	b = strtol(argv[2], NULL, 0);
	c = strtol(argv[3], NULL, 0);
	if (argc == 5)
		count = strtol(argv[4], NULL, 0);
	for (long i = 0; i < count; i++)
		printf("uprobe_target_mix(%ld, %ld, %ld) = %ld\n", a + i, b, c,
		       uprobe_target_mix(a + i, b, c));
	return 0;
}
