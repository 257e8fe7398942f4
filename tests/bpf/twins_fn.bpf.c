// SPDX-License-Identifier: GPL-2.0
/*
 * twins_fn.bpf.c - one kernel function three ways, for tests/bats/twins.bats
 * and its run in the test kernel (tests/vm/suites): fentry, ksyscall and
 * kprobe on getpgid()'s entry symbol are twins. Each counts target_pid's
 * calls in its own slot of 'hits' (0: fentry, 1: ksyscall, 2: kprobe).
 * The host has no kprobes and refuses fentry: there all three are left
 * out, each with its reason.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "twins.h"

char LICENSE[] SEC("license") = "GPL";

/* getpgid()'s entry symbol, named by the architecture. */
#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPGID "__arm64_sys_getpgid"
#else
#define SYS_GETPGID "__x64_sys_getpgid"
#endif

SEC("fentry/" SYS_GETPGID)
int getpgid_fentry(void *ctx)
{
	count(0);
	return 0;
}

SEC("ksyscall/getpgid")
int getpgid_ksyscall(void *ctx)
{
	count(1);
	return 0;
}

SEC("kprobe/" SYS_GETPGID)
int getpgid_kprobe(void *ctx)
{
	count(2);
	return 0;
}
