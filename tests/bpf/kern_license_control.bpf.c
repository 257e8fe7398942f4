// SPDX-License-Identifier: GPL-2.0
/*
 * kern_license_control.bpf.c - the control for kern_reject_license.bpf.c:
 * the same license ("Proprietary") and hook, without the GPL-only helper.
 * It must load, which shows that the other one is refused for calling
 * bpf_perf_event_output() and not for its license alone.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Proprietary";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int kern_not_gpl_control(void *ctx)
{
	__u32 key = 0;
	__u64 *n;

	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
