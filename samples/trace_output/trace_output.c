// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * trace_output - the user side of the seed's experiment, done today.
 *
 * It starts `dd if=/dev/zero of=/dev/null bs=1` pinned to one CPU: a process
 * that does nothing but write(2) one byte at a time. The BPF side reports
 * each of dd's writes as a {pid, cookie} record through
 * bpf_perf_event_output(); this side reads them from the per-CPU perf
 * rings, checks every one, and prints how many arrived per second.
 * --channel ringbuf sends the same records through a BPF ring buffer
 * instead (bpf_ringbuf_output()), to compare the two channels.
 *
 * The story: open -> choose the probe -> filter to dd -> load -> attach ->
 * read -> report -> clean up. The object is built into this program: the
 * skeleton trace_output.skel.h (made by `bpfsdk gen skeleton`) embeds it
 * and names its programs, maps and global variables.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "trace_output.h"
#include "writer.h"
#include "trace_output.skel.h"

static const char usage[] =
"usage: trace_output [options]\n"
"\n"
"Stream {pid, cookie} records from a BPF program on every write(2) of a\n"
"dd process to user space with bpf_perf_event_output() (or through a BPF\n"
"ring buffer), check each record and report the rate.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"output:\n"
"  recv N events per sec   records received per second of the measurement\n"
"  received R, lost L, bad B\n"
"                          R records checked; L records dropped because a\n"
"                          ring was full (perf: the kernel's PERF_RECORD_LOST;\n"
"                          ringbuf: bpf_ringbuf_output() failures, counted by\n"
"                          the program); B records with a wrong cookie, pid\n"
"                          or size\n"
"\n"
"exit status: 0 when records arrived and none was bad, 1 on failure,\n"
"2 on a usage error (a --cpu this process cannot run on included),\n"
"130/143 for SIGINT/SIGTERM before the measurement began. Needs root\n"
"(CAP_BPF and CAP_PERFMON).\n";

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	unsigned int pages;
	bool ringbuf;
	const char *probe;
	int cpu;
};

static struct options opt = { .common.duration = 5, .probe = "auto" };

/* --channel perf|ringbuf */
static int parse_channel(const char *name, const char *value, void *dest)
{
	if (strcmp(value, "perf") && strcmp(value, "ringbuf")) {
		fprintf(stderr, "error: %s '%s' is not perf or ringbuf\n", name, value);
		return -EINVAL;
	}
	*(bool *)dest = strcmp(value, "ringbuf") == 0;
	return 0;
}

/* --probe kprobe|tracepoint|auto */
static int parse_probe(const char *name, const char *value, void *dest)
{
	if (strcmp(value, "kprobe") && strcmp(value, "tracepoint") && strcmp(value, "auto")) {
		fprintf(stderr, "error: %s '%s' is not kprobe, tracepoint or auto\n", name, value);
		return -EINVAL;
	}
	*(const char **)dest = value;
	return 0;
}

/* --cpu N: a CPU this process may run on. */
static int parse_cpu(const char *name, const char *value, void *dest)
{
	cpu_set_t set;
	char *end;
	long val;

	val = strtol(value, &end, 10);
	if (*end || end == value || val < 0 || val >= CPU_SETSIZE) {
		fprintf(stderr, "error: %s '%s' is not a CPU number\n", name, value);
		return -EINVAL;
	}
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && !CPU_ISSET((int)val, &set)) {
		fprintf(stderr, "error: %s %d: this machine has no such CPU, or this process may not run on it\n",
			name, (int)val);
		return -EINVAL;
	}
	*(int *)dest = (int)val;
	return 0;
}

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ .name = "duration", .type = BSDK_OPT_COMMON,
	  .help = "how long to measure (default 5)" },
	{ "channel", 'C', BSDK_OPT_CALL, .dest = &opt.ringbuf, .parse = parse_channel,
	  .arg = "KIND",
	  .help =
	"perf (default): bpf_perf_event_output() into one\n"
	"ring per CPU; ringbuf: bpf_ringbuf_output() into\n"
	"one BPF ring buffer shared by all CPUs" },
	{ "pages", 'p', BSDK_OPT_POW2, .dest = &opt.pages, .min = 1, .max = 1 << 20,
	  .what = "a power of two",
	  .arg = "N",
	  .help =
	"ring size in pages, a power of two: per CPU for\n"
	"perf (default: the library's choice, 16 to 256\n"
	"pages from an 8 MiB budget shared by all CPUs), of\n"
	"the one ring for ringbuf (default 512: 2 MiB)" },
	{ "probe", 'P', BSDK_OPT_CALL, .dest = &opt.probe, .parse = parse_probe,
	  .arg = "KIND",
	  .help =
	"kprobe, tracepoint or auto (default): auto uses the\n"
	"kprobe on the write syscall where the kernel has\n"
	"kprobes, else tracepoint/syscalls/sys_enter_write" },
	{ "cpu", 'c', BSDK_OPT_CALL, .dest = &opt.cpu, .parse = parse_cpu,
	  .arg = "N",
	  .help = "the CPU dd is pinned to (default 0)" },
	{ .name = "object", .type = BSDK_OPT_COMMON },
	{ .name = "json", .type = BSDK_OPT_COMMON,
	  .help = "print the summary as one JSON object" },
	{ .name = "verbose", .type = BSDK_OPT_COMMON,
	  .help =
	"print the first records and what the loader does;\n"
	"twice for debug messages" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "trace_output", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_DURATION | BSDK_ARGS_JSON | BSDK_ARGS_OBJECT | BSDK_ARGS_VERBOSE,
};

