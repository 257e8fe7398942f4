// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kinds.c - the rows this layer adds to the section table, with their
 * methods (object/prog.c holds the core's; attach_kinds_add() takes these
 * from ext/passes.c):
 * the kprobes of system calls by name, uprobes, and the attach points the
 * kernel names by BTF type ID. Same spelling as libbpf's; the ".s" rows
 * are the sleepable forms of the row above them.
 */
#include <linux/btf.h>

#include "hooks/hooks.h"

/* This layer's methods: how each kind below is attached. */
const struct attach_method attach_by_ksyscall = { "ksyscall", "kprobe", attach_ksyscall };
const struct attach_method attach_by_uprobe = { "uprobe", "uprobe", attach_uprobe };
const struct attach_method attach_by_btf_tracing = { "BTF-typed", NULL, attach_btf_tracing };
const struct attach_method attach_by_btf_iter = { "iterator", NULL, attach_btf_iter };

#define BTF(kind, prefix) .btf_kind = BTF_KIND_##kind, .btf_prefix = prefix

static const struct attach_kind probe_rows[] = {
	/* a kprobe on the system call's entry symbol (__x64_sys_NAME) */
	KIND("ksyscall", BPF_PROG_TYPE_KPROBE, 0, "ksyscall", &attach_by_ksyscall, TARGET_REQUIRED),
	KIND("kretsyscall", BPF_PROG_TYPE_KPROBE, 0, "ksyscall", &attach_by_ksyscall, TARGET_REQUIRED, .retprobe = true),
	/* without PATH:FUNC, attached by bsdk_prog_attach_uprobe() */
	KIND("uprobe", BPF_PROG_TYPE_KPROBE, 0, "uprobe", &attach_by_uprobe, TARGET_OPTIONAL),
	KIND("uprobe.s", BPF_PROG_TYPE_KPROBE, 0, "uprobe", &attach_by_uprobe, TARGET_OPTIONAL, .sleepable = true),
	KIND("uretprobe", BPF_PROG_TYPE_KPROBE, 0, "uprobe", &attach_by_uprobe, TARGET_OPTIONAL, .retprobe = true),
	KIND("uretprobe.s", BPF_PROG_TYPE_KPROBE, 0, "uprobe", &attach_by_uprobe, TARGET_OPTIONAL, .retprobe = true, .sleepable = true),
};

const struct attach_kinds hooks_probe_kinds = {
	probe_rows, ARRAY_SIZE(probe_rows),
	"ksyscall/NAME, kretsyscall/NAME, uprobe[/PATH:FUNC[+OFF]], uretprobe, uprobe.s, uretprobe.s",
};

/* BTF-typed: the target's type ID in kernel BTF goes to the verifier */
static const struct attach_kind btf_rows[] = {
	KIND("tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, "tp_btf", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(TYPEDEF, "btf_trace_")),
	KIND("fentry", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "fentry", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fentry.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "fentry", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	KIND("fexit", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "fexit", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fexit.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "fexit", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	KIND("fmod_ret", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, "fmod_ret", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fmod_ret.s", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, "fmod_ret", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	/* a security hook: the kernel's bpf_lsm_NAME() stub is the target */
	KIND("lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "lsm", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "bpf_lsm_")),
	KIND("lsm.s", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "lsm", &attach_by_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "bpf_lsm_"), .sleepable = true),
	/* an iterator (iter/task, iter/bpf_map...): read, not fired */
	KIND("iter", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "iter", &attach_by_btf_iter, TARGET_REQUIRED, BTF(FUNC, "bpf_iter_")),
	KIND("iter.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "iter", &attach_by_btf_iter, TARGET_REQUIRED, BTF(FUNC, "bpf_iter_"), .sleepable = true),
};

const struct attach_kinds hooks_btf_kinds = {
	btf_rows, ARRAY_SIZE(btf_rows),
	"tp_btf/NAME, fentry/FUNC, fexit/FUNC, fmod_ret/FUNC, lsm/HOOK, iter/NAME (and their .s forms)",
};
