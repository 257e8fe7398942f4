// SPDX-License-Identifier: GPL-2.0
/*
 * profile.bpf.c - a sampling CPU profiler: at each tick of a CPU-clock
 * perf event, note what was running and the stacks it was running on.
 *
 * User space opens one sampling event per CPU (perf_event_open, cpu-clock,
 * HZ samples a second) and attaches this program to each. On every sample
 * the program asks the kernel for the current stacks with
 * bpf_get_stackid(): the kernel walks them (the user stack by its frame
 * pointers), stores each distinct stack once in a BPF_MAP_TYPE_STACK_TRACE
 * map and returns its id. The program then counts (pid, user stack, kernel
 * stack) in a hash map. User space reads both maps at the end and turns
 * the addresses into names.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "profile.h"

/* GPL: bpf_get_stackid() is a GPL-only helper. */
char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;	/* 0: every process */
const volatile __u8 include_idle = 0;	/* count the idle task too */

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, PROFILE_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct profile_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("perf_event")
int do_sample(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), one = 1, *count;
	struct profile_key key = {};

	key.pid = id >> 32;
	if (!(__u32)id && !include_idle)
		return 0;	/* thread 0: the CPU was idle */
	if (target_tgid && key.pid != target_tgid)
		return 0;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	/* A kernel thread has no user stack: -EFAULT, kept as such. */
	key.user_stack = (__s32)bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	key.kernel_stack = (__s32)bpf_get_stackid(ctx, &stacks, 0);

	count = bpf_map_lookup_elem(&counts, &key);
	if (count)
		__sync_fetch_and_add(count, 1);
	else
		/* Another CPU may create it first: then add to its count. */
		if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST) &&
		    (count = bpf_map_lookup_elem(&counts, &key)))
			__sync_fetch_and_add(count, 1);
	return 0;
}
