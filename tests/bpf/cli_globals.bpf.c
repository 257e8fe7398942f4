// SPDX-License-Identifier: GPL-2.0
/*
 * cli_globals.bpf.c - global data for tests/bats/cli_run.bats: a
 * `const volatile` filter in .rodata that `bpfsdk run --set` configures, a
 * cookie with an initial value in .data and a counter in .bss.
 *
 * On each getppid() of the process target_pid it sends
 * { pid, cookie, hits } where hits counts that process's calls so far:
 * the records prove the filter held (only that pid), that .data arrived
 * with its initial value (or the one --set gave), and that .bss started at
 * zero and is writable (hits runs 1, 2, 3, ...).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid = 0;	/* .rodata: set before load */
__u32 cookie = 0xc0ffee01;		/* .data */
__u64 hits;				/* .bss */

struct cli_globals_event {
	__u32 pid;
	__u32 cookie;
	__u64 hits;
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_getppid(void *ctx)
{
	struct cli_globals_event e;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	e.pid = pid;
	e.cookie = cookie;
	e.hits = __sync_add_and_fetch(&hits, 1);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
