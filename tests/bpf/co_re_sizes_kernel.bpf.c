// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_sizes_kernel.bpf.c - only its BTF matters: the "kernel" layout of struct sz that
 * tests/bats/cli_co_re.bats resolves co_re_sizes.bpf.c against (with --btf).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct sz {
	int c;
	int a;
	unsigned int b;
};

SEC("tp/syscalls/sys_enter_getpgid")
int co_re_sizes_kernel(struct sz *s)
{
	return s->a;
}
