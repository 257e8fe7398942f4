// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_O0.bpf.c - a program as a newcomer builds it, without -O2
 * (tests/tests.mk compiles this folder at -O0): clang then calls helpers
 * through their pointers (callx, opcode 0x8d), which no kernel takes.
 * tests/bats/cli_errors.bats checks that the error names -O0 and -O2.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint/syscalls/sys_enter_getppid")
int unoptimised(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	return pid == 1;
}
