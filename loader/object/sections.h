/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * sections.h - the section table: what a program's section name says of
 * its type and of how it is attached. The core's rows are in prog.c; the
 * layers above add theirs (attach_kinds_add()). Not installed.
 */
#ifndef BPFSDK_OBJECT_SECTIONS_H
#define BPFSDK_OBJECT_SECTIONS_H

#include "base/base.h"

/* Where the section name's target comes from. */
enum attach_target {
	TARGET_NONE,		/* "perf_event", "xdp": nothing to name */
	TARGET_REQUIRED,	/* "tracepoint/CAT/NAME": open fails without one */
	TARGET_OPTIONAL,	/* "uprobe" alone: the caller gives it at attach */
};

struct bsdk_prog;
struct bsdk_link;

/* How a program of a kind is attached: one method per way, defined by the
 * layer that carries it out. The core's three are defined here and carried
 * out by attach/ (bsdk_prog_attach()), which knows them; a layer above that
 * adds rows (attach_kinds_add()) defines its own methods, each with its
 * function. A row without one (NULL) is load-only: its user attaches it. */
struct attach_method {
	const char *name;	/* "kprobe": for messages */
	const char *pmu;	/* the PMU its perf events are opened on ("kprobe",
				 * "uprobe"), or NULL */
	/* NULL for the core's methods; 0 or -errno */
	int (*attach)(struct bsdk_prog *prog, struct bsdk_link *link);
};
extern const struct attach_method attach_by_tracepoint, attach_by_raw_tracepoint,
	attach_by_kprobe;

/* One row of the section table: a section name prefix and what it means. */
struct attach_kind {
	const char *prefix;	/* "tracepoint": matches "tracepoint/..." (and
				 * "tracepoint" itself, the target empty) */
	enum bpf_prog_type prog_type;
	enum bpf_attach_type expected_attach_type;	/* 0 when the type needs none */
	const char *type_name;	/* "tracepoint", "fentry": for messages */
	const struct attach_method *method;	/* NULL: load-only */
	enum attach_target target;
	bool retprobe;		/* kretprobe, uretprobe, kretsyscall */
	bool sleepable;		/* the ".s" forms: BPF_F_SLEEPABLE */
	/* BTF-typed attach points: the target's name in kernel BTF is
	 * btf_prefix + target, of BTF kind btf_kind (NULL: not BTF-typed). */
	const char *btf_prefix;
	int btf_kind;
	/* Load-only kinds: how their user attaches them, for messages. */
	const char *manual;
};
/* A row: KIND("kprobe", BPF_PROG_TYPE_KPROBE, 0, "kprobe", &attach_by_kprobe,
 * TARGET_REQUIRED, .retprobe = true) */
#define KIND(pfx, type, eat, name, how, tgt, ...) { .prefix = pfx, .prog_type = type, \
	.expected_attach_type = eat, .type_name = name, .method = how, .target = tgt, __VA_ARGS__ }

/* Rows the layers above add to the section table (the core's are in
 * prog.c), with their forms for the "unknown section name" message. */
struct attach_kinds {
	const struct attach_kind *rows;
	size_t n;
	const char *forms;	/* "usdt[/PATH:PROVIDER:NAME]" */
};
/* Add them (at most 4 sets), from the top of the library before any
 * object is opened; the forms are listed in this order. */
void attach_kinds_add(const struct attach_kinds *kinds);

/* The table row for a section name, or NULL when none matches. */
const struct attach_kind *attach_kind_find(const char *section);
/* Every accepted form, for the "unknown section name" message. */
const char *attach_kind_forms(void);

#endif /* BPFSDK_OBJECT_SECTIONS_H */
