// SPDX-License-Identifier: GPL-2.0
/*
 * obj_reject.bpf.c - must be rejected by the verifier: it reads a map
 * value without checking the lookup for NULL (a hash map: lookups in an
 * array with a constant key in range are known not to fail). The loader's message must
 * name this file and the line of the dereference.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} values SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int read_unchecked(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&values, &key);

	return *v == 42;	/* REJECTED HERE: v may be NULL */
}
