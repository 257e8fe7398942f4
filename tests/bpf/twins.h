/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twins.h - what the twins test objects share (tests/bats/twins.bats,
 * twins_kernel_fn.bats): the array 'hits' whose slots count target_pid's
 * calls, one slot per program, so that a test sees which program ran and
 * how often.
 */
#ifndef TWINS_H
#define TWINS_H

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

const volatile __u32 target_pid;

/* Count a call of target_pid's in slot. */
static __always_inline void count(__u32 slot)
{
	__u64 *n;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return;
	n = bpf_map_lookup_elem(&hits, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
}

#endif /* TWINS_H */
