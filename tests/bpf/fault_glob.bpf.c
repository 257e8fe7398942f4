// SPDX-License-Identifier: GPL-2.0
/*
 * fault_glob.bpf.c - globals in .data, .bss and .rodata and a map pinned
 * by name, for the fault walk (tests/faults/) and its skeleton workflow:
 * on each getppid() of target_pid, a perf record with the sum of a .data
 * value and the count kept in the pinned map. Names start with flt_.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "fault_events.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} flt_glob_ev SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} flt_glob_pin SEC(".maps");

const volatile __u32 target_pid = 0;	/* .rodata */
__u64 flt_glob_bias = 1000;		/* .data */
__u64 flt_glob_seq;			/* .bss */

SEC("tp/syscalls/sys_enter_getppid")
int flt_glob_tp(void *ctx)
{
	__u32 key = 0, pid = bpf_get_current_pid_tgid() >> 32;
	struct fault_event e = {};
	__u64 *count;

	if (pid != target_pid)
		return 0;
	count = bpf_map_lookup_elem(&flt_glob_pin, &key);
	if (!count)
		return 0;
	__sync_fetch_and_add(count, 1);
	e.pid = pid;
	e.seq = (__u32)__sync_add_and_fetch(&flt_glob_seq, 1);
	e.value = flt_glob_bias;
	bpf_perf_event_output(ctx, &flt_glob_ev, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
