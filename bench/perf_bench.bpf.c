// SPDX-License-Identifier: GPL-2.0
/*
 * perf_bench.bpf.c - the producer side of bench/perf_bench.
 *
 * Three programs for the same hook, syscalls/sys_enter_write; the bench
 * attaches one at a time:
 *   noop       returns at once: what merely attaching costs each write()
 *   emit_perf  sends a 16-byte record with bpf_perf_event_output()
 *   emit_ring  sends the same record with bpf_ringbuf_output()
 *   emit_ring_nowake  the same with BPF_RB_NO_WAKEUP: the kernel never wakes
 *              the consumer, which drains on a timer (the ring buffer's limit)
 * Both senders count what they try and what fails in a per-CPU array, so
 * the bench knows the exact number of records lost on the way.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "perf_bench.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perf_events SEC(".maps");

/* 2 MiB: as much memory as the perf consumers get by default on two CPUs
 * (256 pages each). The bench may resize it before load. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 2 * 1024 * 1024);
} ring_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BENCH_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Set before load: the process whose writes produce records. */
const volatile __u32 target_tgid = 0;

SEC("tracepoint/syscalls/sys_enter_write")
int noop(void *ctx)
{
	return 0;
}

static __always_inline __u64 *produce(struct bench_event *ev)
{
	__u32 slot = BENCH_PRODUCED;
	__u64 *n;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	n = bpf_map_lookup_elem(&counters, &slot);
	if (!n)
		return 0;
	ev->ts = bpf_ktime_get_ns();
	ev->seq = (__u32)*n;
	ev->cpu = bpf_get_smp_processor_id();
	*n += 1;
	return n;
}

static __always_inline void count_error(void)
{
	__u32 slot = BENCH_ERRORS;
	__u64 *n = bpf_map_lookup_elem(&counters, &slot);

	if (n)
		*n += 1;
}

SEC("tracepoint/syscalls/sys_enter_write")
int emit_perf(void *ctx)
{
	struct bench_event ev;

	if (!produce(&ev))
		return 0;
	if (bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU, &ev,
				  sizeof(ev)))
		count_error();
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_write")
int emit_ring(void *ctx)
{
	struct bench_event ev;

	if (!produce(&ev))
		return 0;
	if (bpf_ringbuf_output(&ring_events, &ev, sizeof(ev), 0))
		count_error();
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_write")
int emit_ring_nowake(void *ctx)
{
	struct bench_event ev;

	if (!produce(&ev))
		return 0;
	if (bpf_ringbuf_output(&ring_events, &ev, sizeof(ev), BPF_RB_NO_WAKEUP))
		count_error();
	return 0;
}
