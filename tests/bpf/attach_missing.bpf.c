// SPDX-License-Identifier: GPL-2.0
/*
 * attach_missing.bpf.c - sections whose targets no kernel has, for
 * tests/bats/attach_btf.bats and attach_kernel_fn.bats: inspect and run
 * find that out before anything is loaded, in kernel BTF (tp_btf, fentry)
 * or, on a kernel with kprobes, in /proc/kallsyms (kprobe, ksyscall). The
 * last program's target exists everywhere with kprobes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/bpfsdk_no_such_tracepoint")
int on_nothing(__u64 *ctx)
{
	return 0;
}

SEC("fentry/bpfsdk_no_such_function")
int on_no_func(__u64 *ctx)
{
	return 0;
}

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
