// SPDX-License-Identifier: GPL-2.0
/*
 * ext_ksym_missing.bpf.c - __ksym externs no kernel has, not __weak, for
 * tests/bats/externs.bats: a kfunc and a typed variable. Load fails with
 * one error line naming each.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern int bpfsdk_no_such_kfunc(int x) __ksym;
extern const int bpfsdk_no_such_variable __ksym;

SEC("tp/syscalls/sys_enter_getpgid")
int use_ksyms(void *ctx)
{
	return bpfsdk_no_such_kfunc(bpfsdk_no_such_variable);
}
