// SPDX-License-Identifier: GPL-2.0
/*
 * attach_btf_missing.bpf.c - BTF-typed sections whose targets no kernel
 * has, for tests/bats/attach_btf.bats: inspect and run find that out in
 * kernel BTF before anything is loaded.
 */
#include <linux/bpf.h>
#include "bpf_helpers.h"

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
