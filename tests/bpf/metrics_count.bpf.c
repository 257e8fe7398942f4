// SPDX-License-Identifier: GPL-2.0
/*
 * metrics_count.bpf.c - what tests/bats/metrics.bats exports to Prometheus:
 * the clock_nanosleep() calls of one process (target_tgid), counted by
 * {pid, comm}, and how long each slept, in a log2 histogram of
 * microseconds per pid; a record per call on a perf buffer; and two maps
 * whose keys no label can hold as they are (a union, an array).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;

struct call_key {
	__u32 pid;
	char comm[16];
};

/* BCC's log2 histogram: slot 0 holds 0 and 1 us, slot k [2^k, 2^(k+1) - 1] */
struct sleep_hist {
	__u64 slots[32];
	__u64 sum;		/* microseconds, the histogram's _sum */
};

union either {
	__u32 pid;
	__u8 bytes[4];
};

struct pair_key {
	__u32 ids[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct call_key);
	__type(value, __u64);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct sleep_hist);
} sleep_us SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, union either);
	__type(value, __u64);
} by_union SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct pair_key);
	__type(value, __u64);
} by_pair SEC(".maps");

/* when each thread of the target went to sleep: tid -> ns */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* The slot of v: floor(log2(v)), 0 for 0 and 1, at most 31 */
static __always_inline __u32 slot_of(__u64 v)
{
	__u32 slot = 0;

	for (int i = 0; i < 31 && v > 1; i++) {
		v >>= 1;
		slot++;
	}
	return slot;
}

static __always_inline void add(void *map, const void *key)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(map, key);

	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(map, key, &one, BPF_NOEXIST);
}

SEC("tracepoint/syscalls/sys_enter_clock_nanosleep")
int enter_sleep(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 tid = (__u32)id;

	if ((__u32)(id >> 32) != target_tgid)
		return 0;
	bpf_map_update_elem(&start, &tid, &now, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_clock_nanosleep")
int exit_sleep(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), *t, us;
	__u32 tid = (__u32)id, pid = (__u32)(id >> 32), slot;
	struct call_key key = { .pid = pid };
	union either u = { .pid = pid };
	struct pair_key pk = { .ids = { pid, tid } };
	struct sleep_hist zero = {}, *h;

	if (pid != target_tgid)
		return 0;
	t = bpf_map_lookup_elem(&start, &tid);
	if (!t)
		return 0;
	us = (bpf_ktime_get_ns() - *t) / 1000;
	bpf_map_delete_elem(&start, &tid);

	bpf_get_current_comm(key.comm, sizeof(key.comm));
	add(&calls, &key);
	add(&by_union, &u);
	add(&by_pair, &pk);

	h = bpf_map_lookup_elem(&sleep_us, &pid);
	if (!h) {
		bpf_map_update_elem(&sleep_us, &pid, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&sleep_us, &pid);
		if (!h)
			return 0;
	}
	slot = slot_of(us);
	__sync_fetch_and_add(&h->slots[slot & 31], 1);
	__sync_fetch_and_add(&h->sum, us);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &us, sizeof(us));
	return 0;
}
