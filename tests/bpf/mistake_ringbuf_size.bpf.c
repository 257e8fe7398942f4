// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_ringbuf_size.bpf.c - a newcomer's ring buffer of 100000 bytes:
 * the kernel takes only a power of two pages. tests/bats/cli_errors.bats
 * checks that the error names the map type and the rule, with a size
 * that would do.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 100000);
} mistake_events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int send_one(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	bpf_ringbuf_output(&mistake_events, &pid, sizeof(pid), 0);
	return 0;
}
