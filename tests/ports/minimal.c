// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * minimal.c - the user side of libbpf-bootstrap's "minimal" on bpfsdk:
 * load, tell the program our pid, attach, then write a dot to stderr every
 * second until Ctrl-C; each write puts "minimal: write from pid PID" in
 * /sys/kernel/tracing/trace_pipe (shared by the whole system).
 */
#include <stdio.h>
#include <unistd.h>

#include <bpfsdk.h>
#include "minimal.skel.h"	/* bpfsdk gen skeleton minimal.bpf.o */

int main(void)
{
	struct minimal_bpf *skel;
	int err;

	bsdk_signals_catch();
	skel = minimal_bpf__open();	/* minimal_bpf__open(), as with bpftool's skeleton */
	if (!skel)
		return 1;
	skel->bss->my_pid = getpid();	/* before load: the initial value of .bss */
	err = minimal_bpf__load(skel);
	if (!err)
		err = minimal_bpf__attach(skel);
	if (err)
		goto cleanup;
	printf("pid %d: its writes show in /sys/kernel/tracing/trace_pipe; Ctrl-C stops\n",
	       (int)getpid());
	fflush(stdout);
	while (!bsdk_signals_caught()) {
		fprintf(stderr, ".");
		sleep(1);
	}
	fprintf(stderr, "\n");
cleanup:
	minimal_bpf__destroy(skel);
	return err ? 1 : 0;
}
