// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * usdt_probe - a program with USDT probes, for tests/bats/usdt.bats.
 *
 *   usdt_probe GO_FILE N
 *
 * Waits (up to 120 s) until GO_FILE exists, then for i = 1..N fires
 *
 *   bpfsdk:hit (int i, long i * 1000000007, const char *"usdt-<i>", 5)
 *     from two places in the program, so the probe has two sites, the
 *     second with the first argument negated;
 *   bpfsdk:gated (the semaphore's value)
 *     only while the probe's semaphore is non-zero, i.e. while a tracer
 *     is attached: the loader must raise it.
 *
 * and prints "gated M": how many times the gated probe was reached.
 *
 * The probes come from <sys/sdt.h> (systemtap-sdt-dev): each is a nop and
 * an ELF note saying where its arguments are at that spot.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

/* The semaphores <sys/sdt.h> tests (PROVIDER_NAME_semaphore, in section
 * .probes; with _SDT_HAS_SEMAPHORES every probe has one), raised by the
 * kernel for each uprobe attached to the probe. */
__extension__ unsigned short bpfsdk_hit_semaphore __attribute__((unused, section(".probes")));
__extension__ unsigned short bpfsdk_gated_semaphore __attribute__((unused, section(".probes")));

__attribute__((noinline)) static void fire(int i, long big, const char *s)
{
	DTRACE_PROBE4(bpfsdk, hit, i, big, s, 5);
	__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) static void fire_again(int i, long big, const char *s)
{
	DTRACE_PROBE4(bpfsdk, hit, -i, big, s, 5);
	__asm__ __volatile__("" ::: "memory");
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	int n, waited = 0, gated = 0;

	if (argc != 3 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: usdt_probe GO_FILE N\n");
		return 2;
	}
	while (access(argv[1], F_OK) != 0) {
		if (++waited > 24000) {
			fprintf(stderr, "error: '%s' did not appear within 120 s\n", argv[1]);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	for (int i = 1; i <= n; i++) {
		char s[32];

		snprintf(s, sizeof(s), "usdt-%d", i);
		fire(i, i * 1000000007L, s);
		fire_again(i, i * 1000000007L, s);
		if (bpfsdk_gated_semaphore) {
			DTRACE_PROBE1(bpfsdk, gated, bpfsdk_gated_semaphore);
			gated++;
		}
	}
	printf("gated %d\n", gated);
	return 0;
}
