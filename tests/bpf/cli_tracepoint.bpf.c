// SPDX-License-Identifier: GPL-2.0
/*
 * cli_tracepoint.bpf.c - a tracepoint program that reads its context, for
 * tests/bats/cli_run.bats: syscalls/sys_enter_getpgid through the short
 * "tp/" prefix. The driver calls getpgid(START + i); the records carry the
 * argument the kernel saw, so the test checks the program read the right
 * field of the right event.
 *
 * Record: { pid, syscall number, getpgid's argument }
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

/* The layout of /sys/kernel/tracing/events/syscalls/sys_enter_getpgid/
 * format: the common fields, the syscall number, then the argument. */
struct sys_enter_getpgid_ctx {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
	__s32 syscall_nr;
	__u32 pad;
	__u64 pid;
};

struct cli_tracepoint_event {
	__u32 pid;
	__s32 syscall_nr;
	__u64 arg;
};

SEC("tp/syscalls/sys_enter_getpgid")
int read_getpgid_arg(struct sys_enter_getpgid_ctx *ctx)
{
	struct cli_tracepoint_event e;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	e.pid = pid;
	e.syscall_nr = ctx->syscall_nr;
	e.arg = ctx->pid;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
