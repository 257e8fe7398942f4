// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_merge - check the perf buffer's merge by timestamp on the running
 * kernel: writers on every online CPU fill their rings while the reader
 * waits, then one bsdk_perfbuf_consume() must hand out all records of all
 * CPUs in timestamp order. Without --merge the same run shows the records
 * CPU by CPU (the check is then expected to find them out of order when
 * more than one CPU produced).
 *
 * Uses tests/bpf/perf_overflow.bpf.o, whose records start with a u64
 * bpf_ktime_get_ns().
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpfsdk.h"
#include "../bpf/perf_overflow.h"

static const char usage[] =
"usage: perf_merge [options]\n"
"\n"
"Start one writer thread per online CPU, each pinned to its CPU and doing\n"
"--writes write() calls traced by tests/bpf/perf_overflow.bpf.o, the\n"
"threads taking turns one write each (so the CPUs' records interleave), with the\n"
"perf buffer idle; then consume everything in one call and check that the\n"
"records came out in timestamp order across CPUs.\n"
"\n"
"options:\n"
"  --merge       ask the perf buffer to merge by timestamp (offset 0)\n"
"  --writes N    writes per CPU (default 3000; the ring holds 8192)\n"
"  --ts-offset N order by the u64 N bytes into each record (0, the\n"
"                timestamp; 8 is the sequence number and the CPU)\n"
"  --obj PATH    the BPF object (default: ../bpf/tests/perf_overflow.bpf.o\n"
"                next to this program)\n"
"  -v            show the library's messages\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 when the records were in order (and none lost), 1 when\n"
"not or on a runtime failure, 2 on a usage error.\n";

struct reader {
	unsigned int ts_offset;  /* where the u64 the records are ordered by is */
	uint64_t received;
	uint64_t inversions;     /* records older than the one before */
	uint64_t last_ts;
	int last_cpu;
	uint64_t cpu_switches;   /* consecutive records from different CPUs */
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct reader *r = ctx;
	uint64_t ts;

	if (size < sizeof(struct ovf_event))
		return;
	memcpy(&ts, (const char *)data + r->ts_offset, sizeof(ts));
	if (r->received && ts < r->last_ts)
		r->inversions++;
	if (r->received && cpu != r->last_cpu)
		r->cpu_switches++;
	r->last_ts = ts;
	r->last_cpu = cpu;
	r->received++;
}

struct writer {
	pthread_t thread;
	int cpu;
	int fd;
	long writes;
	pthread_barrier_t *start;
	int index, nwriters;	/* its turn among the writers */
};

/* The writers take turns, one write each: the timestamps of the CPUs'
 * records interleave by construction, however busy the machine, so an
 * order by timestamp differs from the order CPU by CPU. */
