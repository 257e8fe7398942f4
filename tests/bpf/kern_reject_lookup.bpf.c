// SPDX-License-Identifier: GPL-2.0
/*
 * kern_reject_lookup.bpf.c - must be rejected by the verifier: it passes a
 * PERF_EVENT_ARRAY to bpf_map_lookup_elem(). Such a map holds perf events,
 * not values a program may read; only the perf helpers may take it (the
 * other direction of the compatibility check).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 4);
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int kern_lookup_events(void *ctx)
{
	__u32 key = 0;
	__u32 *fd;

	fd = bpf_map_lookup_elem(&events, &key);
	return fd ? *fd : 0;
}
