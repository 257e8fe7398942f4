// SPDX-License-Identifier: GPL-2.0
/*
 * map_ops.bpf.c - maps for tests/unit/test_map_ops.c, which reads and
 * writes them from user space: a hash map, a per-CPU array, a per-CPU hash
 * whose 12-byte value the kernel pads to 16 per CPU, an array, an LPM trie,
 * a program array (a map type without BPF_MAP_LOOKUP_BATCH, so the batch
 * call falls back to key-by-key) and a queue (no keys). The program only
 * has to load.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct triple {
	__u32 a, b, c;
};

struct lpm_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct triple);
} pcpu_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 40);
	__type(key, __u32);
	__type(value, __u32);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_key);
	__type(value, __u64);
} trie SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} progs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4);
	__type(value, __u32);
} queue SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int count_getpid(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&pcpu_array, &key);

	if (v)
		(*v)++;
	return 0;
}
