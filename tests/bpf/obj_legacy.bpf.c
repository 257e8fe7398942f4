// SPDX-License-Identifier: GPL-2.0
/*
 * obj_legacy.bpf.c - the 2015 style: maps in the legacy "maps" section as
 * struct bpf_map_def records, a raw tracepoint program. The unit tests use
 * it to check the legacy parser and to craft a 'maps' section of a bad
 * size.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct bpf_map_def SEC("maps") legacy_events = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 0,
};

struct bpf_map_def SEC("maps") legacy_counts = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1,
};

SEC("raw_tracepoint/sys_enter")
int on_sys_enter(void *ctx)
{
	__u32 key = 0;
	__u64 *count = bpf_map_lookup_elem(&legacy_counts, &key);

	if (count)
		__sync_fetch_and_add(count, 1);
	bpf_perf_event_output(ctx, &legacy_events, BPF_F_CURRENT_CPU, &key,
			      sizeof(key));
	return 0;
}
