// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_overflow - drive a small perf buffer into overflow and check that
 * every record is accounted for: received + lost == produced, exactly.
 *
 * The BPF side (tests/bpf/perf_overflow.bpf.c) counts every record it tries
 * to send and every -ENOSPC it gets back; the reader counts what arrives and
 * what the kernel reports in PERF_RECORD_LOST. Writes come in bursts larger
 * than the ring, with the reader idle during a burst, so most of each burst
 * is lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/types.h>

#include "bpfsdk.h"
#include "../bpf/perf_overflow.h"

static const char usage[] =
"usage: perf_overflow [options]\n"
"\n"
"Attach a program to syscalls/sys_enter_write that sends a 16-byte record\n"
"for every write() of this process, read them through a perf buffer of\n"
"--pages pages per CPU, and write in bursts larger than the ring so the\n"
"kernel must drop records. Prints the counts from both sides and checks\n"
"that received + lost == produced and that the BPF side's -ENOSPC count\n"
"equals the kernel's lost count. With --channel ringbuf, the same through a\n"
"BPF ring buffer of --pages pages, whose losses only the BPF side counts.\n"
"\n"
"options:\n"
"  --pages N     data pages per CPU ring, a power of two (default 1)\n"
"  --channel C   perf (default) or ringbuf\n"
"  --bursts N    bursts of writes (default 20)\n"
"  --writes N    writes per burst (default 2000)\n"
"  --obj PATH    the BPF object (default: ../bpf/tests/perf_overflow.bpf.o\n"
"                next to this program)\n"
"  -v            show the library's messages (-vv: debug)\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 when every record is accounted for, 1 when not or on a\n"
"runtime failure, 2 on a usage error.\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct reader {
	uint64_t received;
	uint64_t lost;
	uint64_t bad;            /* records of the wrong size or out of order */
	int64_t last_seq[1024];  /* per CPU; -1: none yet */
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct reader *r = ctx;
	struct ovf_event ev;

	r->received++;
	/* 16 bytes arrive as 20: the kernel pads size + data to 8. */
	if (size < sizeof(ev)) {
		r->bad++;
		return;
	}
	memcpy(&ev, data, sizeof(ev));
	/* A ring buffer's records carry cpu -1: the record says where it ran. */
	if (cpu == -1)
		cpu = (int)ev.cpu;
	if (cpu < 0 || cpu >= 1024 || ev.cpu != (uint32_t)cpu ||
	    (int64_t)ev.seq <= r->last_seq[cpu]) {
		if (r->bad++ < 5)
			fprintf(stderr, "warning: record seq %u cpu %u in ring of cpu %d after seq %lld\n",
				ev.seq, ev.cpu, cpu,
				cpu >= 0 && cpu < 1024 ? (long long)r->last_seq[cpu] : -1LL);
	}
	if (cpu >= 0 && cpu < 1024)
		r->last_seq[cpu] = ev.seq;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	struct reader *r = ctx;

	(void)cpu;
	r->lost += count;
}

/* Sum a per-CPU u64 counter over all possible CPUs. */
static int read_counter(int map_fd, uint32_t key, uint64_t *sum)
{
	int ncpu = bsdk_cpu_possible_count();
	union bpf_attr attr;
	uint64_t *vals;
	long ret;

	if (ncpu <= 0)
		return -1;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)vals;
	ret = syscall(__NR_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
	if (ret < 0) {
		free(vals);
		return -1;
	}
	*sum = 0;
	for (int i = 0; i < ncpu; i++)
		*sum += vals[i];
	free(vals);
	return 0;
}

static uint64_t enospc_sum(int map_fd)
{
	uint64_t n = 0;

	read_counter(map_fd, OVF_ENOSPC, &n);
	return n;
}

