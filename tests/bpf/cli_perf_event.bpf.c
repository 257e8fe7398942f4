// SPDX-License-Identifier: GPL-2.0
/*
 * cli_perf_event.bpf.c - a perf_event program next to a tracepoint one,
 * for tests/bats/cli_errors.bats: a perf_event program is attached by its
 * user to a perf event it opens itself, so `bpfsdk run` must refuse the
 * object and name the program, before loading anything.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("perf_event")
int on_sample(void *ctx)
{
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	return 0;
}
