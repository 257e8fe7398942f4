/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * gallery.h - what the samples' user sides share that is theirs, not the
 * library's: the paragraphs their --help texts end with, and the head of
 * the JSON line of a record. What any tracing tool needs (the command line,
 * the poll loop, the tally of records) is in bpfsdk.h instead.
 *
 * The paragraphs are string literals, so that a sample's usage text stays
 * one constant read from top to bottom, its own paragraphs first:
 *
 *	static const char usage[] =
 *	"usage: NAME [options]\n"
 *	...
 *	"\n"
 *	USAGE_TALLY
 *	"\n"
 *	USAGE_EXIT("tracing", "");
 *
 * What they say is what the library does for every sample: the tally's
 * closing line (bsdk_tally_report()), the 2 of a usage error
 * (bsdk_args_parse()), the 128 + a signal that came before the work
 * (bsdk_signals_exit_status()).
 */
#ifndef SAMPLES_GALLERY_H
#define SAMPLES_GALLERY_H

#include <stdio.h>
#include <string.h>

#include <linux/types.h>

#include "bpfsdk.h"

/* The line bsdk_tally_report() writes when a sample that prints records ends. */
#define USAGE_TALLY \
	"On exit a line 'received N, shown S, lost L' goes to stderr: L is the\n" \
	"number of records the kernel dropped because a ring was full.\n"

/*
 * The exit statuses, and what a sample needs to run. work is what a signal
 * came before ("tracing", "timing"): one word, so that the lines keep their
 * width; needs is what the sample needs besides root, "" for nothing, else
 * " and ..." (it may hold a "\n").
 */
#define USAGE_EXIT(work, needs) \
	"exit status: 0 on success (Ctrl-C, --duration or a closed pipe), 1 on\n" \
	"failure, 2 on a usage error, 130/143 for SIGINT/SIGTERM before " work "\n" \
	"began. Needs root (CAP_BPF and CAP_PERFMON)" needs ".\n"

/*
 * The start of a record's JSON line, the fields every record of the gallery
 * has: {"ts_ns":N,"pid":P,"tid":T,"comm":"C" - the caller prints its own
 * fields after it, each with its leading comma, and the closing brace. comm
 * goes through bsdk_json_string(): any byte a process put in its name is
 * valid JSON.
 */
static inline void json_head(__u64 ts_ns, __u32 pid, __u32 tid, const char *comm)
{
	printf("{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"comm\":", (unsigned long long)ts_ns,
	       pid, tid);
	bsdk_json_string(stdout, comm, strlen(comm));
}

#endif /* SAMPLES_GALLERY_H */
