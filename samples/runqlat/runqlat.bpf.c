// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat.bpf.c - scheduler run-queue latency: how long a thread that can
 * run waits before it does, as a log2 histogram kept in a map.
 *
 *   sched_wakeup, sched_wakeup_new   a thread becomes runnable: note when
 *   sched_switch                     prev still runnable (preempted): note
 *                                    when; next gets the CPU: add now minus
 *                                    that time to the histogram
 *
 * Nothing is sent per event: the histogram lives in an array map that user
 * space reads when it wants to, once a second or once at the end.
 *
 * Raw tracepoints give the task_struct pointers themselves. Where pid and
 * tgid sit inside task_struct depends on the kernel's build, so user space
 * looks the offsets up in the running kernel's BTF and sets them before
 * load - by hand, what CO-RE relocations automate.
 */
#include <linux/bpf.h>
#include "bpf_helpers.h"
#include "runqlat.h"

/* GPL: bpf_probe_read_kernel() is a GPL-only helper. */
char LICENSE[] SEC("license") = "GPL";

const volatile __u32 task_pid_off = 0;	/* offsetof(struct task_struct, pid) */
const volatile __u32 task_tgid_off = 0;	/* offsetof(struct task_struct, tgid) */
const volatile __u32 target_tgid = 0;	/* 0: every process */
const volatile __u64 unit_ns = 1000;	/* 1000: usecs, 1000000: msecs */

#define TASK_RUNNING 0

/* When each runnable thread was queued, and why: tid -> {ns, preempted}. */
struct start {
	__u64 ts;
	__u64 preempted;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct start);
} start SEC(".maps");

/* One histogram, added to atomically: all CPUs update it at once. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct runqlat_hist);
} hist SEC(".maps");

static __always_inline __u32 task_u32(const void *task, __u32 off)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (const char *)task + off);
	return v;
}

/* floor(log2(v)), v > 0, without a loop: halve the range five times. */
static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xffffffffULL) << 5; v >>= shift; r |= shift;
	shift = (v > 0xffff) << 4; v >>= shift; r |= shift;
	shift = (v > 0xff) << 3; v >>= shift; r |= shift;
	shift = (v > 0xf) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	return r | (__u32)(v >> 1);
}

static __always_inline void enqueued(const void *task, __u64 preempted)
{
	struct start s = { .ts = bpf_ktime_get_ns(), .preempted = preempted };
	__u32 tid, zero = 0;
	struct runqlat_hist *h;

	if (target_tgid && task_u32(task, task_tgid_off) != target_tgid)
		return;
	tid = task_u32(task, task_pid_off);
	if (!tid)
		return;		/* the idle task */
	if (bpf_map_update_elem(&start, &tid, &s, BPF_ANY)) {
		h = bpf_map_lookup_elem(&hist, &zero);
		if (h)
			__sync_fetch_and_add(&h->untracked, 1);
	}
}

/* raw_tracepoint/sched_wakeup: args[0] is the struct task_struct *. */
SEC("raw_tracepoint/sched_wakeup")
int wakeup(struct bpf_raw_tracepoint_args *ctx)
{
	enqueued((const void *)ctx->args[0], 0);
	return 0;
}

SEC("raw_tracepoint/sched_wakeup_new")
int wakeup_new(struct bpf_raw_tracepoint_args *ctx)
{
	enqueued((const void *)ctx->args[0], 0);
	return 0;
}

/* raw_tracepoint/sched_switch: args are (bool preempt, prev, next,
 * unsigned int prev_state); prev_state is the 4th since 5.18. */
SEC("raw_tracepoint/sched_switch")
int switch_in(struct bpf_raw_tracepoint_args *ctx)
{
	const void *prev = (const void *)ctx->args[1];
	const void *next = (const void *)ctx->args[2];
	__u32 tid, zero = 0, slot;
	struct runqlat_hist *h;
	struct start *s;
	__u64 delta;

	/* Preempted while runnable: it waits in the queue from now. */
	if ((__u32)ctx->args[3] == TASK_RUNNING)
		enqueued(prev, 1);

	tid = task_u32(next, task_pid_off);
	s = bpf_map_lookup_elem(&start, &tid);
	if (!s)
		return 0;	/* queued before we attached, or filtered */
	delta = (bpf_ktime_get_ns() - s->ts) / unit_ns;
	h = bpf_map_lookup_elem(&hist, &zero);
	if (h) {
		slot = delta ? log2_u64(delta) : 0;
		/* At most 63 for a u64, but the verifier must see it. Older
		 * ones (6.1) lose a bound the compiler tests on a copy of the
		 * register, or a mask it spreads over the parts of the sum:
		 * the empty asm makes slot one value, the mask bounds it. */
		__asm__ volatile("" : "+r"(slot));
		slot &= RUNQLAT_SLOTS - 1;
		__sync_fetch_and_add(&h->slots[slot], 1);
		if (s->preempted)
			__sync_fetch_and_add(&h->preempted, 1);
		else
			__sync_fetch_and_add(&h->wakeups, 1);
	}
	bpf_map_delete_elem(&start, &tid);
	return 0;
}
