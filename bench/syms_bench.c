// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * syms_bench - how long bsdk_syms_lookup() takes to name 10,000 addresses of
 * a real process: this one, whose executable mappings (the program with the
 * library linked in, libc, libelf, libdw, libz...) the addresses are spread
 * over evenly. Four rows, one after the other in every round:
 *
 *   cold   a new cache, the 10,000 lookups, the cache freed: what a profiler
 *          pays once per report (the files are read on first use)
 *   warm   the same 10,000 lookups again on a cache that has read them
 *   lines-first  bsdk_syms_source() for the 10,000 on that cache: file:line,
 *          the DWARF read on first use (where a file has some)
 *   lines-again  the same 10,000 again
 *
 * Each row prints the median, the range and the cost per address over the
 * rounds; nothing is asserted. Usage: syms_bench [-r ROUNDS] [-n ADDRESSES]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* n addresses spread evenly over this process's executable file mappings. */
static int addresses(uint64_t *addrs, size_t n)
{
	uint64_t start[64], end[64], total = 0, step, at = 0;
	size_t nmaps = 0, k = 0;
	char line[4096 + 128];
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	while (nmaps < 64 && fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &s, &e, perms, &name_at) < 3 ||
		    !name_at || perms[2] != 'x' || line[name_at] != '/')
			continue;
		start[nmaps] = s;
		end[nmaps++] = e;
		total += e - s;
	}
	fclose(f);
	if (!total)
		return -ENOENT;
	step = total / n ? total / n : 1;
	for (size_t m = 0; m < nmaps && k < n; m++) {
		for (; at < end[m] - start[m] && k < n; at += step)
			addrs[k++] = start[m] + at;
		at -= end[m] - start[m];
	}
	for (size_t i = 0; k < n; i++)	/* rounding left a few: repeat the first ones */
		addrs[k++] = addrs[i];
	return 0;
}

/* The 10,000 lookups; the number named (a name, not NULL). */
static size_t lookups(struct bsdk_syms *s, const uint64_t *addrs, size_t n)
{
	size_t named = 0;
	int pid = getpid();	/* a system call: not in the loop timed */

	for (size_t i = 0; i < n; i++)
		named += bsdk_syms_lookup(s, pid, addrs[i], NULL) != NULL;
	return named;
}

/* The 10,000 source lines; the number found. */
static size_t lines(struct bsdk_syms *s, const uint64_t *addrs, size_t n)
{
	size_t found = 0;
	int pid = getpid(), line;
	const char *file;

	for (size_t i = 0; i < n; i++)
		found += bsdk_syms_source(s, pid, addrs[i], &file, &line) == 0;
	return found;
}

static void row(const char *name, double *t, int rounds, size_t n, size_t named)
{
	qsort(t, (size_t)rounds, sizeof(*t), by_value);
	printf("| %s | %zu | %zu | %.2f (%.2f–%.2f) ms | %.0f ns |\n", name, n, named,
	       t[rounds / 2] * 1e3, t[0] * 1e3, t[rounds - 1] * 1e3, t[rounds / 2] * 1e9 / (double)n);
}

int main(int argc, char **argv)
{
	int rounds = 11, opt;
	size_t n = 10000, named_cold = 0, named_warm = 0, found_first = 0, found_again = 0;
	double *cold, *warm, *first, *again;
	uint64_t *addrs;

	while ((opt = getopt(argc, argv, "r:n:")) != -1) {
		if (opt == 'r' && atoi(optarg) > 0)
			rounds = atoi(optarg);
		else if (opt == 'n' && atol(optarg) > 0)
			n = (size_t)atol(optarg);
		else {
			fprintf(stderr, "usage: syms_bench [-r ROUNDS] [-n ADDRESSES]\n");
			return 2;
		}
	}
	addrs = calloc(n, sizeof(*addrs));
	cold = calloc((size_t)rounds, sizeof(*cold));
	warm = calloc((size_t)rounds, sizeof(*warm));
	first = calloc((size_t)rounds, sizeof(*first));
	again = calloc((size_t)rounds, sizeof(*again));
	if (!addrs || !cold || !warm || !first || !again || addresses(addrs, n)) {
		fprintf(stderr, "error: cannot pick %zu addresses from /proc/self/maps\n", n);
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		struct bsdk_syms *s = bsdk_syms_new();
		double t0 = now(), t1, t2, t3, t4;

		if (!s) {
			fprintf(stderr, "error: bsdk_syms_new: %s\n", strerror(errno));
			return 1;
		}
		named_cold = lookups(s, addrs, n);
		t1 = now();
		named_warm = lookups(s, addrs, n);
		t2 = now();
		found_first = lines(s, addrs, n);
		t3 = now();
		found_again = lines(s, addrs, n);
		t4 = now();
		bsdk_syms_free(s);
		cold[r] = now() - t0 - (t4 - t1);
		warm[r] = t2 - t1;
		first[r] = t3 - t2;
		again[r] = t4 - t3;
	}
	printf("| row | addresses | named (found) | median (range) over %d rounds | per address |\n", rounds);
	printf("|---|---:|---:|---:|---:|\n");
	row("cold", cold, rounds, n, named_cold);
	row("warm", warm, rounds, n, named_warm);
	row("lines-first", first, rounds, n, found_first);
	row("lines-again", again, rounds, n, found_again);
	free(addrs);
	free(cold);
	free(warm);
	free(first);
	free(again);
	return 0;
}
