// SPDX-License-Identifier: GPL-2.0
/*
 * attach_kprobe_missing.bpf.c - kprobe and ksyscall sections whose kernel
 * function no kernel has, for tests/bats/attach_kernel_fn.bats: on a
 * kernel with kprobes, inspect and run find that out in /proc/kallsyms
 * before anything is loaded.
 */
#include <linux/bpf.h>
#include "bpf_helpers.h"

char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/bpfsdk_no_such_function")
int on_missing_fn(void *ctx)
{
	return 0;
}

SEC("ksyscall/bpfsdk_no_such_syscall")
int on_missing_syscall(void *ctx)
{
	return 0;
}

SEC("kprobe/do_unlinkat")
int on_unlinkat(void *ctx)
{
	return 0;
}
