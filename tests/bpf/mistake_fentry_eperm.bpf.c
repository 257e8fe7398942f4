// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_fentry_eperm.bpf.c - an fentry program on a kernel that refuses
 * fentry: the error says what the kernel shows that explains it and the
 * kinds it takes instead (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/do_unlinkat")
int unlink_entry(void *ctx)
{
	return 0;
}
