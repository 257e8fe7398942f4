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
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "trace_output.h"
#include "trace_output.skel.h"

static const char usage[] =
"usage: trace_output [options]\n"
"\n"
"Stream {pid, cookie} records from a BPF program on every write(2) of a\n"
"dd process to user space with bpf_perf_event_output() (or through a BPF\n"
"ring buffer), check each record and report the rate.\n"
"\n"
"options:\n"
"  -d, --duration SEC   how long to measure (default 5)\n"
"  -C, --channel KIND   perf (default): bpf_perf_event_output() into one\n"
"                       ring per CPU; ringbuf: bpf_ringbuf_output() into\n"
"                       one BPF ring buffer shared by all CPUs\n"
"  -p, --pages N        ring size in pages, a power of two: per CPU for\n"
"                       perf (default: the library's choice, 16 to 256\n"
"                       pages from an 8 MiB budget shared by all CPUs), of\n"
"                       the one ring for ringbuf (default 512: 2 MiB)\n"
"  -P, --probe KIND     kprobe, tracepoint or auto (default): auto uses the\n"
"                       kprobe on the write syscall where the kernel has\n"
"                       kprobes, else tracepoint/syscalls/sys_enter_write\n"
"  -c, --cpu N          the CPU dd is pinned to (default 0)\n"
"  -o, --object PATH    load the BPF object at PATH instead of the one built\n"
"                       into this program (another build of trace_output.bpf.c)\n"
"  -j, --json           print the summary as one JSON object\n"
"  -v, --verbose        print the first records and what the loader does;\n"
"                       twice for debug messages\n"
"  -h, --help           this text\n"
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
	double duration;
	unsigned int pages;
	bool ringbuf;
	const char *probe;
	int cpu;
	const char *object;
	bool json;
	int verbose;
};

/* What the sample callback checks against and counts. */
struct stream {
	__u64 writer_pid;
	__u64 received;
	__u64 bad;
	__u64 lost;
	int verbose;
};

/* Called for every record, on the consumer's thread. The kernel pads the
 * raw sample, so size is at least - not exactly - the struct's size. */
static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct stream *s = ctx;
	struct trace_output_event e;

	if (size < sizeof(e)) {
		s->bad++;
		return;
	}
	memcpy(&e, data, sizeof(e));	/* data is only 4-byte aligned */
	if (e.cookie != TRACE_OUTPUT_COOKIE || e.pid != s->writer_pid) {
		if (s->bad++ < 5)
			fprintf(stderr, "bad record on cpu %d: pid %llu cookie %#llx size %u\n",
				cpu, (unsigned long long)e.pid,
				(unsigned long long)e.cookie, size);
		return;
	}
	if (s->verbose && s->received < 5)
		printf("record: cpu %d pid %llu cookie %#llx size %u\n", cpu,
		       (unsigned long long)e.pid, (unsigned long long)e.cookie,
		       size);
	s->received++;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	struct stream *s = ctx;

	/* The ring was full: the kernel counted what it could not write
	 * and tells us with the next record that fits. */
	s->lost += count;
	if (s->verbose)
		printf("lost: cpu %d dropped %llu records\n", cpu,
		       (unsigned long long)count);
}

/* dd, pinned to cpu, killed with us if we die first. */
static pid_t start_writer(int cpu)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		cpu_set_t set;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* we may have died before prctl(): then nothing kills dd */
		if (getppid() != parent)
			_exit(127);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			fprintf(stderr, "error: cannot pin dd to CPU %d: %s\n",
				cpu, strerror(errno));
			_exit(127);
		}
		execlp("dd", "dd", "if=/dev/zero", "of=/dev/null", "bs=1",
		       "status=none", (char *)NULL);
		fprintf(stderr, "error: cannot run dd: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "error: fork: %s\n", strerror(errno));
	return pid;
}