static long turn;

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(w->start);
	for (long i = 0; i < w->writes; i++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) % w->nwriters != w->index)
			sched_yield();
		if (write(w->fd, "x", 1) != 1)
			i = w->writes;	/* stop, but still pass the turn on */
		__atomic_fetch_add(&turn, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static char *default_obj_path(void)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return "perf_overflow.bpf.o";
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/../bpf/tests/perf_overflow.bpf.o", exe);
	return path;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "merge", no_argument, NULL, 'm' },
		{ "writes", required_argument, NULL, 'w' },
		{ "obj", required_argument, NULL, 'o' },
		{ "ts-offset", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *obj_path = NULL;
	bool merge = false;
	long writes = 3000;
	int c, ncpu, nwriters = 0, devnull = -1, ret = 1, verbose = 0;
	uint32_t tgid = (uint32_t)getpid();
	struct bsdk_obj *obj = NULL;
	struct bsdk_prog *prog;
	struct bsdk_map *events;
	struct bsdk_link *link = NULL;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_perfbuf_opts opts;
	struct bsdk_perfbuf_stats st;
	struct writer *w = NULL;
	pthread_barrier_t start;
	struct reader rd = { 0 };
	char *end;
	int n;

	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': merge = true; break;
		case 'w':
			errno = 0;
			writes = strtol(optarg, &end, 10);
			if (errno || *end || writes < 1 || writes > 8000) {
				fprintf(stderr, "error: --writes '%s' is not a number from 1 to 8000\n",
					optarg);
				return 2;
			}
			break;
		case 'o': obj_path = optarg; break;
		case 't':
			rd.ts_offset = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || end == optarg || rd.ts_offset > sizeof(struct ovf_event) - 8) {
				fprintf(stderr, "error: --ts-offset '%s' is not 0 to 8\n", optarg);
				return 2;
			}
			break;
		case 'v': verbose++; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs("try 'perf_merge --help'\n", stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\ntry 'perf_merge --help'\n",
			argv[optind]);
		return 2;
	}
	if (!obj_path)
		obj_path = default_obj_path();
	if (verbose)
		bsdk_set_log_level(BSDK_LOG_INFO);

	obj = bsdk_obj_open(obj_path);
	if (!obj || bsdk_obj_set_global(obj, "target_tgid", &tgid, sizeof(tgid)) ||
	    bsdk_obj_load(obj))
		goto out;
	prog = bsdk_obj_prog_find(obj, "on_write");
	events = bsdk_obj_map_find(obj, "events");
	if (!prog || !events) {
		fprintf(stderr, "error: '%s' lacks on_write or events\n", obj_path);
		goto out;
	}

	/* 64 pages: 8192 records of 32 bytes per CPU, more than --writes,
	 * and no wakeups or drains that could split the batch. */
	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	opts.pages = 64;
	opts.on_sample = on_sample;
	opts.ctx = &rd;
	opts.merge_by_ts = merge;
	opts.ts_offset = rd.ts_offset;
	opts.max_latency_ms = -1;
	pb = bsdk_perfbuf_new(bsdk_map_fd(events), &opts);
	if (!pb)
		goto out;
	link = bsdk_prog_attach(prog);
	if (!link)
		goto out;

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ncpu = bsdk_cpu_possible_count();
	if (devnull < 0 || ncpu <= 0) {
		fprintf(stderr, "error: cannot open '/dev/null' or count CPUs\n");
		goto out;
	}
	w = calloc((size_t)ncpu, sizeof(*w));
	if (!w)
		goto out;
	for (int cpu = 0; cpu < ncpu; cpu++)
		if (bsdk_cpu_is_online(cpu))
			nwriters++;
	pthread_barrier_init(&start, NULL, (unsigned int)nwriters);
	for (int cpu = 0, i = 0; cpu < ncpu; cpu++) {
		if (!bsdk_cpu_is_online(cpu))
			continue;
		w[i] = (struct writer){ .cpu = cpu, .fd = devnull,
					.writes = writes, .start = &start,
					.index = i, .nwriters = nwriters };
		pthread_create(&w[i].thread, NULL, writer_main, &w[i]);
		i++;
	}
	for (int i = 0; i < nwriters; i++)
		pthread_join(w[i].thread, NULL);
	bsdk_link_destroy(link);
	link = NULL;

	/* One call, all rings: the batch the merge orders. */
	n = bsdk_perfbuf_consume(pb);
	bsdk_perfbuf_stats(pb, &st);
	printf("merge %s cpus %d consumed %d received %llu lost %llu inversions %llu cpu_switches %llu\n",
	       merge ? "on" : "off", nwriters, n,
	       (unsigned long long)rd.received, (unsigned long long)st.lost,
	       (unsigned long long)rd.inversions,
	       (unsigned long long)rd.cpu_switches);
	if (rd.received < (uint64_t)(writes * nwriters)) {
		fprintf(stderr, "error: received %llu records, expected at least %ld\n",
			(unsigned long long)rd.received, writes * nwriters);
		goto out;
	}
	ret = rd.inversions || st.lost ? 1 : 0;
	if (ret)
		fprintf(stderr, "error: %llu records came out older than the one before\n",
			(unsigned long long)rd.inversions);
out:
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	bsdk_obj_close(obj);
	if (devnull >= 0)
		close(devnull);
	free(w);
	return ret;
}
