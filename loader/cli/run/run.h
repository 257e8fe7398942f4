/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * run.h - the parts of `bpfsdk run` that each do one job, for its command
 * files (run.c, run_args.c, run_poll.c...): what it shows (show/show.h:
 * records as hex and decoded by BTF, the maps that hold results, the
 * suggestions for an option naming what the object lacks), the CPU-clock
 * event of perf_event programs (run_sampling.c), and the programs and map
 * sizes chosen before load (choose.c).
 */
#ifndef BPFSDK_CLI_RUN_H
#define BPFSDK_CLI_RUN_H

#include "cli/run/show/show.h"

struct bsdk_obj;
struct bsdk_map;

/* ---- run_sampling.c: a CPU-clock event for perf_event programs */

/* Before bsdk_obj_attach_prepare(): turn autoload off for the perf_event programs, which it
 * would leave out (they have no attach point of their own); the number held. */
int sampling_hold(struct bsdk_obj *obj);
/* After it: turn their autoload back on, so that load loads them. */
void sampling_release(struct bsdk_obj *obj);
/* After load: attach each loaded perf_event program to a CPU-clock sampling event at freq Hz
 * on every online CPU. The number of programs attached, or -1 after one error line. */
int sampling_attach(struct bsdk_obj *obj, unsigned int freq);

/* ---- choose.c: before loading, the programs chosen by name and the maps whose
 * size the object leaves to the tool */
struct choice {
	const char *glob;	/* fnmatch() pattern of program names */
	bool keep;		/* --program; false: --no-program */
};
/* The size run gives a hash, array, LRU or stack trace map whose
 * max_entries is 0 in the object (docs/bpfsdk-run.md says it). */
#define RUN_MAX_ENTRIES 10240u
/* The stack depth a stack trace map without a value size gets: the
 * kernel's default perf_event_max_stack. */
#define RUN_STACK_DEPTH 127u
/* At parse time: a usage error (EXIT_USAGE) for an empty glob or one with a
 * '[' never closed; for --max-entries not MAP=N, N from 1 to 2^32-1. */
int choose_check_glob(const char *cmd, const char *opt, const char *glob);
int choose_check_size(const char *cmd, const char *arg);
/* Turn autoload off for the programs not chosen (-v says each); a glob
 * that matches no program is a usage error: 0 or EXIT_USAGE. */
int choose_programs(struct bsdk_obj *obj, const struct choice *choices, size_t n);
/* Apply --max-entries, then give the default to every hash, array, LRU
 * and stack trace map still at 0 (-v says each): 0 or EXIT_USAGE (a map
 * the object does not have). */
int choose_map_sizes(struct bsdk_obj *obj, const char **sizes, size_t n);

#endif /* BPFSDK_CLI_RUN_H */
