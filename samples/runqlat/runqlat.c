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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "bpfsdk_http.h"	/* --metrics: libbpfsdk-http */
#include "gallery.h"	/* samples/gallery.h: what the samples share */
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
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
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
USAGE_EXIT("tracing", " and a kernel with BTF\n(/sys/kernel/btf/vmlinux)");

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	bool msecs;
	bool time;
	double interval;	/* 0: one histogram at the end */
	long count;		/* intervals; 0: until Ctrl-C */
	const char *metrics;	/* --metrics ADDR:PORT */
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
	if (o->common.json) {
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
static struct bsdk_metrics_server *serve_metrics(struct runqlat_bpf *skel, const struct options *o,
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

static struct options opt;

/* [INTERVAL [COUNT]]: the arguments after the options; how many it took. */
static int parse_operands(int n, char **args, void *ctx)
{
	struct options *o = ctx;
	char *end;
	long val;

	if (n > 0 && bsdk_arg_parse_seconds("INTERVAL", args[0], 3600, &o->interval))
		return -EINVAL;
	if (n < 2)
		return n;
	errno = 0;
	val = strtol(args[1], &end, 10);
	if (*end || end == args[1] || errno || val <= 0) {
		fprintf(stderr, "error: COUNT '%s' is not a positive number\n", args[1]);
		return -EINVAL;
	}
	o->count = val;
	return 2;
}

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them; its
 * arguments (parse_operands()). */
static const struct bsdk_opt own_opts[] = {
	{ "msecs", 'm', BSDK_OPT_FLAG, .dest = &opt.msecs,
	  .help = "milliseconds instead of microseconds" },
	{ .name = "pid", .type = BSDK_OPT_COMMON,
	  .help = "only the threads of process PID (in the kernel)" },
	{ "time", 'T', BSDK_OPT_FLAG, .dest = &opt.time,
	  .help = "a line with the wall clock before each histogram" },
	{ .name = "duration", .type = BSDK_OPT_COMMON,
	  .help = "without INTERVAL: stop after SEC seconds" },
	{ .name = "json", .type = BSDK_OPT_COMMON,
	  .help = "one JSON object per histogram instead of the chart" },
	{ "metrics", 'M', BSDK_OPT_STRING, .dest = &opt.metrics,
	  .arg = "ADDR:PORT",
	  .help =
	"serve the histogram to Prometheus while tracing,\n"
	"at http://ADDR:PORT/metrics (':PORT': 127.0.0.1),\n"
	"as bpfsdk_hist_seconds (docs/metrics.md)" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "runqlat", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER,
	.operands = parse_operands, .ctx = &opt,
};

/* At each interval's end (or once, at the end) take the map's value and
 * print what it gained, until Ctrl-C, --duration, COUNT or a reader that
 * left. 0, or -1 after an error line. */
static int poll_hist(struct runqlat_bpf *skel)
{
	struct runqlat_hist cur, prev;
	__u32 zero = 0;
	long printed = 0;
	double next;
	int err;

	memset(&prev, 0, sizeof(prev));
	next = bsdk_time_now() + (opt.interval ? opt.interval : opt.common.duration);
	for (;;) {
		bool due;

		while (!bsdk_signals_caught() && (!(opt.interval || opt.common.duration) || bsdk_time_now() < next))
			usleep(50000);
		due = !bsdk_signals_caught();
		next += opt.interval;
		err = bsdk_map_lookup_elem(skel->maps.hist, &zero, sizeof(zero), &cur, sizeof(cur), 0);
		if (err) {
			fprintf(stderr, "error: reading the hist map: %s\n", bsdk_strerror(err));
			return -1;
		}
		if (!opt.interval || due || cur.wakeups + cur.preempted != prev.wakeups + prev.preempted) {
			if (opt.interval && printed && !opt.common.json)
				printf("\n");
			print_hist(&opt, &cur, &prev);
			printed++;
		}
		prev = cur;
		if (fflush(stdout)) {
			if (errno != EPIPE) {
				fprintf(stderr, "error: writing the output: %s\n", strerror(errno));
				return -1;
			}
			break;
		}
		if (!opt.interval || !due || (opt.count && printed >= opt.count))
			break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bsdk_link *links[3] = { NULL };
	struct bsdk_prog *progs[3];
	struct runqlat_bpf *skel = NULL;
	struct bsdk_metrics *metrics = NULL;
	struct bsdk_metrics_server *server = NULL;
	int ret = 1, err;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	if (opt.interval && opt.common.duration) {
		fprintf(stderr, "error: --duration and INTERVAL do not go together: use COUNT\n");
		return 2;
	}
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.common.object ? runqlat_bpf__open_file(opt.common.object) : runqlat_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: the filter and the unit, constants of the program set
	 * in its .rodata before load. */
	skel->rodata->target_tgid = opt.common.pid;
	skel->rodata->unit_ns = opt.msecs ? 1000000 : 1000;

	/* Load: task_struct's pid and tgid found in the kernel's BTF (CO-RE),
	 * maps created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || runqlat_bpf__load(skel))
		goto cleanup;

	/* Attach: switch first, so that no thread is timed from its wakeup
	 * without the switch that ends the wait. */
	progs[0] = skel->progs.switch_in;
	progs[1] = skel->progs.wakeup;
	progs[2] = skel->progs.wakeup_new;
	if (bsdk_progs_attach(progs, 3, links))
		goto cleanup;
	fprintf(stderr, "runqlat: tracing run queue latency%s, Ctrl-C to end\n",
		opt.common.pid ? " of one process" : "");
	/* Serve: with --metrics, Prometheus reads the map itself, as often as it scrapes. */
	if (opt.metrics && !(server = serve_metrics(skel, &opt, &metrics)))
		goto cleanup;

	/* Poll: read the histogram at each interval's end, or once at the end. */
	if (poll_hist(skel))
		goto cleanup;
	ret = 0;

cleanup:
	/* Clean up: one place, in reverse order; each call accepts NULL. The
	 * skeleton's destroy also destroys the links, the last first. */
	bsdk_metrics_server_stop(server);
	bsdk_metrics_free(metrics);
	runqlat_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
