// SPDX-License-Identifier: GPL-2.0
/*
 * perf_overflow.bpf.c - a producer that accounts for every record it tries
 * to send, so user space can check received + lost == produced exactly.
 *
 * The pattern: a per-CPU array of counters, bumped without atomics (each
 * CPU owns its slot) before and after bpf_perf_event_output(). -ENOSPC
 * means the ring was full: the kernel also counts that record in the next
 * PERF_RECORD_LOST, so user space sees it twice, once from each side, and
 * the two must agree. Any other error (-ENOENT: no ring for this CPU,
 * -E2BIG, ...) is a record the kernel never reports at all: only this
 * counter knows about it.
 *
 * on_write_ring does the same through a BPF ring buffer, whose full ring
 * (-EAGAIN) the kernel reports to nobody: there only this count knows.
 */
#include <linux/bpf.h>
#include <asm-generic/errno-base.h>
#include <bpf/bpf_helpers.h>

#include "perf_overflow.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

/* Resized before load by the driver (--pages). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OVF_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Set before load (bsdk_obj_set_global): the tgid whose writes count. */
const volatile __u32 target_tgid = 0;

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);

	if (c)
		*c += 1;
}

/* Fill *ev for a write of the target and count it as produced; 0 when the
 * write is someone else's. */
static __always_inline int produce(struct ovf_event *ev)
{
	__u32 slot = OVF_PRODUCED;
	__u64 *seq, id = bpf_get_current_pid_tgid();

	if ((__u32)(id >> 32) != target_tgid)
		return 0;
	seq = bpf_map_lookup_elem(&counters, &slot);
	if (!seq)
		return 0;
	ev->ts = bpf_ktime_get_ns();
	ev->seq = (__u32)*seq;
	ev->cpu = bpf_get_smp_processor_id();
	*seq += 1;
	return 1;
}

SEC("tracepoint/syscalls/sys_enter_write")
int on_write(void *ctx)
{
	struct ovf_event ev;
	long err;

	if (!produce(&ev))
		return 0;
	err = bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev,
				    sizeof(ev));
	if (err == -ENOSPC)
		count(OVF_ENOSPC);
	else if (err)
		count(OVF_OTHER_ERR);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_write")
int on_write_ring(void *ctx)
{
	struct ovf_event ev;
	long err;

	if (!produce(&ev))
		return 0;
	err = bpf_ringbuf_output(&ring, &ev, sizeof(ev), 0);
	if (err == -EAGAIN)
		count(OVF_ENOSPC);
	else if (err)
		count(OVF_OTHER_ERR);
	return 0;
}
