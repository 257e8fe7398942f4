// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_null_check.bpf.c - the pointer bpf_map_lookup_elem() returned,
 * written through without checking it for NULL: "R0 invalid mem access
 * 'map_value_or_null'" (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} mistake_calls SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int no_null_check(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 *count = bpf_map_lookup_elem(&mistake_calls, &pid);

	*count += 1;
	return 0;
}
