// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli_proprietary.bpf.c - a non-GPL license with a GPL-only helper, for
 * tests/bats/cli_inspect.bats and cli_errors.bats: inspect must warn, and
 * the kernel refuses to load the program.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Proprietary";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int gpl_helper_without_gpl(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &pid_tgid,
			      sizeof(pid_tgid));
	return 0;
}
