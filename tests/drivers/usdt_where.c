// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * usdt_where - a USDT probe whose arguments are in each place an argument
 * spec can name, for tests/bats/usdt.bats.
 *
 *   usdt_where GO_FILE N
 *
 * Waits (up to 120 s) until GO_FILE exists, then for i = 1..N fires
 *
 *   bpfsdk:where (long i, int i * 1000 + 7, long i * -1000000007, -9)
 *
 * The first argument is in a register; the second and third are members
 * of a volatile struct on the stack, so the compiler names them as memory
 * at the stack pointer (plus an offset); the last is a constant. On x86-64
 * the note says "-8@%rdi -4@-16(%rsp) -8@-24(%rsp) -4@$-9", on arm64
 * "-8@x0 -4@[sp, 8] -8@[sp] -4@-9" (the registers and offsets are the
 * compiler's choice; the kinds are what the test checks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

struct where {
	long big;
	int small;
};

__attribute__((noinline)) static void fire(long i)
{
	volatile struct where w = { i * -1000000007L, (int)i * 1000 + 7 };

	DTRACE_PROBE4(bpfsdk, where, i, w.small, w.big, -9);
	__asm__ __volatile__("" ::: "memory");
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	int n, waited = 0;

	if (argc != 3 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: usdt_where GO_FILE N\n");
		return 2;
	}
	while (access(argv[1], F_OK) != 0) {
		if (++waited > 24000) {
			fprintf(stderr, "error: '%s' did not appear within 120 s\n", argv[1]);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	for (long i = 1; i <= n; i++)
		fire(i);
	return 0;
}
