// SPDX-License-Identifier: GPL-2.0
/*
 * fault_run.bpf.c - an object for the fault walk of `bpfsdk run` (tests/
 * faults/): each epoll wait of target_pid - the run itself, --set
 * target_pid= - sends a record and counts itself in a hash map, so that
 * the run feeds itself records at full rate with no other process, and
 * --count N ends it after exactly N. flt_run_pin, pinned by name, counts
 * every record across runs: a run killed with SIGKILL leaves exactly that
 * pin, and the next run reuses it. Names start with flt_.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "fault_events.h"

char LICENSE[] SEC("license") = "GPL";

BPFSDK_RECORD(fault_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} flt_run_ev SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} flt_run_hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} flt_run_pin SEC(".maps");

const volatile __u32 target_pid = 0;
__u64 flt_run_seq;

static __always_inline int send(void *ctx, __u32 which)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct fault_event e = {};
	__u32 zero = 0;
	__u64 one = 1, *n;

	if (pid != target_pid)
		return 0;
	n = bpf_map_lookup_elem(&flt_run_pin, &zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	n = bpf_map_lookup_elem(&flt_run_hits, &which);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&flt_run_hits, &which, &one, BPF_NOEXIST);
	e.pid = pid;
	e.seq = (__u32)__sync_add_and_fetch(&flt_run_seq, 1);
	e.value = which;
	bpf_perf_event_output(ctx, &flt_run_ev, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("tp/syscalls/sys_enter_epoll_wait")
int flt_run_wait(void *ctx)
{
	return send(ctx, 1);
}

SEC("tp/syscalls/sys_enter_epoll_pwait")
int flt_run_pwait(void *ctx)
{
	return send(ctx, 2);
}
