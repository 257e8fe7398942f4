// SPDX-License-Identifier: GPL-2.0
/*
 * verifier_unbounded.bpf.c - a newcomer's loop the verifier cannot bound:
 * its trip count comes from bpf_get_prandom_u32(), so the verifier walks
 * iteration after iteration, each state new (i differs), until it gives
 * up at a million instructions: "BPF program is too large". For
 * tests/bats/cli_errors.bats (the hint, with the C line where it stopped)
 * and cli_signals.bats (Ctrl-C during that walk). The map is pinned, so a
 * test sees whether an interrupted run leaves its pin behind.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} verifier_unbounded_sum SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int unbounded(void *ctx)
{
	__u32 n = bpf_get_prandom_u32(), zero = 0;
	__u64 sum = 0, *slot;

	for (__u32 i = 0; i < n; i++)
		sum += i * 3;
	slot = bpf_map_lookup_elem(&verifier_unbounded_sum, &zero);
	if (slot)
		*slot = sum;
	return 0;
}
