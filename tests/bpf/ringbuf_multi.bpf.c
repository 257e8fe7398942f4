// SPDX-License-Identifier: GPL-2.0
/*
 * ringbuf_multi.bpf.c - two BPF ring buffers for tests/drivers/ringbuf_multi:
 * one consumer reads both (bsdk_ringbuf_add()), and a callback stops a drain.
 *
 * Each getppid() of the target sends {seq, which} to ring_a and to ring_b,
 * seq counting from 1 in each.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} ring_a SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} ring_b SEC(".maps");

const volatile __u32 target_tgid = 0;
__u64 seq;	/* one producer (the driver's thread): no atomics needed */

struct multi_event {
	__u32 seq;
	__u32 which;	/* 'a' or 'b' */
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	struct multi_event e;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	e.seq = (__u32)++seq;
	e.which = 'a';
	bpf_ringbuf_output(&ring_a, &e, sizeof(e), 0);
	e.which = 'b';
	bpf_ringbuf_output(&ring_b, &e, sizeof(e), 0);
	return 0;
}
