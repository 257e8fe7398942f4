// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bootstrap.c - the user side of libbpf-bootstrap's "bootstrap" on bpfsdk:
 * every exec and every process exit, one line each, until Ctrl-C.
 *
 *	bootstrap [-d MIN_MS] [-v]
 *
 * -d keeps only the exits of processes that lived MIN_MS milliseconds or
 * more (and no execs); -v shows the library's debug messages. Each step
 * names the libbpf call it replaces (docs/from-libbpf.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpfsdk.h>
#include "bootstrap.h"
#include "bootstrap.skel.h"	/* bpfsdk gen skeleton bootstrap.bpf.o */

/* A ring buffer handler of libbpf's type (ring_buffer_sample_fn). */
static int handle_event(void *ctx, void *data, size_t size)
{
	const struct boot_event *e = data;
	char ts[16];
	time_t now = time(NULL);

	if (size < sizeof(*e))
		return 0;
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	if (e->is_exit) {
		printf("%-8s %-5s %-16s %-7u %-7u [%u]", ts, "EXIT", e->comm, e->pid, e->ppid,
		       e->exit_code);
		if (e->duration_ns)
			printf(" (%llums)", (unsigned long long)(e->duration_ns / 1000000));
		printf("\n");
	} else {
		printf("%-8s %-5s %-16s %-7u %-7u %s\n", ts, "EXEC", e->comm, e->pid, e->ppid,
		       e->filename);
	}
	return 0;
}

static int usage(const char *why)
{
	fprintf(stderr, "error: %s\nusage: bootstrap [-d MIN_MS] [-v]\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	struct bootstrap_bpf *skel;
	struct bsdk_ringbuf *rb = NULL;
	long min_ms = 0;
	char *end;
	int opt, err;

	while ((opt = getopt(argc, argv, "d:v")) != -1) {
		switch (opt) {
		case 'd':
			errno = 0;
			min_ms = strtol(optarg, &end, 10);
			if (errno || *end || min_ms <= 0)
				return usage("-d wants a number of milliseconds above 0");
			break;
		case 'v':	/* libbpf_set_print() with a filter on LIBBPF_DEBUG */
			bsdk_set_log_level(BSDK_LOG_DEBUG);
			break;
		default:
			return usage("unknown option");
		}
	}
	if (optind < argc)
		return usage("no operands are taken");
	setvbuf(stdout, NULL, _IOLBF, 0);
	bsdk_signals_catch();	/* signal(SIGINT, ...) and an exiting flag */

	/* bootstrap_bpf__open(): the same name bpftool gives */
	skel = bootstrap_bpf__open();
	if (!skel)
		return 1;	/* the library said why */
	/* the const volatile knob, between open and load, as with libbpf */
	skel->rodata->min_duration_ns = (__u64)min_ms * 1000000ull;
	err = bootstrap_bpf__load(skel);
	if (err)
		goto cleanup;
	err = bootstrap_bpf__attach(skel);
	if (err)
		goto cleanup;
	/* ring_buffer__new(bpf_map__fd(skel->maps.rb), handle_event, NULL, NULL) */
	rb = bsdk_ringbuf_new(bsdk_map_fd(skel->maps.rb),
			      &(struct bsdk_ringbuf_opts){ .sz = sizeof(struct bsdk_ringbuf_opts),
							   .sample_cb = handle_event });
	if (!rb) {
		err = -errno;
		goto cleanup;
	}
	printf("%-8s %-5s %-16s %-7s %-7s %s\n", "TIME", "EVENT", "COMM", "PID", "PPID",
	       "FILENAME/EXIT CODE");
	/* ring_buffer__poll(): the number consumed or -errno, -EINTR on Ctrl-C */
	while (!bsdk_signals_caught()) {
		err = bsdk_ringbuf_poll(rb, 100);
		if (err == -EINTR) {
			err = 0;
			break;
		}
		if (err < 0) {
			fprintf(stderr, "error: polling the ring buffer: %s\n", strerror(-err));
			break;
		}
		err = 0;
	}
cleanup:
	bsdk_ringbuf_free(rb);		/* ring_buffer__free() */
	bootstrap_bpf__destroy(skel);
	return err ? 1 : 0;
}
