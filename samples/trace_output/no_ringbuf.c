// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * no_ringbuf.c - what trace_output-core has in place of the ring buffer:
 * the minimal core (libbpfsdk-core.a) reads the perf buffer only, the BPF
 * ring buffer being in the rings layer of the full library. Linked into
 * trace_output-core alone, so that the same trace_output.c builds against
 * the core, and --channel ringbuf says what is missing.
 */
#include <errno.h>
#include <stdio.h>

#include "bpfsdk.h"

struct bsdk_ringbuf *bsdk_ringbuf_new(int map_fd, const struct bsdk_ringbuf_opts *opts)
{
	(void)map_fd;
	(void)opts;
	fprintf(stderr, "error: ring buffer: not in the minimal core (libbpfsdk-core.a): link libbpfsdk for --channel ringbuf\n");
	errno = ENOTSUP;
	return NULL;
}

/* Never reached with a ring buffer: bsdk_ringbuf_new() gave none. */
int bsdk_ringbuf_consume(struct bsdk_ringbuf *rb) { (void)rb; return -EINVAL; }

int bsdk_ringbuf_run(struct bsdk_ringbuf *rb, const struct bsdk_run_opts *opts)
{
	(void)rb;
	(void)opts;
	return -EINVAL;
}

void bsdk_ringbuf_stats(const struct bsdk_ringbuf *rb, struct bsdk_ringbuf_stats *stats)
{
	(void)rb;
	*stats = (struct bsdk_ringbuf_stats){ 0 };
}

void bsdk_ringbuf_free(struct bsdk_ringbuf *rb) { (void)rb; }
