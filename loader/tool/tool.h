/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * tool.h - the layer right above the core: what a tool built on the
 * library needs and a minimal loader does not (its options read and
 * checked, args.c and args_common.c, and its --help made from them,
 * args_help.c; the file systems it mounts and the files beside its
 * binary, fs.c; whether a kind of probe can attach, can_attach.c; the end
 * of its main and the tally of records, tally.c; addresses to function
 * names for stack traces, syms.c). Their API is in bpfsdk.h; this header
 * holds the layer's internal calls. Not installed.
 */
#ifndef BPFSDK_TOOL_H
#define BPFSDK_TOOL_H

#include <stdio.h>

#include "base/base.h"
#include "bpfsdk.h"

/* ---- args.c, args_common.c, args_help.c: a command line from a table */
#define ARGS_MAX 32
/* args_common.c: the shared options' rows (names, values, the library's arg and help),
 * for their values in *c; ARGS_COMMON of them, in BSDK_ARGS_* bit order. */
#define ARGS_COMMON 6
void args_common_rows(struct bsdk_args_common *c, struct bsdk_opt *rows);
/* The index in those rows of the shared option named name, when the tool chose it; else -1. */
int args_common_chosen(const struct bsdk_args *args, const struct bsdk_opt *common,
		       const char *name);
/* args_help.c: print the usage of args with its options made from the rows
 * (bsdk_args.usage_end set). */
void args_help_print(FILE *f, const struct bsdk_args *args);

#endif /* BPFSDK_TOOL_H */
