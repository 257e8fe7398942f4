// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_ringbuf_perf.bpf.c - bpf_ringbuf_reserve() on a perf event array:
 * the verifier says "cannot pass map_type 4 into func
 * bpf_ringbuf_reserve#131"; the hint names both types
 * (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} mistake_perf_events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int reserve_on_perf(void *ctx)
{
	__u64 *e = bpf_ringbuf_reserve(&mistake_perf_events, sizeof(*e), 0);

	if (!e)
		return 0;
	*e = bpf_get_current_pid_tgid();
	bpf_ringbuf_submit(e, 0);
	return 0;
}
