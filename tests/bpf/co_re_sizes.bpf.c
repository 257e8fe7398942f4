// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_sizes.bpf.c - direct loads of fields whose size differs in the "kernel", for
 * tests/bats/cli_co_re.bats, which resolves them against the BTF of co_re_sizes_kernel.bpf.c
 * (inspect only: a tracepoint may not dereference such pointers, so this is never loaded).
 * There a is an int (4 bytes, signed: an 8-byte load cannot be narrowed and still sign-extend:
 * poisoned), b an unsigned int (narrowed: resolved), c the same size as here.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct sz___local {
	long a;
	unsigned long b;
	int c;
} __attribute__((preserve_access_index));

SEC("tp/syscalls/sys_enter_getpgid")
int co_re_sizes(struct sz___local *s)
{
	return (int)(s->a + s->b + s->c);
}
