// SPDX-License-Identifier: GPL-2.0
/*
 * mistake_const_knob.bpf.c - a newcomer's knob declared `const`, not
 * `const volatile`: clang folds its value (0) into the code, so no
 * instruction reads it and --set changes nothing. inspect warns and run's
 * --set on it is an error (tests/bats/cli_errors.bats); the knob declared
 * right beside it is read and takes --set.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const __u32 target_tgid = 0;		/* the mistake */
const volatile __u32 min_tgid = 0;	/* the knob as it should be */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mistake_hits SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_target(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	__u64 *hits;

	if (target_tgid && tgid != target_tgid)
		return 0;
	if (tgid < min_tgid)
		return 0;
	hits = bpf_map_lookup_elem(&mistake_hits, &zero);
	if (hits)
		__sync_fetch_and_add(hits, 1);
	return 0;
}
