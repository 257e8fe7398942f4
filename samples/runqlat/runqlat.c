// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * runqlat - scheduler run-queue latency as a histogram: how long threads
 * that could run waited for a CPU.
 *
 * The BPF side (runqlat.bpf.c) keeps the histogram in an array map; this
 * side reads it through the library's map API - at the end, or every
 * INTERVAL seconds like BCC's runqlat - and draws it. No record per event
 * crosses to user space.
 *
 * The story: open -> configure -> load -> attach -> read the map when it
 * is time -> clean up.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "bpfsdk_http.h"	/* --metrics: libbpfsdk-http */
#include "runqlat.h"
#include "runqlat.skel.h"	/* generated: bpfsdk gen skeleton runqlat.bpf.o */

static const char usage[] =
"usage: runqlat [options] [INTERVAL [COUNT]]\n"
"\n"
"Show how long threads wait in the scheduler's run queues - from the moment\n"
"they can run (woken up, or preempted while running) to the moment they get\n"
"a CPU - as a log2 histogram the BPF side keeps in a map. With INTERVAL,\n"
"print it every INTERVAL seconds (the counts of that interval), COUNT times\n"
"or until Ctrl-C; without, once at the end.\n"
"\n"
"options:\n"
"  -m, --msecs          milliseconds instead of microseconds\n"
"  -p, --pid PID        only the threads of process PID (in the kernel)\n"
"  -T, --time           a line with the wall clock before each histogram\n"
"  -d, --duration SEC   without INTERVAL: stop after SEC seconds\n"
"  -j, --json           one JSON object per histogram instead of the chart\n"
"      --metrics ADDR:PORT  serve the histogram to Prometheus while tracing,\n"
"                       at http://ADDR:PORT/metrics (':PORT': 127.0.0.1),\n"
"                       as bpfsdk_hist_seconds (docs/metrics.md)\n"
"  -o, --object PATH    load this build of runqlat.bpf.o instead of the one\n"
"                       built into the program\n"
"  -v, --verbose        what the loader does; twice for debug messages\n"
"  -h, --help           this text\n"
"\n"
"output, per histogram:\n"
"  usecs (or msecs) : count  one row per power of two, 'LOW -> HIGH : N'\n"
"  then 'total N: W after a wakeup, P after a preemption' - the latencies\n"
"  counted, by what made the thread runnable; 'untracked U' when threads\n"
"  could not be timed because the map of queued threads was full.\n"
"\n"
"--json prints ts, unit, the non-empty rows as [low, high, count],\n"
"total, wakeups, preempted and untracked.\n"
"\n"
"exit status: 0 on success (Ctrl-C, --duration or a closed pipe), 1 on\n"
"failure, 2 on a usage error, 130/143 for SIGINT/SIGTERM before tracing\n"
"began. Needs root (CAP_BPF and CAP_PERFMON) and a kernel with BTF\n"
"(/sys/kernel/btf/vmlinux).\n";

struct options {
	bool msecs;
	__u32 pid;
	bool time;
	double duration;
	double interval;	/* 0: one histogram at the end */
	long count;		/* intervals; 0: until Ctrl-C */
	const char *object;
	bool json;
	const char *metrics;	/* --metrics ADDR:PORT */
	int verbose;
};

/* Print cur - prev: what the interval added. The kernel's histogram only
 * grows; subtracting the last read loses nothing, where reading then
 * zeroing would lose what landed in between. */
static void print_hist(const struct options *o, const struct runqlat_hist *cur,
		       const struct runqlat_hist *prev)
{
	const char *unit = o->msecs ? "msecs" : "usecs";
	uint64_t slots[RUNQLAT_SLOTS], total = 0;
	__u64 wakeups = cur->wakeups - prev->wakeups;
	__u64 preempted = cur->preempted - prev->preempted;
	__u64 untracked = cur->untracked - prev->untracked;

	for (int i = 0; i < RUNQLAT_SLOTS; i++) {
		slots[i] = cur->slots[i] - prev->slots[i];
		total += slots[i];
	}
	if (o->json) {
		bool first = true;

		printf("{\"ts\":%lld,\"unit\":\"%s\",\"hist\":[", (long long)time(NULL), unit);
		for (int i = 0; i < RUNQLAT_SLOTS; i++) {
			if (!slots[i])
				continue;
			printf("%s[%llu,%llu,%llu]", first ? "" : ",",
			       i ? 1ULL << i : 0ULL, i == 63 ? ~0ULL : (2ULL << i) - 1,
			       (unsigned long long)slots[i]);
			first = false;
		}
		printf("],\"total\":%llu,\"wakeups\":%llu,\"preempted\":%llu,\"untracked\":%llu}\n",
		       (unsigned long long)total, (unsigned long long)wakeups,
		       (unsigned long long)preempted, (unsigned long long)untracked);
		return;
	}
	if (o->time) {
		char hms[16];
		time_t t = time(NULL);

		strftime(hms, sizeof(hms), "%H:%M:%S", localtime(&t));
		printf("%s\n", hms);
	}
	bsdk_hist_print_log2(stdout, slots, RUNQLAT_SLOTS, unit);
	printf("total %llu: %llu after a wakeup, %llu after a preemption",
	       (unsigned long long)total, (unsigned long long)wakeups,
	       (unsigned long long)preempted);
	if (untracked)
		printf("; untracked %llu", (unsigned long long)untracked);
	printf("\n");
}

/* --metrics: the hist map served by the library (bsdk_metrics_*) from a thread of its own.
 * NULL after an error line. */
static struct bsdk_metrics_server *serve_metrics(struct runqlat *skel, const struct options *o,
						 struct bsdk_metrics **set)
{
	struct bsdk_metrics_opts mo = { .sz = sizeof(mo), .unit = o->msecs ? "msecs" : "usecs" };
	struct bsdk_metrics_server *s;
	int fd;

