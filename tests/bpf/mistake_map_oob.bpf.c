// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_map_oob.bpf.c - a read past the end of a map value: an array of
 * 4-byte values read at index 7 of a __u32[8] view. The verifier's first
 * line, "invalid access to map value, value_size=4 off=28 size=4", is the
 * one that explains it (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} mistake_small SEC(".maps");

__u32 seen;

SEC("tracepoint/syscalls/sys_enter_getppid")
int read_past_value(void *ctx)
{
	__u32 zero = 0, *v = bpf_map_lookup_elem(&mistake_small, &zero);

	if (v)
		seen = ((volatile __u32 *)v)[7];
	return 0;
}
