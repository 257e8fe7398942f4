// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_tab_line.bpf.c - a rejected line with a tab inside it, as code
 * aligned with tabs has: the C line the error quotes must show the tab as
 * spaces, not as the '?' a terminal-safe log makes of a control byte
 * (tests/bats/cli_errors.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} mistake_tab_events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int tab_inside(void *ctx)
{
	__u64 buf[2] = { 1, 2 };

	bpf_perf_event_output(ctx, &mistake_tab_events, 0,	buf, sizeof(buf) + 8);	/* 8 too many */
	return 0;
}
