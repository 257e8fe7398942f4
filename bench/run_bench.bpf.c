// SPDX-License-Identifier: GPL-2.0
/*
 * run_bench.bpf.c - perf_bench's emit_perf program alone, for the row that
 * measures `bpfsdk run --format json` as a consumer: run attaches every
 * program of an object, so this one holds only the sender. The same
 * 16-byte record, named for the decoder with BPFSDK_RECORD(), and the same
 * per-CPU counters, pinned by name so that perf_bench reads the exact
 * produced and lost counts of the copy bpfsdk run loaded.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "perf_bench.h"

char LICENSE[] SEC("license") = "GPL";

BPFSDK_RECORD(bench_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perf_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} run_bench_counters SEC(".maps");

const volatile __u32 target_tgid = 0;

SEC("tracepoint/syscalls/sys_enter_write")
int emit_perf(void *ctx)
{
	__u32 slot = BENCH_PRODUCED;
	struct bench_event ev;
	__u64 *n;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	n = bpf_map_lookup_elem(&run_bench_counters, &slot);
	if (!n)
		return 0;
	ev.ts = bpf_ktime_get_ns();
	ev.seq = (__u32)*n;
	ev.cpu = bpf_get_smp_processor_id();
	*n += 1;
	if (bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU, &ev, sizeof(ev))) {
		slot = BENCH_ERRORS;
		n = bpf_map_lookup_elem(&run_bench_counters, &slot);
		if (n)
			*n += 1;
	}
	return 0;
}
