// SPDX-License-Identifier: GPL-2.0
/*
 * decode_ambiguous.bpf.c - two programs send two different structs into one
 * map, each from a local: no one type is the records'. bpfsdk run prints
 * them as hex and names both candidates; --type chooses one
 * (tests/bats/run_decode.bats).
 */
#include "decode_common.h"

struct pgid_event {
	__u32 pid;
	__u32 arg;
};

struct ppid_event {
	__u32 pid;
	__u32 calls;
	__u64 when;
};

SEC("tracepoint/syscalls/sys_enter_getpgid")
int amb_getpgid(struct sys_enter *ctx)
{
	struct pgid_event e = {};

	e.pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	if (e.pid != target_pid)
		return 0;
	e.arg = (__u32)ctx->args[0];
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int amb_getppid(void *ctx)
{
	struct ppid_event e = {};

	e.pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	if (e.pid != target_pid)
		return 0;
	e.calls = 1;
	e.when = bpf_ktime_get_ns();
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
