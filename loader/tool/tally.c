// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tally.c - the end of a tracing tool's main: poll until it is time to
 * stop, detach so that nothing new comes, take what is still in the rings,
 * and say what came, with the tally of records that says it. For tools,
 * above the core: it joins the channel layer's poll loop with the attach
 * layer's links, which know nothing of each other.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "object/object.h"
#include "channel/channel.h"

int bsdk_perfbuf_run_detach(struct bsdk_perfbuf *pb, const struct bsdk_run_opts *opts,
			    struct bsdk_link **links, size_t nlinks)
{
	int end, err;

	if (!pb || (nlinks && !links))
		return fail(EINVAL);
	end = bsdk_perfbuf_run(pb, opts);
	if (end < 0)
		return end;
	/* the last attached first: an exit program outlives its entry */
	for (size_t i = nlinks; i-- > 0;) {
		bsdk_link_destroy(links[i]);
		links[i] = NULL;
	}
	if (end == BSDK_RUN_CLOSED)
		return end;
	err = bsdk_perfbuf_drain(pb, opts ? opts->out : NULL);
	return err ? err : end;
}

void bsdk_tally_lost(void *ctx, int cpu, uint64_t count)
{
	struct bsdk_tally *r = ctx;

	/* A ring was full; the kernel says how many records it dropped. */
	r->lost += count;
	log_info("lost: cpu %d dropped %llu records", cpu, (unsigned long long)count);
}

void bsdk_tally_bad(struct bsdk_tally *r, int cpu, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	/* A flood of bad records says the same thing each time: five is enough. */
	if (r->bad++ >= 5)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_warn("cpu %d: %s", cpu, msg);
}

bool bsdk_tally_check(struct bsdk_tally *r, int cpu, uint32_t size, size_t head_size)
{
	r->received++;
	if (size >= head_size)
		return true;
	bsdk_tally_bad(r, cpu, "record of %u bytes, shorter than the %zu-byte head", size,
		       head_size);
	return false;
}

int bsdk_tally_report(FILE *f, const struct bsdk_tally *r)
{
	if (!f || !r)
		return fail(EINVAL);
	fprintf(f, "received %llu, shown %llu, lost %llu\n", (unsigned long long)r->received,
		(unsigned long long)r->shown, (unsigned long long)r->lost);
	if (!r->bad)
		return 0;
	fprintf(f, "error: %llu malformed records\n", (unsigned long long)r->bad);
	return 1;
}

int bsdk_perfbuf_run_report(struct bsdk_perfbuf *pb, double duration, struct bsdk_link **links,
			    size_t nlinks, const struct bsdk_tally *counts)
{
	struct bsdk_run_opts run = { .sz = sizeof(run), .duration = duration, .out = stdout };

	if (!counts) {
		errno = EINVAL;
		return 1;
	}
	if (bsdk_perfbuf_run_detach(pb, &run, links, nlinks) < 0)
		return 1;	/* logged */
	return bsdk_tally_report(stderr, counts);
}
