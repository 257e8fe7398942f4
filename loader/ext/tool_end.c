// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tool_end.c - the end of a tracing tool's main: poll until it is time to
 * stop, detach so that nothing new comes, take what is still in the rings,
 * and say what came. An extension: it joins the channel layer's poll loop
 * with the attach layer's links, which know nothing of each other.
 */
#include <errno.h>
#include <stdio.h>

#include "ext/ext.h"
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

int bsdk_records_report(FILE *f, uint64_t received, uint64_t shown, uint64_t lost, uint64_t bad)
{
	fprintf(f, "received %llu, shown %llu, lost %llu\n", (unsigned long long)received,
		(unsigned long long)shown, (unsigned long long)lost);
	if (!bad)
		return 0;
	fprintf(f, "error: %llu malformed records\n", (unsigned long long)bad);
	return 1;
}
