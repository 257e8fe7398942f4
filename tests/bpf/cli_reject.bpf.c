// SPDX-License-Identifier: GPL-2.0
/*
 * cli_reject.bpf.c - a program the verifier must reject, for
 * tests/bats/cli_errors.bats: it hands bpf_perf_event_output() 8 bytes
 * more than its stack buffer holds, a read past what the program wrote.
 * `bpfsdk run` must exit 1 and show why (and the C line below, when the
 * loader passes line info).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int read_past_buffer(void *ctx)
{
	__u64 buf[2] = { 1, 2 };

	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, buf, sizeof(buf) + 8);
	return 0;
}
