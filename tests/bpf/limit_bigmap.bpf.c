// SPDX-License-Identifier: GPL-2.0
/*
 * limit_bigmap.bpf.c - an array of 2^28 entries of 4 KiB (1 TiB), more than any
 * kernel gives (tests/bats/privilege.bats): creating it must fail with one
 * error that names max_entries and how to lower it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct big_value {
	char bytes[4096];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1u << 28);
	__type(key, __u32);
	__type(value, struct big_value);
} limit_big SEC(".maps");

SEC("tp/syscalls/sys_enter_getppid")
int limit_touch(void *ctx)
{
	__u32 key = 0;
	struct big_value *v = bpf_map_lookup_elem(&limit_big, &key);

	if (v)
		v->bytes[0]++;
	return 0;
}
