// SPDX-License-Identifier: GPL-2.0
/*
 * cli_subprog.bpf.c - BPF-to-BPF calls for tests/bats/cli_run.bats: two
 * __noinline functions in .text that the loader must append to the
 * program and whose call offsets it must fix. emit() also holds a map
 * relocation of its own (&events), so relocations inside subprograms are
 * covered too.
 *
 * Record: { pid, mix(pid) } with mix(x) = (x ^ 0x5a5a5a5a) * 3 + 7, which
 * the test recomputes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid = 0;

struct cli_subprog_event {
	__u32 pid;
	__u32 mixed;
};

static __noinline __u32 mix(__u32 x)
{
	return (x ^ 0x5a5a5a5a) * 3 + 7;
}

static __noinline int emit(void *ctx, struct cli_subprog_event *e)
{
	return bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e,
				     sizeof(*e));
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int call_subprogs(void *ctx)
{
	struct cli_subprog_event e;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	e.pid = pid;
	e.mixed = mix(pid);
	emit(ctx, &e);
	return 0;
}
