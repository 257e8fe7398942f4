// SPDX-License-Identifier: GPL-2.0
/*
 * maps_zero.bpf.c - maps whose size the tool gives (max_entries 0), as
 * cpudist, offcputime and wakeuptime declare them, for
 * tests/bats/twins.bats: `bpfsdk run` sizes them with its default or
 * --max-entries MAP=N. target_pid's getppid() calls are counted in
 * 'zero_arr' at index 5 (an update fails when the array has fewer
 * entries) and in 'zero_hash' under its pid; 'zero_stacks', a stack trace
 * map with no value size either, gets run's stack depth.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 0);
	__type(key, __u32);
	__type(value, __u64);
} zero_arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 0);
	__type(key, __u32);
	__type(value, __u64);
} zero_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 0);
	__uint(key_size, sizeof(__u32));
} zero_stacks SEC(".maps");	/* no value size either: the tool's depth */

const volatile __u32 target_pid;

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_getppid(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, idx = 5;
	__u64 one = 1, *n;

	if (pid != target_pid)
		return 0;
	n = bpf_map_lookup_elem(&zero_arr, &idx);
	if (n)
		__sync_fetch_and_add(n, 1);
	n = bpf_map_lookup_elem(&zero_hash, &pid);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&zero_hash, &pid, &one, BPF_NOEXIST);
	bpf_get_stackid(ctx, &zero_stacks, 0);
	return 0;
}