/* Choose the probe: load only the program this kernel can attach. */
static struct bsdk_prog *choose_probe(struct trace_output_bpf *skel, FILE *info)
{
	struct bsdk_prog *kprobe = skel->progs.write_kprobe;
	struct bsdk_prog *tracepoint = skel->progs.write_tracepoint;
	struct bsdk_prog *chosen;

	if (strcmp(opt.probe, "kprobe") == 0 ||
	    (strcmp(opt.probe, "auto") == 0 && bsdk_prog_attach_supported(kprobe)))
		chosen = kprobe;
	else
		chosen = tracepoint;
	bsdk_prog_set_autoload(chosen == kprobe ? tracepoint : kprobe, false);
	fprintf(info, "probe: %s/%s%s\n", bsdk_prog_type_name(chosen),
	       bsdk_prog_attach_target(chosen),
	       chosen == tracepoint && strcmp(opt.probe, "auto") == 0 ?
	       " (this kernel has no kprobes)" : "");
	return chosen;
}

/* Choose the channel before load: the program's branch, and the ring
 * buffer's size (one page when it goes unused). 0 or -errno (logged). */
static int choose_channel(struct trace_output_bpf *skel, FILE *info)
{
	int err;

	skel->rodata->use_ringbuf = opt.ringbuf;
	err = bsdk_map_set_max_entries(skel->maps.ring, opt.ringbuf ?
				       (opt.pages ? opt.pages : 512) * 4096 : 4096);
	if (err)
		return err;
	fprintf(info, "channel: %s\n", opt.ringbuf ? "ringbuf (bpf_ringbuf_output)" :
		"perf (bpf_perf_event_output)");
	return 0;
}

/* One BPF output event and ring per CPU, stored in 'events'; or the one
 * ring buffer, mapped into our address space. 0, or -1 (logged). */
static int readers_open(struct trace_output_bpf *skel, struct stream *stream,
			struct bsdk_perfbuf **pb, struct bsdk_ringbuf **rb)
{
	if (opt.ringbuf) {
		struct bsdk_ringbuf_opts rb_opts = {
			.sz = sizeof(rb_opts),
			.on_sample = stream_sample,	/* the same callback, cpu -1 */
			.ctx = stream,
		};
		*rb = bsdk_ringbuf_new(bsdk_map_fd(skel->maps.ring), &rb_opts);
	} else {
		struct bsdk_perfbuf_opts pb_opts = {
			.sz = sizeof(pb_opts),
			.pages = opt.pages,
			.on_sample = stream_sample,
			.on_lost = stream_lost,
			.ctx = stream,
		};
		*pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	}
	return *pb || *rb ? 0 : -1;
}

/* After detaching: take what is still in the rings, and check the
 * library's counts against ours. 0, or -1 after an error line. */
static int readers_finish(struct trace_output_bpf *skel, struct stream *stream,
			  struct bsdk_perfbuf *pb, struct bsdk_ringbuf *rb)
{
	struct bsdk_perfbuf_stats st;
	struct bsdk_ringbuf_stats rst;

