// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_tracepoint_typo.bpf.c - a newcomer's typos in tracepoint names:
 * a category ("syscall" for "syscalls") and an event name ("getppdi").
 * run leaves both out and says which tracepoint was meant
 * (tests/bats/cli_errors.bats); the third program attaches.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint/syscall/sys_enter_getppid")
int typo_category(void *ctx)
{
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppdi")
int typo_name(void *ctx)
{
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int right(void *ctx)
{
	return 0;
}
