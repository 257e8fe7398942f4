// SPDX-License-Identifier: GPL-2.0
/*
 * stream_hist.bpf.c - an object that streams records and keeps a
 * histogram, as a libbpf user's first tool does: each getpgid(ARG) of
 * process target_tgid sends ARG through a ring buffer and adds one to the
 * log2(ARG) slot of a one-entry array of "slots"; a hash map holds working
 * state (the last ARG per pid). run shows the histogram at the end and
 * serves it with --metrics, and names the working map it leaves out
 * (tests/bats/run_maps.bats, metrics.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_SLOTS 24

struct stream_hist_slots {
	__u64 slots[MAX_SLOTS];
};

struct stream_hist_event {
	__u32 pid;
	__u32 arg;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} stream_hist_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stream_hist_slots);
} stream_hist_args SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} stream_hist_last SEC(".maps");

const volatile __u32 target_tgid;

SEC("tracepoint/syscalls/sys_enter_getpgid")
int stream_hist(struct { __u64 pad; __s64 nr; __u64 pid; } *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0, arg = (__u32)ctx->pid, slot = 0;
	struct stream_hist_slots *h;
	struct stream_hist_event *e;

	if (tgid != target_tgid)
		return 0;
	bpf_map_update_elem(&stream_hist_last, &tgid, &arg, BPF_ANY);
	for (__u32 v = arg; v > 1 && slot < MAX_SLOTS - 1; v >>= 1)
		slot++;
	h = bpf_map_lookup_elem(&stream_hist_args, &zero);
	if (h && slot < MAX_SLOTS)
		__sync_fetch_and_add(&h->slots[slot], 1);
	e = bpf_ringbuf_reserve(&stream_hist_events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = tgid;
	e->arg = arg;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
