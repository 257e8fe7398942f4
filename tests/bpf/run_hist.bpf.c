// SPDX-License-Identifier: GPL-2.0
/*
 * run_hist.bpf.c - results kept in maps, the way BCC's tools keep them, for
 * tests/bats/run_maps.bats: a log2 histogram (struct hist with a "slots"
 * array, in a hash map) and a count per key. The driver calls
 * getpgid(START + i); each call of process target_pid adds one to the slot
 * of log2(argument) and one to the count of argument % 4.
 *
 * No perf event map: `bpfsdk run` shows the maps when the run ends and
 * every --interval.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_SLOTS 26

struct hist {
	__u32 slots[MAX_SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hist);
} latency_us SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

const volatile __u32 target_pid = 0;

struct sys_enter_getpgid_ctx {
	__u64 common;		/* type, flags, preempt count, pid */
	__s32 syscall_nr;
	__u32 pad;
	__u64 pid;
};

static __always_inline __u32 log2l(__u64 v)
{
	__u32 r = 0;

	for (int i = 0; i < 63 && v > 1; i++) {
		v >>= 1;
		r++;
	}
	return r;
}

SEC("tp/syscalls/sys_enter_getpgid")
int count_getpgid(struct sys_enter_getpgid_ctx *ctx)
{
	static const struct hist zero;
	__u32 key = 0, slot, mod;
	struct hist *h;
	__u64 *c, one = 1;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	h = bpf_map_lookup_elem(&latency_us, &key);
	if (!h) {
		bpf_map_update_elem(&latency_us, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&latency_us, &key);
		if (!h)
			return 0;
	}
	slot = log2l(ctx->pid);
	if (slot >= MAX_SLOTS)
		slot = MAX_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[slot], 1);

	mod = ctx->pid % 4;
	c = bpf_map_lookup_elem(&counts, &mod);
	if (c)
		(*c)++;
	else
		bpf_map_update_elem(&counts, &mod, &one, BPF_NOEXIST);
	return 0;
}
