// SPDX-License-Identifier: GPL-2.0
/*
 * cli_syshdr.bpf.c - a program written against the system's libbpf headers
 * (<bpf/bpf_helpers.h> from libbpf-dev), not bpfsdk's include/: the loader
 * must take what libbpf users write. tests/bats/cli_syshdr.bats compiles
 * it without bpfsdk's -Iinclude and checks which header clang used.
 *
 * Record: { pid, 0xfeedbeef } from each getppid() of target_pid.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

const volatile int target_pid = 0;

struct event {
	int pid;
	unsigned int magic;
};

SEC("tp/syscalls/sys_enter_getppid")
int handle_getppid(void *ctx)
{
	int pid = bpf_get_current_pid_tgid() >> 32;
	struct event e = { .pid = pid, .magic = 0xfeedbeef };

	if (pid != target_pid)
		return 0;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
