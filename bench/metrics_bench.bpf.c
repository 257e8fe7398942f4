// SPDX-License-Identifier: GPL-2.0
/*
 * metrics_bench.bpf.c - what metrics_bench measures: a 16-byte record per
 * write(2) of the producer (target_tgid) into a perf buffer, and on the way
 * the maps a metrics scrape reads: a count per key (1,024 keys), a log2
 * histogram, and "big", which user space fills with 100,000 keys to time
 * one scrape of that many series.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;

struct big_key {
	__u32 pid;
	char comm[16];
};

struct lat_hist {
	__u64 slots[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lat_hist);
} gap_ns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 100000);
	__type(key, struct big_key);
	__type(value, __u64);
} big SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_write")
int emit(void *ctx)
{
	__u64 now = bpf_ktime_get_ns(), rec[2] = { now, 0 }, one = 1, *n;
	__u32 key = (__u32)(now >> 10) & 1023, zero = 0, slot = 0;
	struct lat_hist *h;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	/* the low bits of the clock stand for a latency: a spread of slots */
	for (__u64 v = now & 0xfffff; v > 1 && slot < 63; v >>= 1)
		slot++;
	h = bpf_map_lookup_elem(&gap_ns, &zero);
	if (h)
		__sync_fetch_and_add(&h->slots[slot & 63], 1);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, rec, sizeof(rec));
	return 0;
}
