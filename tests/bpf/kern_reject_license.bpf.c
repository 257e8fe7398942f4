// SPDX-License-Identifier: GPL-2.0
/*
 * kern_reject_license.bpf.c - must be rejected by the verifier: a program
 * whose license is not GPL-compatible calls bpf_perf_event_output(), which
 * became GPL-only after the review of the patch that added it ("All the
 * perf symbols are export GPL"). The program is otherwise the same as a
 * valid one.
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
int kern_not_gpl(void *ctx)
{
	__u64 data = 0x12345678;

	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &data, sizeof(data));
	return 0;
}
