// SPDX-License-Identifier: GPL-2.0
/*
 * opensnoop.bpf.c - report every openat(2): who opened which path with
 * which flags, and what the call returned.
 *
 * Two tracepoints and a hash map between them:
 *
 *   sys_enter_openat   keep the arguments, keyed by the calling thread
 *   sys_exit_openat    take them back, read the path from user memory, add
 *                      the result, send one record with
 *                      bpf_perf_event_output()
 *
 * Why not send everything at entry? The result is only known at exit, and
 * the path is safer to read at exit too: bpf_probe_read_user_str() cannot
 * take a page fault, so it fails with -EFAULT on a path whose page is not
 * in memory yet - common at entry (a string in a program's data that
 * nothing has touched), impossible at exit, because the kernel has just
 * copied the path itself and so faulted the page in.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "opensnoop.h"

/* GPL: bpf_perf_event_output() and bpf_probe_read_user_str() are GPL-only
 * helpers. */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/*
 * The records of the two tracepoints, declared field by field from their
 * format files in tracefs:
 *
 *   /sys/kernel/tracing/events/syscalls/sys_enter_openat/format
 *   /sys/kernel/tracing/events/syscalls/sys_exit_openat/format
 *
 * The first 8 bytes are common to every tracepoint. Then the syscall number,
 * and then each argument in its own 8-byte slot, whatever its C type: the
 * format says "int dfd; offset:16; size:8", because the kernel stores the
 * register the argument came in. So dfd and flags are read as 64 bits and
 * cut to the int the syscall takes. The asserts turn a typo into a build
 * error instead of a program that reads the wrong field.
 */
struct sys_enter_openat_args {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
	__s32 __syscall_nr;
	__u32 __pad;			/* the arguments are 8-byte aligned */
	__u64 dfd;
	const char *filename;		/* a pointer into user memory */
	__u64 flags;
	__u64 mode;
};
_Static_assert(__builtin_offsetof(struct sys_enter_openat_args, dfd) == 16, "dfd");
_Static_assert(__builtin_offsetof(struct sys_enter_openat_args, filename) == 24, "filename");
_Static_assert(__builtin_offsetof(struct sys_enter_openat_args, flags) == 32, "flags");

struct sys_exit_openat_args {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
	__s32 __syscall_nr;
	__u32 __pad;
	__s64 ret;			/* the new fd or -errno */
};
_Static_assert(__builtin_offsetof(struct sys_exit_openat_args, ret) == 16, "ret");

/* What entry keeps for exit. */
struct openat_call {
	const char *filename;
	__s32 flags;
	__s32 dfd;
};

/* Calls in flight, keyed by pid_tgid: one entry per thread, because a
 * thread is in at most one system call at a time, while the threads of a
 * process may all be in openat() at once. Room for 10240 threads inside
 * openat() at the same moment; when full, update fails and that call goes
 * unreported. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct openat_call);
} inflight SEC(".maps");

/* Where the record is built: at 4152 bytes it does not fit on the 512-byte
 * BPF stack, so it lives in a one-slot per-CPU array (a program cannot be
 * interrupted by another on the same CPU, so the slot is ours). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct opensnoop_event);
} scratch SEC(".maps");

BPFSDK_RECORD(opensnoop_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* Set by user space before load (--pid); 0 traces every process. In
 * .rodata, so the verifier knows the value and prunes the dead branch. */
const volatile __u32 target_tgid = 0;

SEC("tracepoint/syscalls/sys_enter_openat")
int openat_enter(struct sys_enter_openat_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct openat_call call = {};

	/* Filter as early as possible: a process we do not trace costs one
	 * comparison, and no map entry. */
	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	call.filename = ctx->filename;
	call.flags = (__s32)ctx->flags;
	call.dfd = (__s32)ctx->dfd;
	bpf_map_update_elem(&inflight, &id, &call, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_openat")
int openat_exit(struct sys_exit_openat_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct opensnoop_event *e;
	struct openat_call *call;
	__u32 zero = 0;
	long len;

	/* No entry: a process we filtered out, or a call that began before
	 * we attached. */
	call = bpf_map_lookup_elem(&inflight, &id);
	if (!call)
		return 0;
	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		goto out;

	e->ts_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->flags = call->flags;
	e->dfd = call->dfd;
	e->ret = (__s32)ctx->ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));

	/* The length of the string read, with its NUL, or -errno. Never more
	 * than the buffer: a longer path is cut (the kernel refuses paths
	 * that long with ENAMETOOLONG anyway). */
	len = bpf_probe_read_user_str(e->path, sizeof(e->path), call->filename);
	if (len < 0) {
		e->path_err = (__s32)len;
		len = 0;
	} else {
		e->path_err = 0;
	}
	/*
	 * The verifier checks that [e, e + size) stays inside the map value,
	 * so it must be able to bound size from the code alone, at both ends:
	 *  - below: a size that may be negative is refused ("R5 min value is
	 *    negative") - the test above rules that out;
	 *  - above: the verifier knows that the *_str helpers return at most
	 *    their size argument, so len <= 4096 already. A length from
	 *    anywhere else - read back from memory, say - would be a number
	 *    it knows nothing about ("R5 unbounded memory access"). The test
	 *    below costs one instruction and keeps the bound visible in the
	 *    source whatever the length's origin or the kernel's age.
	 */
	if (len > OPENSNOOP_PATH_MAX)
		len = OPENSNOOP_PATH_MAX;
	e->path_len = (__s32)len;

	/* Variable length: the head and the bytes of the path, no more. */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e,
			      OPENSNOOP_HEAD_SIZE + len);
out:
	bpf_map_delete_elem(&inflight, &id);
	return 0;
}
