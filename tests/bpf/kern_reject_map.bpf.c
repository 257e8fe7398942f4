// SPDX-License-Identifier: GPL-2.0
/*
 * kern_reject_map.bpf.c - must be rejected by the verifier: it passes an
 * ARRAY map to bpf_perf_event_output(), which takes only a
 * PERF_EVENT_ARRAY (the func/map compatibility check patch 2 extended).
 * Everything else is valid, so that is the only reason to reject it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} not_events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int kern_wrong_map(void *ctx)
{
	__u64 data = 0x12345678;

	bpf_perf_event_output(ctx, &not_events, BPF_F_CURRENT_CPU, &data, sizeof(data));
	return 0;
}
