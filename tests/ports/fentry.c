// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fentry.c - the user side of libbpf-bootstrap's "fentry" on bpfsdk: open
 * and load in one call, attach both programs, then wait for Ctrl-C while
 * every unlink shows twice in /sys/kernel/tracing/trace_pipe.
 */
#include <stdio.h>
#include <unistd.h>

#include <bpfsdk.h>
#include "fentry.skel.h"	/* bpfsdk gen skeleton fentry.bpf.o */

int main(void)
{
	struct fentry_bpf *skel;
	int err;

	bsdk_signals_catch();
	skel = fentry_bpf__open_and_load();	/* NULL with errno; the library said why */
	if (!skel)
		return 1;
	err = fentry_bpf__attach(skel);
	if (err)
		goto cleanup;
	printf("unlinks show in /sys/kernel/tracing/trace_pipe; Ctrl-C stops\n");
	fflush(stdout);
	while (!bsdk_signals_caught())
		sleep(1);
cleanup:
	fentry_bpf__destroy(skel);
	return err ? 1 : 0;
}
