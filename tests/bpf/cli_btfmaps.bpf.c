// SPDX-License-Identifier: GPL-2.0
/*
 * cli_btfmaps.bpf.c - BTF-defined maps for tests/bats/cli_run.bats: the
 * perf event array and a hash map keyed by pid whose key and value types
 * come from BTF (__type), not from sizes.
 *
 * Record: { pid, calls } where calls is the hash map's count for the pid
 * after this call: 1, 2, 3, ... when the map works.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} calls SEC(".maps");

const volatile __u32 target_pid = 0;

struct cli_btfmaps_event {
	__u32 pid;
	__u32 pad;
	__u64 calls;
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_in_hash(void *ctx)
{
	struct cli_btfmaps_event e = {};
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n;

	if (pid != target_pid)
		return 0;
	n = bpf_map_lookup_elem(&calls, &pid);
	if (n) {
		e.calls = __sync_add_and_fetch(n, 1);
	} else {
		bpf_map_update_elem(&calls, &pid, &one, BPF_NOEXIST);
		e.calls = 1;
	}
	e.pid = pid;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
