// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_no_license.bpf.c - a newcomer's program without a license that
 * calls bpf_perf_event_output(), which the kernel offers only to
 * GPL-compatible programs. tests/bats/cli_errors.bats checks that run
 * prints the line that fixes it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} mistake_out SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int send_pid(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	bpf_perf_event_output(ctx, &mistake_out, BPF_F_CURRENT_CPU, &pid, sizeof(pid));
	return 0;
}
