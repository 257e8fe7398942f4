// SPDX-License-Identifier: GPL-2.0
/*
 * cli_nolicense.bpf.c - an object without a "license" section, for
 * tests/bats/cli_inspect.bats: inspect must say so. It calls no GPL-only
 * helper, so the kernel would still load it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counter SEC(".maps");

SEC("raw_tp/sys_enter")
int count_syscalls(void *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&counter, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
