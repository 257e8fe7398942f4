// SPDX-License-Identifier: GPL-2.0
/*
 * cli_legacy.bpf.c - the 2015 style for tests/bats/cli_run.bats: maps as
 * struct bpf_map_def records in the "maps" section, read from the
 * section's bytes (libbpf 1.0 no longer loads these). A perf event array
 * with max_entries 0, which the loader sizes to the CPUs, and a one-slot
 * array counting the target's calls.
 *
 * Record: { pid, count } with count 1, 2, 3, ...
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct bpf_map_def SEC("maps") events = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 0,
};

struct bpf_map_def SEC("maps") counter = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1,
};

const volatile __u32 target_pid = 0;

struct cli_legacy_event {
	__u32 pid;
	__u32 pad;
	__u64 count;
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_legacy(void *ctx)
{
	struct cli_legacy_event e = {};
	__u32 pid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	__u64 *n;

	if (pid != target_pid)
		return 0;
	n = bpf_map_lookup_elem(&counter, &zero);
	if (!n)
		return 0;
	e.pid = pid;
	e.count = __sync_add_and_fetch(n, 1);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
