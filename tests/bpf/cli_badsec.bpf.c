// SPDX-License-Identifier: GPL-2.0
/*
 * cli_badsec.bpf.c - a program in a section no loader knows, for
 * tests/bats/cli_errors.bats: opening it must fail with one error line
 * that names the section and lists the accepted prefixes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tracepiont/syscalls/sys_enter_getppid")
int misspelled_section(void *ctx)
{
	return 0;
}
