// SPDX-License-Identifier: GPL-2.0
/*
 * obj_pin.bpf.c - a map pinned by name: the second load of this object
 * must reuse the map the first one pinned under /sys/fs/bpf.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bsdk_test_pinned SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_getppid(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&bsdk_test_pinned, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
