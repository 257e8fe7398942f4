// SPDX-License-Identifier: GPL-2.0
/*
 * payload.bpf.c - on every write(2) of the traced process, copy the first
 * bytes of the buffer it writes and send them to user space in a record
 * sized to what was copied.
 *
 * One tracepoint, syscalls/sys_enter_write: at entry the buffer holds what
 * the process is about to write, and the process has just filled it, so its
 * pages are in memory and bpf_probe_read_user() (which cannot take a page
 * fault) finds them.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "payload.h"

/* GPL: bpf_perf_event_output() and bpf_probe_read_user() are GPL-only. */
char LICENSE[] SEC("license") = "GPL";

#ifndef BPFSDK_RECORD		/* bpfsdk's own; absent from libbpf's headers */
#define BPFSDK_RECORD(name)
#endif

/* From /sys/kernel/tracing/events/syscalls/sys_enter_write/format: each
 * argument in an 8-byte slot after the common fields and the number. */
struct sys_enter_write_args {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
	__s32 __syscall_nr;
	__u32 __pad;
	__u64 fd;
	const void *buf;		/* a pointer into user memory */
	__u64 count;
};
_Static_assert(__builtin_offsetof(struct sys_enter_write_args, fd) == 16, "fd");
_Static_assert(__builtin_offsetof(struct sys_enter_write_args, buf) == 24, "buf");
_Static_assert(__builtin_offsetof(struct sys_enter_write_args, count) == 32, "count");

/* Set by user space before load: the process (0: any), the command name
 * ("": any) and how many bytes to keep of each write. In .rodata, so the
 * verifier sees constants and drops the filters that are off. */
const volatile __u32 target_tgid = 0;
const volatile char target_comm[PAYLOAD_COMM_LEN] = {};
const volatile __u32 snap_len = 256;

/* The record is built here: at 4152 bytes it does not fit on the 512-byte
 * stack. One slot per CPU; nothing else runs on this CPU while we do. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct payload_event);
} scratch SEC(".maps");

BPFSDK_RECORD(payload_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_write")
int write_enter(struct sys_enter_write_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct payload_event *e;
	__u32 zero = 0;
	__u64 len;
	long err;

	if (target_tgid && (__u32)(id >> 32) != target_tgid)
		return 0;
	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (target_comm[0]) {
		for (int i = 0; i < PAYLOAD_COMM_LEN; i++) {
			if (e->comm[i] != target_comm[i])
				return 0;
			if (!e->comm[i])
				break;
		}
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->count = ctx->count;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->fd = (__s32)ctx->fd;
	e->pad = 0;

	/*
	 * The verifier must see that [data, data + len) stays inside the map
	 * value: len comes from the caller, so bound it here, with a test it
	 * can follow, whatever snap_len is.
	 */
	len = ctx->count < snap_len ? ctx->count : snap_len;
	if (len > PAYLOAD_SNAP_MAX)
		len = PAYLOAD_SNAP_MAX;
	err = bpf_probe_read_user(e->data, len, ctx->buf);
	if (err < 0)
		len = 0;
	e->err = (__s32)err;
	e->len = (__u32)len;

	/* Variable length: the head and len bytes. The kernel adds a 4-byte
	 * size in front and pads the whole to 8 bytes; it does not tell the
	 * reader how much of that is padding, so len is in the head. */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, PAYLOAD_HEAD_SIZE + len);
	return 0;
}