	if (pb) {
		bsdk_perfbuf_consume(pb);
		/* The library counts too; the two must agree. */
		bsdk_perfbuf_stats(pb, &st);
		if (st.received != stream->received + stream->bad || st.lost != stream->lost)
			fprintf(stderr, "warning: library counted %llu received, %llu lost\n",
				(unsigned long long)st.received, (unsigned long long)st.lost);
		return 0;
	}
	bsdk_ringbuf_consume(rb);
	bsdk_ringbuf_stats(rb, &rst);
	if (rst.received != stream->received + stream->bad)
		fprintf(stderr, "warning: library counted %llu received\n",
			(unsigned long long)rst.received);
	/* A full ring buffer tells only the producer: read its count. */
	if (!skel->bss) {	/* a kernel that cannot map .bss (before 5.5) */
		fprintf(stderr, "error: cannot read ringbuf_lost: this kernel does not map .bss\n");
		return -1;
	}
	stream->lost = __atomic_load_n(&skel->bss->ringbuf_lost, __ATOMIC_RELAXED);
	return 0;
}

/* Report: the seed's line, then the accounting. The exit status. */
static int report(const struct bsdk_prog *chosen, pid_t writer, double elapsed,
		  const struct stream *stream)
{
	if (opt.common.json) {
		/* the attach target comes from the object (--object): escaped */
		char *probe;

		if (asprintf(&probe, "%s/%s", bsdk_prog_type_name(chosen),
			     bsdk_prog_attach_target(chosen)) < 0) {
			fprintf(stderr, "error: out of memory\n");
			return 1;
		}
		printf("{\"probe\":");
		bsdk_json_string(stdout, probe, strlen(probe));
		free(probe);
		printf(",\"channel\":\"%s\",\"writer_pid\":%d,\"seconds\":%.3f,"
		       "\"events_per_sec\":%.0f,\"received\":%llu,\"lost\":%llu,"
		       "\"bad\":%llu}\n",
		       opt.ringbuf ? "ringbuf" : "perf", writer, elapsed, stream->received / elapsed,
		       (unsigned long long)stream->received,
		       (unsigned long long)stream->lost, (unsigned long long)stream->bad);
	} else {
		printf("recv %.0f events per sec\n", stream->received / elapsed);
		printf("received %llu, lost %llu, bad %llu\n",
		       (unsigned long long)stream->received,
		       (unsigned long long)stream->lost, (unsigned long long)stream->bad);
	}
	if (stream->received == 0) {
		fprintf(stderr, "error: no records arrived in %.1f s\n", elapsed);
		return 1;
	}
	return stream->bad != 0;
}

int main(int argc, char **argv)
{
	struct stream stream = { 0 };
	struct bsdk_prog *chosen;
	struct trace_output_bpf *skel = NULL;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_link *link = NULL;
	FILE *info;
	struct bsdk_run_opts run = { .sz = sizeof(run) };
	double start, elapsed;
	pid_t writer = -1;
	int ret = 1, err;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	stream.verbose = opt.common.verbose;
	run.duration = opt.common.duration;
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();
	/* With --json, standard output carries nothing but the JSON. */
	info = opt.common.json ? stderr : stdout;

	/* Open: parse the object; nothing reaches the kernel yet. */
	skel = opt.common.object ? trace_output_bpf__open_file(opt.common.object) : trace_output_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: the probe; the writer, dd, whose pid the program keeps
	 * to; the channel. All before load. */
	chosen = choose_probe(skel, info);
	writer = start_writer(opt.cpu);
	if (writer < 0)
		goto cleanup;
	stream.writer_pid = (__u64)writer;
	skel->rodata->target_tgid = (__u32)writer;
	fprintf(info, "writer: dd, pid %d, on CPU %d\n", writer, opt.cpu);
	if (choose_channel(skel, info))
		goto cleanup;

	/* Load: maps are created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || trace_output_bpf__load(skel))
		goto cleanup;

	/* Read: the rings, opened before attach. */
	if (readers_open(skel, &stream, &pb, &rb))
		goto cleanup;

	/* Attach last, so no record comes before there is a ring for it. */
	link = bsdk_prog_attach(chosen);
	if (!link)
		goto cleanup;

	/* Poll until --duration has passed, or Ctrl-C. */
	start = bsdk_time_now();
	err = pb ? bsdk_perfbuf_run(pb, &run) : bsdk_ringbuf_run(rb, &run);
	if (err < 0)
		goto cleanup;
	elapsed = bsdk_time_now() - start;
	/* Detach, then take what is still in the rings. */
	bsdk_link_destroy(link);
	link = NULL;
	if (readers_finish(skel, &stream, pb, rb))
		goto cleanup;
	ret = report(chosen, writer, elapsed, &stream);

cleanup:
	/* Clean up: one place, in reverse order; each call accepts NULL. */
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	bsdk_ringbuf_free(rb);
	stop_writer(writer);
	trace_output_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
