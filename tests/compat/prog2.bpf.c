// SPDX-License-Identifier: GPL-2.0
/*
 * prog2.bpf.c - BPF_PROG2, whose arguments may be structs passed by value
 * (a 16-byte one takes two context slots), written as for libbpf's
 * headers. tests/bats/headers.bats compares the context slots each
 * program reads with both header sets.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct pair {
	long a;
	long b;
};

struct small {
	int x;
	short y;
};

__u64 out[8];

SEC("fentry/bpfsdk_example_struct_args")
int BPF_PROG2(structs, int, a, struct pair, p, struct small, s, long, w)
{
	out[0] = a;
	out[1] = p.a;
	out[2] = p.b;
	out[3] = s.x;
	out[4] = s.y;
	out[5] = w;
	return 0;
}

SEC("fentry/bpfsdk_example_no_args")
int BPF_PROG2(none)
{
	out[6] = ctx[0];
	return 0;
}

SEC("fentry/bpfsdk_example_char")
int BPF_PROG2(one_char, char, c)
{
	out[7] = c;
	return 0;
}
