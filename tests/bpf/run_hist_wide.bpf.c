// SPDX-License-Identifier: GPL-2.0
/*
 * run_hist_wide.bpf.c - a per-CPU log2 histogram whose value holds 40
 * integers before its "slots", for tests/bats/run_maps.bats: `bpfsdk run`'s
 * chart and --metrics must both hold every CPU's counts. The driver calls
 * getpgid(START + i); each call of process target_pid adds one to the slot
 * of log2(argument) and to calls, on the CPU it runs on.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_SLOTS 16
#define FIELDS(p) __u32 p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9;

struct wide {
	__u64 calls;
	FIELDS(a)		/* integers the view sums too: 40 of them and calls */
	FIELDS(b)
	FIELDS(c)
	FIELDS(d)
	__u64 slots[MAX_SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wide);
} wide_us SEC(".maps");

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
int count_wide(struct sys_enter_getpgid_ctx *ctx)
{
	static const struct wide zero;
	__u32 key = 0, slot;
	struct wide *w;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	w = bpf_map_lookup_elem(&wide_us, &key);
	if (!w) {
		bpf_map_update_elem(&wide_us, &key, &zero, BPF_NOEXIST);
		w = bpf_map_lookup_elem(&wide_us, &key);
		if (!w)
			return 0;
	}
	slot = log2l(ctx->pid);
	if (slot >= MAX_SLOTS)
		slot = MAX_SLOTS - 1;
	w->slots[slot]++;	/* this CPU's value: no other writer */
	w->calls++;
	return 0;
}
