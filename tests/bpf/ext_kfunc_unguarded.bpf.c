// SPDX-License-Identifier: GPL-2.0
/*
 * ext_kfunc_unguarded.bpf.c - a call of a __weak kfunc no kernel has,
 * without bpf_ksym_exists() around it, for tests/bats/externs.bats: the
 * loader poisons the call, the verifier refuses it, and the error names
 * the kfunc.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern int bpfsdk_no_such_kfunc(int x) __ksym __weak;

SEC("tp/syscalls/sys_enter_getpgid")
int call_unguarded(void *ctx)
{
	return bpfsdk_no_such_kfunc(1);
}
