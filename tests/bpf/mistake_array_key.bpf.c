// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_array_key.bpf.c - a newcomer's array keyed by a 64-bit pid: an
 * array's key is its 4-byte index. tests/bats/cli_errors.bats checks the
 * rule in the error.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, __u64);
} mistake_counts SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_one(void *ctx)
{
	__u64 key = 0, *v = bpf_map_lookup_elem(&mistake_counts, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
