// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_sec_forms.bpf.c - a tracepoint section without its category:
 * SEC("tp/sys_enter_write") for "tp/syscalls/sys_enter_write"; run leaves
 * it out and names the section meant (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp/sys_enter_write")
int no_category(void *ctx)
{
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int right(void *ctx)
{
	return 0;
}
