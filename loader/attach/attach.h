/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * attach.h - connecting a loaded program to its hook: perf events
 * (tracepoints, kprobes, uprobes), raw tracepoints and the BTF-typed
 * points (attach.c, attach_btf.c). Not installed.
 */
#ifndef BPFSDK_ATTACH_H
#define BPFSDK_ATTACH_H

#include "object/object.h"

/* ---- attach.c */
int attach_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link);
/* "Did you mean": the tracepoint CAT/NAME that exists and is closest to
 * target (its category first, then its name), into out; 0, or -ENOENT. */
int tracepoint_suggest(const char *target, char *out, size_t size);
int attach_raw_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_kprobe(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_ksyscall(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_uprobe(struct bsdk_prog *prog, struct bsdk_link *link);
/* The kernel symbol a kprobe or ksyscall program probes (the target
 * without "+OFFSET"; __x64_sys_NAME for ksyscall/NAME), into func. 0 or
 * -BSDK_ESECTION for a target that names none. */
int kprobe_symbol(const struct bsdk_prog *prog, char *func, size_t size);
/* The PMU's type number and the config bit of its return probes. */
int probe_pmu(const char *pmu, int *type, int *ret_bit);
/* Whether a uprobe target names a binary ("PATH:FUNC"): without one the
 * program is attached only through bsdk_prog_attach_uprobe(). */
bool uprobe_target_complete(const char *target);
/* attach_btf.c: attach points found in kernel BTF (tp_btf, fentry, fexit,
 * fmod_ret, lsm, iter). */
/* Look prog's target up in kernel BTF: fills prog->attach_btf_id and
 * ->attach_btf_obj_fd. -BSDK_ENOPROBE when the kernel has no such target;
 * the reason in why, nothing logged. */
int attach_btf_resolve(struct bsdk_prog *prog, char *why, size_t size);
/* Whether the kernel loads a program of prog's kind at its (resolved)
 * target: an empty program is loaded and closed. 0, or -errno with the
 * reason in why. */
int attach_btf_probe_load(struct bsdk_prog *prog, char *why, size_t size);
int attach_btf_tracing(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_btf_iter(struct bsdk_prog *prog, struct bsdk_link *link);

/* ---- the methods: bsdk_prog_attach() calls the one of the program's kind */
typedef int (*attach_fn)(struct bsdk_prog *prog, struct bsdk_link *link);
/* Set the function of a method this layer does not carry out itself
 * (ATTACH_USDT: ext/usdt.c), from the top of the library. */
void attach_method_set(enum attach_method method, attach_fn fn);
/* The pass that gives a BTF-typed program its target's ID at load. */
extern const struct obj_pass attach_btf_pass;

#endif /* BPFSDK_ATTACH_H */
