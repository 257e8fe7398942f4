/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * hooks.h - the attach points above the core: uprobes (uprobe_attach.c), system
 * calls by name (ksyscall.c), the BTF-typed points (attach_btf.c), their
 * rows of the section table (kinds.c), what a missing tracepoint was
 * probably meant to be (tp_explain.c), and a CPU-clock sampling event on
 * every CPU (sampling.c, bsdk_prog_attach_sampling()). The top of the
 * library adds the rows and the explanation to the layers below
 * (ext/passes.c). Not installed.
 */
#ifndef BPFSDK_HOOKS_H
#define BPFSDK_HOOKS_H

#include "attach/attach.h"
#include "object/pass.h"

/* ---- kinds.c: the section table's rows of this layer, and their methods */
extern const struct attach_kinds hooks_probe_kinds;	/* ksyscall, uprobes */
extern const struct attach_kinds hooks_btf_kinds;	/* tp_btf, fentry, ..., iter */
extern const struct attach_method attach_by_ksyscall, attach_by_uprobe,
	attach_by_btf_tracing, attach_by_btf_iter;

/* ---- uprobe_attach.c */
int attach_uprobe(struct bsdk_prog *prog, struct bsdk_link *link);
/* Whether a uprobe target names a binary ("PATH:FUNC"): without one the
 * program is attached only through bsdk_prog_attach_uprobe(). */
bool uprobe_target_complete(const char *target);

/* ---- ksyscall.c */
int attach_ksyscall(struct bsdk_prog *prog, struct bsdk_link *link);
/* The kernel symbol a kprobe or ksyscall program probes (the target
 * without "+OFFSET"; __x64_sys_NAME for ksyscall/NAME), into func. 0 or
 * -BSDK_ESECTION for a target that names none. */
int kprobe_symbol(const struct bsdk_prog *prog, char *func, size_t size);

/* ---- tp_explain.c */
/* "Did you mean": the tracepoint CAT/NAME that exists and is closest to
 * target (its category first, then its name), into out; 0, or -ENOENT. */
int tracepoint_suggest(const char *target, char *out, size_t size);
/* Why a tracepoint's id could not be read (attach_tracepoint_explain_set()):
 * tracefs closed to this user, not mounted, or the name mistyped. */
int tracepoint_explain(const struct bsdk_prog *prog, const char *root, int err);

/* ---- attach_btf.c: attach points found in kernel BTF (tp_btf, fentry,
 * fexit, fmod_ret, lsm, iter). */
/* Look prog's target up in kernel BTF: its ID and BTF object, kept in this
 * layer's state of the object (by program) for the load. -BSDK_ENOPROBE
 * when the kernel has no such target; the reason in why, nothing logged. */
int attach_btf_resolve(struct bsdk_prog *prog, char *why, size_t size);
/* Whether the kernel loads a program of prog's kind at its (resolved)
 * target: an empty program is loaded and closed. 0, or -errno with the
 * reason in why. */
int attach_btf_probe_load(struct bsdk_prog *prog, char *why, size_t size);
int attach_btf_tracing(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_btf_iter(struct bsdk_prog *prog, struct bsdk_link *link);
/* The pass that gives a BTF-typed program its target's ID at load. */
extern const struct obj_pass attach_btf_pass;

#endif /* BPFSDK_HOOKS_H */