static void stop_writer(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "pages", required_argument, NULL, 'p' },
		{ "channel", required_argument, NULL, 'C' },
		{ "probe", required_argument, NULL, 'P' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "object", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	cpu_set_t set;
	char *end;
	long val;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:p:C:P:c:o:jvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (bsdk_arg_parse_seconds("--duration", optarg, 86400, &o->duration))
				return 2;
			break;
		case 'p':
			val = strtol(optarg, &end, 10);
			if (*end || end == optarg || val <= 0 || val > 1 << 20 ||
			    (val & (val - 1))) {
				fprintf(stderr, "error: --pages '%s' is not a power of two\n", optarg);
				return 2;
			}
			o->pages = (unsigned int)val;
			break;
		case 'C':
			if (strcmp(optarg, "perf") && strcmp(optarg, "ringbuf")) {
				fprintf(stderr, "error: --channel '%s' is not perf or ringbuf\n", optarg);
				return 2;
			}
			o->ringbuf = strcmp(optarg, "ringbuf") == 0;
			break;
		case 'P':
			if (strcmp(optarg, "kprobe") && strcmp(optarg, "tracepoint") &&
			    strcmp(optarg, "auto")) {
				fprintf(stderr, "error: --probe '%s' is not kprobe, tracepoint or auto\n", optarg);
				return 2;
			}
			o->probe = optarg;
			break;
		case 'c':
			val = strtol(optarg, &end, 10);
			if (*end || end == optarg || val < 0 || val >= CPU_SETSIZE) {
				fprintf(stderr, "error: --cpu '%s' is not a CPU number\n", optarg);
				return 2;
			}
			o->cpu = (int)val;
			if (sched_getaffinity(0, sizeof(set), &set) == 0 && !CPU_ISSET(o->cpu, &set)) {
				fprintf(stderr, "error: --cpu %d: this machine has no such CPU, or this process may not run on it\n",
					o->cpu);
				return 2;
			}
			break;
		case 'o':
			o->object = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:	/* ':' a value missing, '?' an unknown option */
			bsdk_arg_reject("trace_output", c, optind, argv);
			return 2;
		}
	}
	if (optind < argc) {
		bsdk_arg_reject("trace_output", -1, optind, argv);
		return 2;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct options opt = { .duration = 5, .probe = "auto" };
	struct stream stream = { 0 };
	struct bsdk_prog *kprobe, *tracepoint, *chosen;
	struct trace_output *skel = NULL;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_link *link = NULL;
	struct bsdk_perfbuf_stats st;
	struct bsdk_ringbuf_stats rst;
	struct bsdk_map *ring;
	FILE *info;
	struct bsdk_run_opts run = { .sz = sizeof(run) };
	double start, elapsed;
	pid_t writer = -1;
	int ret = 1, err;

	err = parse_options(argc, argv, &opt);
	if (err >= 0)
		return err;
	stream.verbose = opt.verbose;
	run.duration = opt.duration;
	if (opt.verbose)
		bsdk_set_log_level(opt.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: parse the object; nothing reaches the kernel yet. */
	skel = opt.object ? trace_output__open_file(opt.object) : trace_output__open();
	if (!skel)
		goto cleanup;

	/* Choose the probe: load only the program this kernel can attach. */
	kprobe = skel->progs.write_kprobe;
	tracepoint = skel->progs.write_tracepoint;
	if (strcmp(opt.probe, "kprobe") == 0 ||
	    (strcmp(opt.probe, "auto") == 0 && bsdk_prog_attach_supported(kprobe)))
		chosen = kprobe;
	else
		chosen = tracepoint;
	bsdk_prog_set_autoload(chosen == kprobe ? tracepoint : kprobe, false);
	/* With --json, standard output carries nothing but the JSON. */
	info = opt.json ? stderr : stdout;
	fprintf(info, "probe: %s/%s%s\n", bsdk_prog_type_name(chosen),
	       bsdk_prog_attach_target(chosen),
	       chosen == tracepoint && strcmp(opt.probe, "auto") == 0 ?
	       " (this kernel has no kprobes)" : "");

	/* Filter: start dd and tell the program its pid before load. */
	writer = start_writer(opt.cpu);
	if (writer < 0)
		goto cleanup;
	stream.writer_pid = (__u64)writer;
	skel->rodata->target_tgid = (__u32)writer;
	fprintf(info, "writer: dd, pid %d, on CPU %d\n", writer, opt.cpu);

	/* Choose the channel, also before load: the program's branch, and the
	 * ring buffer's size (one page when it goes unused). */
	ring = skel->maps.ring;
	skel->rodata->use_ringbuf = opt.ringbuf;
	if (bsdk_map_set_max_entries(ring, opt.ringbuf ? (opt.pages ? opt.pages : 512) * 4096 : 4096))
		goto cleanup;
	fprintf(info, "channel: %s\n", opt.ringbuf ? "ringbuf (bpf_ringbuf_output)" :
		"perf (bpf_perf_event_output)");

	/* Load: maps are created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || trace_output__load(skel))
		goto cleanup;

	/* Read: one BPF output event and ring per CPU, stored in 'events';
	 * or the one ring buffer, mapped into our address space. */
	if (opt.ringbuf) {
		struct bsdk_ringbuf_opts rb_opts = {
			.sz = sizeof(rb_opts),
			.on_sample = on_sample,	/* the same callback, cpu -1 */
			.ctx = &stream,
		};
		rb = bsdk_ringbuf_new(bsdk_map_fd(ring), &rb_opts);
	} else {
		struct bsdk_perfbuf_opts pb_opts = {
			.sz = sizeof(pb_opts),
			.pages = opt.pages,
			.on_sample = on_sample,
			.on_lost = on_lost,
			.ctx = &stream,
		};
		pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	}
	if (!pb && !rb)
		goto cleanup;

	/* Attach last, so no record comes before there is a ring for it. */
	link = bsdk_prog_attach(chosen);
	if (!link)
		goto cleanup;

	/* Read until --duration has passed, or Ctrl-C. */
	start = bsdk_time_now();
	err = pb ? bsdk_perfbuf_run(pb, &run) : bsdk_ringbuf_run(rb, &run);
	if (err < 0)
		goto cleanup;
	elapsed = bsdk_time_now() - start;
	/* Detach, then take what is still in the rings. */
	bsdk_link_destroy(link);
	link = NULL;
	if (pb) {
		bsdk_perfbuf_consume(pb);
		/* The library counts too; the two must agree. */
		bsdk_perfbuf_stats(pb, &st);
		if (st.received != stream.received + stream.bad || st.lost != stream.lost)
			fprintf(stderr, "warning: library counted %llu received, %llu lost\n",
				(unsigned long long)st.received, (unsigned long long)st.lost);
	} else {
		bsdk_ringbuf_consume(rb);
		bsdk_ringbuf_stats(rb, &rst);
		if (rst.received != stream.received + stream.bad)
			fprintf(stderr, "warning: library counted %llu received\n",
				(unsigned long long)rst.received);
		/* A full ring buffer tells only the producer: read its count. */
		if (!skel->bss) {	/* a kernel that cannot map .bss (before 5.5) */
			fprintf(stderr, "error: cannot read ringbuf_lost: this kernel does not map .bss\n");
			goto cleanup;
		}
		stream.lost = __atomic_load_n(&skel->bss->ringbuf_lost, __ATOMIC_RELAXED);
	}

	/* Report: the seed's line, then the accounting. */
	if (opt.json) {
		printf("{\"probe\":\"%s/%s\",\"channel\":\"%s\",\"writer_pid\":%d,\"seconds\":%.3f,"
		       "\"events_per_sec\":%.0f,\"received\":%llu,\"lost\":%llu,"
		       "\"bad\":%llu}\n",
		       bsdk_prog_type_name(chosen), bsdk_prog_attach_target(chosen),
		       opt.ringbuf ? "ringbuf" : "perf", writer, elapsed, stream.received / elapsed,
		       (unsigned long long)stream.received,
		       (unsigned long long)stream.lost, (unsigned long long)stream.bad);
	} else {
		printf("recv %.0f events per sec\n", stream.received / elapsed);
		printf("received %llu, lost %llu, bad %llu\n",
		       (unsigned long long)stream.received,
		       (unsigned long long)stream.lost, (unsigned long long)stream.bad);
	}
	if (stream.received == 0)
		fprintf(stderr, "error: no records arrived in %.1f s\n", elapsed);
	else if (stream.bad == 0)
		ret = 0;

cleanup:
	if (bsdk_signals_caught() && ret)	/* Ctrl-C or SIGTERM before the tracing began */
		ret = 128 + bsdk_signals_caught();
	/* Clean up: one place, in reverse order; each call accepts NULL. */
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	bsdk_ringbuf_free(rb);
	stop_writer(writer);
	trace_output__destroy(skel);
	return ret;
}
