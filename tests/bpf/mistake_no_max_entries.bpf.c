// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_no_max_entries.bpf.c - a newcomer's hash map without
 * max_entries: the kernel refuses a map of no entries. The library's
 * message says to give it a size (tests/bats/cli_errors.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
} mistake_by_pid SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_pid(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1;

	bpf_map_update_elem(&mistake_by_pid, &pid, &one, BPF_ANY);
	return 0;
}
