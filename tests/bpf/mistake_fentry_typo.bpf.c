// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_fentry_typo.bpf.c - an fentry target the kernel does not have:
 * do_unlinkatt for do_unlinkat, found in the kernel's BTF by the same
 * matcher as tracepoint names (tests/bats/hints.bats).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/do_unlinkatt")
int unlink_typo(void *ctx)
{
	return 0;
}
