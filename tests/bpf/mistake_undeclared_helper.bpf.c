// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_undeclared_helper.bpf.c - a helper the headers do not declare:
 * bpf_get_current_pid() for bpf_get_current_pid_tgid(). Without a
 * declaration clang (before 16, or with the warning off) compiles the call
 * to an undefined function, as the extern below does on any clang. The
 * loader names it a helper that does not exist and the one meant; inspect
 * warns and shows the object (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern __u64 bpf_get_current_pid(void);

__u64 last_pid;

SEC("tracepoint/syscalls/sys_enter_getppid")
int mistyped_helper(void *ctx)
{
	last_pid = bpf_get_current_pid();
	return 0;
}
