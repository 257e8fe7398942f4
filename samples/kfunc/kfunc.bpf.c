// SPDX-License-Identifier: GPL-2.0
/*
 * kfunc.bpf.c - trace a kernel function, do_unlinkat(), the two ways a
 * kernel may allow: a kprobe/kretprobe pair, or an fentry/fexit pair.
 *
 *   kprobe   a breakpoint at the function's first instruction; the program
 *            gets the CPU registers and takes the arguments out of them
 *            (BPF_KPROBE, PT_REGS_PARM*); kretprobe: PT_REGS_RC. Works on
 *            any function, on any kernel with CONFIG_KPROBES.
 *   fentry   a call from the function's entry into the program through a
 *            BPF trampoline; the program gets the arguments themselves,
 *            typed from the kernel's BTF (BPF_PROG), and may follow their
 *            pointers directly; fexit sees the arguments and the return
 *            value. Cheaper, but needs BTF and CONFIG_DYNAMIC_FTRACE
 *            with the trampoline (x86_64: 5.5+).
 *
 * Both pairs do the same: at entry keep the name being unlinked, keyed by
 * thread (at return it has been freed); at return send it with the result.
 * User space loads one pair, chosen with --mode.
 *
 *	int do_unlinkat(int dfd, struct filename *name)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
/* struct pt_regs as user space knows it: libbpf's bpf_tracing.h needs it
 * when there is no vmlinux.h; ours has its own and ignores it. */
#include <asm/ptrace.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "kfunc.h"

/* GPL: the probe-read helpers and bpf_perf_event_output(). */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/* The kernel's struct filename, only the member we read. CO-RE finds its
 * place in the running kernel's struct at load time. */
struct filename {
	const char *name;	/* the path as the kernel copied it */
} __attribute__((preserve_access_index));

const volatile __u32 target_tgid = 0;	/* 0: every process */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct kfunc_event);
} inflight SEC(".maps");

/* 300 bytes: too many for the stack with everything else; built here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kfunc_event);
} scratch SEC(".maps");

BPFSDK_RECORD(kfunc_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* Entry, either way: keep the name; name_ptr is a kernel address. */
static __always_inline int entry(const char *name_ptr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, zero = 0;
	struct kfunc_event *e;
	long len;

	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	len = bpf_probe_read_kernel_str(e->name, sizeof(e->name), name_ptr);
	e->name_len = len > 0 ? (__u32)len : 0;
	bpf_map_update_elem(&inflight, &tid, e, BPF_ANY);
	return 0;
}

/* Return, either way: add the result and send. */
static __always_inline int leave(void *ctx, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, len;
	struct kfunc_event *e;

	e = bpf_map_lookup_elem(&inflight, &tid);
	if (!e)
		return 0;
	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = tid;
	e->ret = (__s32)ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	len = e->name_len;
	if (len > KFUNC_NAME_MAX)	/* read back from memory: bound it */
		len = KFUNC_NAME_MAX;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, KFUNC_HEAD_SIZE + len);
	bpf_map_delete_elem(&inflight, &tid);
	return 0;
}

/* kprobe: the arguments are registers; the pointer is followed with a
 * probe read (BPF_CORE_READ), since nothing tells the verifier its type. */
SEC("kprobe/do_unlinkat")
int BPF_KPROBE(kprobe_entry, int dfd, struct filename *name)
{
	return entry(BPF_CORE_READ(name, name));
}

SEC("kretprobe/do_unlinkat")
int BPF_KRETPROBE(kprobe_return, long ret)
{
	return leave(ctx, ret);
}

/* fentry: the arguments typed from BTF; name->name is a plain load the
 * verifier checks against struct filename. */
SEC("fentry/do_unlinkat")
int BPF_PROG(fentry_entry, int dfd, struct filename *name)
{
	return entry(name->name);
}

/* fexit: the arguments again, then the return value. */
SEC("fexit/do_unlinkat")
int BPF_PROG(fexit_return, int dfd, struct filename *name, long ret)
{
	return leave(ctx, ret);
}
