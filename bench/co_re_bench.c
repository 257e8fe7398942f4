// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * co_re_bench - what opening and loading a CO-RE object costs, with our loader and with
 * libbpf's, on the same object (bench/co_re_bench.bpf.c: three tracepoint programs, 46 CO-RE
 * relocations into task_struct and what hangs off it, one perf event array).
 *
 * One sample is open + load + close of the whole object, so it includes what both loaders
 * must do: parse the ELF file, resolve the CO-RE relocations against the kernel's BTF, load
 * the object's BTF, create the map and have the verifier check the three programs. Two ways:
 *
 *   warm  in this process, again and again: the cost of each further object a tool opens
 *   cold  each sample in a new process (fork, then time open + load + close there): the cost
 *         of a tool's first object, reading the kernel's BTF included
 *
 * The contenders alternate (ours, libbpf's, ours, ...) sample by sample, so that drifts of a
 * shared machine hit both alike; the table gives medians, the range from the 10th to the 90th
 * percentile, and the ratio of the medians.
 *
 * libbpf is linked here only, to compare against; the SDK never uses it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bpfsdk.h"

static const char usage[] =
"usage: co_re_bench [options]\n"
"\n"
"Time open + load + close of a CO-RE object with our loader (bsdk) and with\n"
"libbpf's bpf_object__open_file() + bpf_object__load(), alternating them:\n"
"\n"
"  bsdk-warm, libbpf-warm   again and again in this process\n"
"  bsdk-cold, libbpf-cold   each sample in a new process, so the kernel's BTF\n"
"                           is read and parsed in every sample\n"
"\n"
"Prints a Markdown table and one line per contender starting with 'bench:'.\n"
"\n"
"options:\n"
"  -n, --samples N   samples per contender (default 40)\n"
"      --obj PATH    the CO-RE object (default: ../bpf/co_re_bench.bpf.o next to\n"
"                    this program)\n"
"  -v                show the library's messages\n"
"  -h, --help        this text\n";

enum { BSDK_WARM, LIBBPF_WARM, BSDK_COLD, LIBBPF_COLD, NCONT };
static const char *const names[NCONT] = { "bsdk-warm", "libbpf-warm", "bsdk-cold", "libbpf-cold" };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* One open + load + close; its time in ms, or a negative value on failure. */
static double sample_bsdk(const char *path)
{
	double t0 = now_ms();
	struct bsdk_obj *obj = bsdk_obj_open(path);
	int err = obj ? bsdk_obj_load(obj) : -errno;

	bsdk_obj_close(obj);
	return err ? -1 : now_ms() - t0;
}

static double sample_libbpf(const char *path)
{
	double t0 = now_ms();
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int err = obj ? bpf_object__load(obj) : -errno;

	bpf_object__close(obj);
	return err ? -1 : now_ms() - t0;
}

/* The same in a new process (this program again, with --one WHO), which reports its time
 * through a pipe. A fork alone would not do: the child would inherit what this process has
 * already parsed. */
static double sample_cold(const char *who, const char *path)
{
	double ms = -1;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		char fd[16];

		close(fds[0]);
		snprintf(fd, sizeof(fd), "%d", fds[1]);
		execl("/proc/self/exe", "co_re_bench", "--one", who, "--fd", fd, "--obj", path,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &ms, sizeof(ms)) != sizeof(ms))
		ms = -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return ms;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(const double *sorted, int n, double p)
{
	return sorted[(int)lround(p * (n - 1))];
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "obj", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "one", required_argument, NULL, '1' },	/* internal: one cold sample */
		{ "fd", required_argument, NULL, 'f' },
		{ 0 },
	};
	char obj_path[4096] = "";
	double *t[NCONT], med[NCONT];
	int n = 40, verbose = 0, c, fd = -1;
	const char *one = NULL;
	struct utsname u;

	while ((c = getopt_long(argc, argv, "n:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			if (n < 1) {
				fprintf(stderr, "error: --samples '%s' is not a positive number\n", optarg);
				return 2;
			}
			break;
		case 'o':
			snprintf(obj_path, sizeof(obj_path), "%s", optarg);
			break;
		case 'v':
			verbose++;
			break;
		case '1':
			one = optarg;
			break;
		case 'f':
			fd = atoi(optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!obj_path[0] && bsdk_path_beside_exe(obj_path, sizeof(obj_path),
						 "../bpf/co_re_bench.bpf.o")) {
		fprintf(stderr, "error: cannot find co_re_bench.bpf.o; give --obj\n");
		return 1;
	}
	bsdk_set_log_level(verbose ? BSDK_LOG_DEBUG : BSDK_LOG_ERROR);
	if (!verbose)
		libbpf_set_print(libbpf_quiet);
	bsdk_bump_memlock();
	if (one) {	/* a cold sample, for the parent */
		double ms = strcmp(one, "bsdk") == 0 ? sample_bsdk(obj_path) : sample_libbpf(obj_path);

		return write(fd, &ms, sizeof(ms)) == sizeof(ms) ? 0 : 1;
	}

	/* One of each first: both must work, and the warm ones start warm. */
	if (sample_bsdk(obj_path) < 0 || sample_libbpf(obj_path) < 0) {
		fprintf(stderr, "error: '%s' does not open and load with both loaders (run as root; -v says more)\n",
			obj_path);
		return 1;
	}
	for (int k = 0; k < NCONT; k++)
		t[k] = calloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++) {
		t[BSDK_WARM][i] = sample_bsdk(obj_path);
		t[LIBBPF_WARM][i] = sample_libbpf(obj_path);
		t[BSDK_COLD][i] = sample_cold("bsdk", obj_path);
		t[LIBBPF_COLD][i] = sample_cold("libbpf", obj_path);
		for (int k = 0; k < NCONT; k++)
			if (t[k][i] < 0) {
				fprintf(stderr, "error: %s: sample %d failed\n", names[k], i);
				return 1;
			}
	}

	uname(&u);
	printf("co_re_bench: %s, %d samples per contender, kernel %s\n\n", obj_path, n, u.release);
	printf("| contender | open+load+close median | p10–p90 | / libbpf (same way) |\n");
	printf("|---|---:|---:|---:|\n");
	for (int k = 0; k < NCONT; k++) {
		qsort(t[k], (size_t)n, sizeof(double), cmp_double);
		med[k] = pct(t[k], n, 0.5);
	}
	for (int k = 0; k < NCONT; k++) {
		int base = k < BSDK_COLD ? LIBBPF_WARM : LIBBPF_COLD;

		printf("| %s | %.2f ms | %.2f–%.2f ms | %.2f |\n", names[k], med[k], pct(t[k], n, 0.1),
		       pct(t[k], n, 0.9), med[k] / med[base]);
	}
	printf("\n");
	for (int k = 0; k < NCONT; k++) {
		int base = k < BSDK_COLD ? LIBBPF_WARM : LIBBPF_COLD;

		printf("bench: name=%s samples=%d median_ms=%.3f p10_ms=%.3f p90_ms=%.3f ratio_libbpf=%.3f\n",
		       names[k], n, med[k], pct(t[k], n, 0.1), pct(t[k], n, 0.9), med[k] / med[base]);
		free(t[k]);
	}
	return 0;
}
