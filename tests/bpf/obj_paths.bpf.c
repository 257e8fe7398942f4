// SPDX-License-Identifier: GPL-2.0
/*
 * obj_paths.bpf.c - for tests/unit/test_obj_paths.c: a callback given to
 * bpf_loop() (an ld_imm64 of a .text function: a BSDK_RELO_FUNC
 * relocation), a BPF-to-BPF call, and legacy map definitions of 16 and 28
 * bytes (the oldest struct bpf_map_def, and a later one with three more
 * fields) in two "maps"-style sections the test renames.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sums SEC(".maps");

/* 16 bytes: type, key_size, value_size, max_entries */
struct def16 {
	__u32 type, key_size, value_size, max_entries;
};

/* 28 bytes: and map_flags, inner_map_idx, numa_node */
struct def28 {
	__u32 type, key_size, value_size, max_entries, map_flags, inner_map_idx, numa_node;
};

struct def16 old16 SEC("maps16") = { BPF_MAP_TYPE_ARRAY, 4, 8, 2 };
struct def28 new28 SEC("maps28") = { BPF_MAP_TYPE_ARRAY, 4, 16, 3, 0, 0, 0 };

static __attribute__((noinline)) long add_one(__u32 i, void *ctx)
{
	*(__u64 *)ctx += i;
	return 0;
}

__attribute__((noinline)) int twice(int x)
{
	return x * 2;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int loop_sum(void *ctx)
{
	__u32 key = 0;
	__u64 sum = 0, *v;

	bpf_loop(10, add_one, &sum, 0);
	v = bpf_map_lookup_elem(&sums, &key);
	if (v)
		*v = sum + (__u64)twice((int)sum);
	return 0;
}
