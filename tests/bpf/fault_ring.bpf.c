// SPDX-License-Identifier: GPL-2.0
/*
 * fault_ring.bpf.c - a ring buffer object for the fault walk
 * (tests/faults/): a record reserved and submitted on each getppid() of
 * target_pid. Names start with flt_.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "fault_events.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} flt_ring SEC(".maps");

const volatile __u32 target_pid = 0;
__u64 flt_ring_seq;

SEC("tp/syscalls/sys_enter_getppid")
int flt_ring_tp(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct fault_event *e;

	if (pid != target_pid)
		return 0;
	e = bpf_ringbuf_reserve(&flt_ring, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = pid;
	e->seq = (__u32)__sync_add_and_fetch(&flt_ring_seq, 1);
	e->value = 0;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