static long parse_num(const char *opt, const char *arg, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < min || v > max) {
		fprintf(stderr, "error: %s '%s' is not a number from %ld to %ld\n",
			opt, arg, min, max);
		exit(2);
	}
	return v;
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
		{ "pages", required_argument, NULL, 'p' },
		{ "channel", required_argument, NULL, 'c' },
		{ "bursts", required_argument, NULL, 'b' },
		{ "writes", required_argument, NULL, 'w' },
		{ "obj", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned int pages = 1;
	long bursts = 20, writes = 2000;
	const char *obj_path = NULL;
	int verbose = 0, c, err, devnull, ret = 1;
	struct bsdk_obj *obj = NULL;
	struct bsdk_prog *prog;
	struct bsdk_map *events, *counters;
	struct bsdk_link *link = NULL;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_perfbuf_opts opts;
	struct bsdk_prog *other_prog;
	bool ringbuf = false;
	struct bsdk_perfbuf_stats st;
	struct reader rd;
	uint64_t produced = 0, enospc = 0, other = 0;
	uint32_t tgid = (uint32_t)getpid();
	cpu_set_t set;

	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': pages = (unsigned int)parse_num("--pages", optarg, 1, 1 << 20); break;
		case 'c':
			if (strcmp(optarg, "perf") && strcmp(optarg, "ringbuf")) {
				fprintf(stderr, "error: --channel '%s' is not perf or ringbuf\n", optarg);
				return 2;
			}
			ringbuf = !strcmp(optarg, "ringbuf");
			break;
		case 'b': bursts = parse_num("--bursts", optarg, 1, 1000000); break;
		case 'w': writes = parse_num("--writes", optarg, 1, 100000000); break;
		case 'o': obj_path = optarg; break;
		case 'v': verbose++; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs("try 'perf_overflow --help'\n", stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\ntry 'perf_overflow --help'\n",
			argv[optind]);
		return 2;
	}
	if (!obj_path)
		obj_path = default_obj_path();
	if (verbose)
		bsdk_set_log_level(verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	memset(&rd, 0, sizeof(rd));
	for (int i = 0; i < 1024; i++)
		rd.last_seq[i] = -1;

	/* All records into one ring: the overflow does not depend on where
	 * the scheduler puts us. */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "warning: cannot pin to cpu 0: %s\n", strerror(errno));

	/* Open, configure, load, attach. */
	obj = bsdk_obj_open(obj_path);
	if (!obj)
		goto out;
	err = bsdk_obj_set_global(obj, "target_tgid", &tgid, sizeof(tgid));
	if (err < 0)
		goto out;
	prog = bsdk_obj_prog_find(obj, ringbuf ? "on_write_ring" : "on_write");
	other_prog = bsdk_obj_prog_find(obj, ringbuf ? "on_write" : "on_write_ring");
	events = bsdk_obj_map_find(obj, ringbuf ? "ring" : "events");
	counters = bsdk_obj_map_find(obj, "counters");
	if (!prog || !other_prog || !events || !counters) {
		fprintf(stderr, "error: '%s' lacks on_write, on_write_ring, events, ring or counters\n", obj_path);
		goto out;
	}
	bsdk_prog_set_autoload(other_prog, false);
	if (ringbuf && bsdk_map_set_max_entries(events, pages * 4096) < 0)
		goto out;
	err = bsdk_obj_load(obj);
	if (err < 0)
		goto out;

	/* The reader first, so no record is produced into an empty slot. */
	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	opts.pages = pages;
	opts.on_sample = on_sample;
	opts.on_lost = on_lost;
	opts.ctx = &rd;
	if (ringbuf) {
		struct bsdk_ringbuf_opts ro = { .sz = sizeof(ro), .on_sample = on_sample, .ctx = &rd };

		rb = bsdk_ringbuf_new(bsdk_map_fd(events), &ro);
	} else {
		pb = bsdk_perfbuf_new(bsdk_map_fd(events), &opts);
	}
	if (!pb && !rb)
		goto out;
	link = bsdk_prog_attach(prog);
	if (!link)
		goto out;

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0) {
		fprintf(stderr, "error: cannot open '/dev/null': %s\n", strerror(errno));
		goto out;
	}
	/* Bursts with the reader idle, then a drain. */
	for (long b = 0; b < bursts && !stop; b++) {
		for (long i = 0; i < writes; i++)
			if (write(devnull, "x", 1) != 1)
				break;
		if (pb)
			bsdk_perfbuf_consume(pb);
		else
			bsdk_ringbuf_consume(rb);
	}
	/* Losses are reported with the next record that fits: after the
	 * drain above the ring is empty, so one more write carries the
	 * pending PERF_RECORD_LOST out. */
	if (write(devnull, "x", 1) != 1)
		fprintf(stderr, "warning: final write failed\n");
	bsdk_link_destroy(link);
	link = NULL;
	if (pb) {
		bsdk_perfbuf_consume(pb);
	} else {
		bsdk_ringbuf_consume(rb);
		/* Nobody reports a full ring buffer but the producer. */
		rd.lost = enospc_sum(bsdk_map_fd(counters));
	}
	close(devnull);

	if (read_counter(bsdk_map_fd(counters), OVF_PRODUCED, &produced) ||
	    read_counter(bsdk_map_fd(counters), OVF_ENOSPC, &enospc) ||
	    read_counter(bsdk_map_fd(counters), OVF_OTHER_ERR, &other)) {
		fprintf(stderr, "error: cannot read the 'counters' map: %s\n",
			strerror(errno));
		goto out;
	}

	if (pb) {
		bsdk_perfbuf_stats(pb, &st);
	} else {
		struct bsdk_ringbuf_stats rs;

		bsdk_ringbuf_stats(rb, &rs);
		memset(&st, 0, sizeof(st));
		st.received = rs.received;
		st.lost = rd.lost;
		st.corrupt = rs.corrupt;
	}
	printf("channel %s pages %u bursts %ld writes %ld\n", ringbuf ? "ringbuf" : "perf", pages, bursts, writes);
	printf("produced %llu received %llu lost %llu enospc %llu other %llu bad %llu\n",
	       (unsigned long long)produced, (unsigned long long)rd.received,
	       (unsigned long long)rd.lost, (unsigned long long)enospc,
	       (unsigned long long)other, (unsigned long long)rd.bad);
	printf("stats received %llu lost %llu unknown %llu corrupt %llu copied %llu\n",
	       (unsigned long long)st.received, (unsigned long long)st.lost,
	       (unsigned long long)st.unknown, (unsigned long long)st.corrupt,
	       (unsigned long long)st.copied);

	ret = 0;
	if (rd.received + rd.lost != produced) {
		fprintf(stderr, "error: received + lost = %llu, produced = %llu: %lld records unaccounted for\n",
			(unsigned long long)(rd.received + rd.lost),
			(unsigned long long)produced,
			(long long)(produced - rd.received - rd.lost));
		ret = 1;
	}
	if (enospc != rd.lost) {
		fprintf(stderr, "error: the BPF side saw %llu -ENOSPC, the kernel reported %llu lost\n",
			(unsigned long long)enospc, (unsigned long long)rd.lost);
		ret = 1;
	}
	if (other || rd.bad || st.received != rd.received || st.lost != rd.lost) {
		fprintf(stderr, "error: other errors %llu, bad records %llu, stats %llu/%llu vs callbacks %llu/%llu\n",
			(unsigned long long)other, (unsigned long long)rd.bad,
			(unsigned long long)st.received, (unsigned long long)st.lost,
			(unsigned long long)rd.received, (unsigned long long)rd.lost);
		ret = 1;
	}
	if (ret == 0)
		printf("accounted: received + lost == produced\n");
out:
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	bsdk_ringbuf_free(rb);
	bsdk_obj_close(obj);
	return ret;
}