	*set = bsdk_metrics_new(&mo);
	if (!*set || bsdk_metrics_add_map(*set, skel->maps.hist, bsdk_obj_btf(skel->obj), "runqlat") ||
	    (fd = bsdk_metrics_listen(o->metrics)) < 0)
		return NULL;	/* the library said why */
	s = bsdk_metrics_serve(*set, fd);
	if (!s)
		fprintf(stderr, "error: --metrics %s: %s\n", o->metrics, strerror(errno));
	else
		fprintf(stderr, "runqlat: serving metrics on port %d\n", bsdk_metrics_server_port(s));
	return s;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "msecs", no_argument, NULL, 'm' },
		{ "pid", required_argument, NULL, 'p' },
		{ "time", no_argument, NULL, 'T' },
		{ "duration", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "object", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long val;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":mp:Td:jo:vhM:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->msecs = true;
			break;
		case 'p':
			if (bsdk_arg_parse_pid("--pid", optarg, &o->pid))
				return 2;
			break;
		case 'T':
			o->time = true;
			break;
		case 'd':
			if (bsdk_arg_parse_seconds("--duration", optarg, 86400, &o->duration))
				return 2;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->object = optarg;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'M':
			o->metrics = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:	/* ':' a value missing, '?' an unknown option */
			bsdk_arg_reject("runqlat", c, optind, argv);
			return 2;
		}
	}
	if (optind < argc && bsdk_arg_parse_seconds("INTERVAL", argv[optind++], 3600, &o->interval))
		return 2;
	if (optind < argc) {
		errno = 0;
		val = strtol(argv[optind], &end, 10);
		if (*end || end == argv[optind] || errno || val <= 0) {
			fprintf(stderr, "error: COUNT '%s' is not a positive number\n", argv[optind]);
			return 2;
		}
		o->count = val;
		optind++;
	}
	if (optind < argc) {
		bsdk_arg_reject("runqlat", -1, optind, argv);
		return 2;
	}
	if (o->interval && o->duration) {
		fprintf(stderr, "error: --duration and INTERVAL do not go together: use COUNT\n");
		return 2;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct runqlat_hist cur, prev;
	struct bsdk_link *links[3] = { NULL };
	struct bsdk_prog *progs[3];
	struct runqlat *skel = NULL;
	struct bsdk_metrics *metrics = NULL;
	struct bsdk_metrics_server *server = NULL;
	__u32 zero = 0;
	int ret = 1, err;
	long printed = 0;
	double next;

	memset(&prev, 0, sizeof(prev));
	err = parse_options(argc, argv, &opt);
	if (err >= 0)
		return err;
	if (opt.verbose)
		bsdk_set_log_level(opt.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.object ? runqlat__open_file(opt.object) : runqlat__open();
	if (!skel)
		goto cleanup;

	/* Configure: the filter and the unit, constants of the program set
	 * in its .rodata before load. */
	skel->rodata->target_tgid = opt.pid;
	skel->rodata->unit_ns = opt.msecs ? 1000000 : 1000;

	/* Load: task_struct's pid and tgid found in the kernel's BTF (CO-RE),
	 * maps created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || runqlat__load(skel))
		goto cleanup;

	/* Attach: switch first, so that no thread is timed from its wakeup
	 * without the switch that ends the wait. */
	progs[0] = skel->progs.switch_in;
	progs[1] = skel->progs.wakeup;
	progs[2] = skel->progs.wakeup_new;
	for (int i = 0; i < 3; i++)
		if (!(links[i] = bsdk_prog_attach(progs[i])))
			goto cleanup;
	fprintf(stderr, "runqlat: tracing run queue latency%s, Ctrl-C to end\n",
		opt.pid ? " of one process" : "");
	/* Serve: with --metrics, Prometheus reads the map itself, as often as it scrapes. */
	if (opt.metrics && !(server = serve_metrics(skel, &opt, &metrics)))
		goto cleanup;

	/* Read: at each interval's end (or once, at the end) take the map's
	 * value and print what it gained. */
	next = bsdk_time_now() + (opt.interval ? opt.interval : opt.duration);
	for (;;) {
		bool due;

		while (!bsdk_signals_caught() && (!(opt.interval || opt.duration) || bsdk_time_now() < next))
			usleep(50000);
		due = !bsdk_signals_caught();
		next += opt.interval;
		err = bsdk_map_lookup_elem(skel->maps.hist, &zero, sizeof(zero), &cur, sizeof(cur), 0);
		if (err) {
			fprintf(stderr, "error: reading the hist map: %s\n", bsdk_strerror(err));
			goto cleanup;
		}
		if (!opt.interval || due || cur.wakeups + cur.preempted != prev.wakeups + prev.preempted) {
			if (opt.interval && printed && !opt.json)
				printf("\n");
			print_hist(&opt, &cur, &prev);
			printed++;
		}
		prev = cur;
		if (fflush(stdout)) {
			if (errno != EPIPE) {
				fprintf(stderr, "error: writing the output: %s\n", strerror(errno));
				goto cleanup;
			}
			break;
		}
		if (!opt.interval || !due || (opt.count && printed >= opt.count))
			break;
	}
	ret = 0;

cleanup:
	if (bsdk_signals_caught() && ret)	/* Ctrl-C or SIGTERM before the tracing began */
		ret = 128 + bsdk_signals_caught();
	/* Clean up: one place, in reverse order; each call accepts NULL. */
	bsdk_metrics_server_stop(server);
	bsdk_metrics_free(metrics);
	for (int i = 2; i >= 0; i--)
		bsdk_link_destroy(links[i]);
	runqlat__destroy(skel);
	return ret;
}
