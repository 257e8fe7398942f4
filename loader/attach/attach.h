/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * attach.h - connecting a loaded program to its hook (attach.c): perf
 * events for tracepoints and kprobes, raw tracepoints; the other kinds'
 * methods bring their own functions (object/sections.h). Not installed.
 */
#ifndef BPFSDK_ATTACH_H
#define BPFSDK_ATTACH_H

#include "object/object.h"

/* What a method does: 0, or -errno (struct attach_method). */
typedef int (*attach_fn)(struct bsdk_prog *prog, struct bsdk_link *link);

/* Where tracefs is looked for, in this order. */
#define TRACEFS_ROOTS 2
extern const char *const tracefs_roots[TRACEFS_ROOTS];
/* Bind prog to the perf event pfd; link takes ownership of pfd. */
int bind_perf_event(struct bsdk_prog *prog, struct bsdk_link *link, int pfd);
/* The PMU's type number and the config bit of its return probes, read once per process. */
int probe_pmu(const char *pmu, int *type, int *ret_bit);
/* Open a kprobe or uprobe perf event: name and config2 are the function
 * and offset (kprobe) or the file and its file offset (uprobe); pid -1
 * probes every process; what names the target in messages. */
int open_probe(struct bsdk_prog *prog, const char *pmu, bool retprobe, int pid,
	       const char *name, uint64_t config2, const char *what);
/* Split "NAME" or "NAME+OFFSET" (the end of a kprobe or uprobe target)
 * into name, of size bytes, and *off. */
int split_name_offset(const struct bsdk_prog *prog, const char *s,
		      char *name, size_t size, unsigned long long *off);

/* ---- set from the top of the library (ext/passes.c) */
/* Why prog's tracepoint id could not be read at tracefs root (err: the
 * error there, -ENOENT when no root has it): logged, and the error
 * returned; 0 leaves it to the plain message. */
typedef int (*tracepoint_explain_fn)(const struct bsdk_prog *prog, const char *root, int err);
void attach_tracepoint_explain_set(tracepoint_explain_fn fn);

#endif /* BPFSDK_ATTACH_H */
