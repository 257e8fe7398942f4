// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * trace_output_core - the 2015 lesson on the minimal core alone.
 *
 * The same BPF object as trace_output, read with nothing but what
 * libbpfsdk-core.a holds (docs/architecture.md walks its files): open the
 * object, point it at dd, load, attach the tracepoint on write(2), read
 * the perf rings, check every record. What trace_output adds on the
 * layers above - its options, the kprobe where the kernel has kprobes,
 * the ring buffer, the rings' sizes - is left out, so this file is the
 * core's whole API at work.
 *
 *   usage: trace_output_core [-v] [SECONDS]
 *
 * SECONDS to measure (default 5), -v to print the first records. Exit
 * status 0 when records arrived and none was bad, 1 on failure, 2 on a
 * usage error. Needs root (CAP_BPF and CAP_PERFMON) and tracefs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "trace_output.h"
#include "writer.h"
#include "trace_output.skel.h"

/* [-v] [SECONDS]: 0, or 2 after a usage line on stderr. */
static int parse(int argc, char **argv, double *seconds, int *verbose)
{
	for (int i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "-v") == 0) {
			*verbose = 1;
			continue;
		}
		*seconds = strtod(argv[i], &end);
		if (*end || end == argv[i] || !(*seconds > 0 && *seconds <= 3600)) {
			fprintf(stderr, "error: '%s' is not a number of seconds between 0 and 3600\n"
				"usage: trace_output_core [-v] [SECONDS]\n", argv[i]);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stream stream = { 0 };
	struct bsdk_run_opts run = { .sz = sizeof(run), .duration = 5 };
	struct bsdk_perfbuf_opts pb_opts = {
		.sz = sizeof(pb_opts),
		.on_sample = stream_sample,
		.on_lost = stream_lost,
		.ctx = &stream,
	};
	struct trace_output_bpf *skel = NULL;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_link *link = NULL;
	pid_t writer = -1;
	int ret = 1;

	if (parse(argc, argv, &run.duration, &stream.verbose))
		return 2;
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM end the poll loop */

	/* Open: parse the object built into this program. */
	skel = trace_output_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure, before load: the tracepoint, not the kprobe; the pid
	 * the program keeps to; a one-page ring buffer this lesson leaves
	 * unused (use_ringbuf stays 0). */
	bsdk_prog_set_autoload(skel->progs.write_kprobe, false);
	writer = start_writer(0);
	if (writer < 0)
		goto cleanup;
	stream.writer_pid = (__u64)writer;
	skel->rodata->target_tgid = (__u32)writer;
	printf("writer: dd, pid %d, on CPU 0\n", writer);
	if (bsdk_map_set_max_entries(skel->maps.ring, 4096))
		goto cleanup;

	/* Load: maps created, the program verified (the verifier's story
	 * on failure). */
	if (trace_output_bpf__load(skel))
		goto cleanup;

	/* Read: one perf ring per CPU, stored in 'events'; then attach
	 * tracepoint/syscalls/sys_enter_write, once there is a ring for
	 * every record it sends. */
	pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	link = pb ? bsdk_prog_attach(skel->progs.write_tracepoint) : NULL;
	if (!link)
		goto cleanup;

	/* Poll until SECONDS have passed or Ctrl-C; detach; take the rest. */
	if (bsdk_perfbuf_run(pb, &run) < 0)
		goto cleanup;
	bsdk_link_destroy(link);
	link = NULL;
	if (bsdk_perfbuf_consume(pb) < 0)
		goto cleanup;
	printf("received %llu, lost %llu, bad %llu\n", (unsigned long long)stream.received,
	       (unsigned long long)stream.lost, (unsigned long long)stream.bad);
	if (stream.received == 0)
		fprintf(stderr, "error: no records arrived in %.1f s\n", run.duration);
	ret = stream.received == 0 || stream.bad != 0;

cleanup:
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	stop_writer(writer);
	trace_output_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);
}
