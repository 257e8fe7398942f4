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
 * BTF tracepoints (tp_btf/) give the tracepoint's arguments typed from the
 * kernel's BTF - here the struct task_struct pointers themselves - and the
 * program may read through them directly. Where pid and tgid sit inside
 * task_struct depends on the kernel's build: the struct below names only
 * those two members, and CO-RE puts in their offsets in the running
 * kernel when the object is loaded.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "runqlat.h"

char LICENSE[] SEC("license") = "GPL";

/* Only what we read; preserve_access_index makes every access a CO-RE
 * relocation, resolved against the kernel's own task_struct. */
struct task_struct {
	int pid;	/* the thread id */
	int tgid;	/* the process id */
} __attribute__((preserve_access_index));

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

static __always_inline void enqueued(const struct task_struct *task, __u64 preempted)
{
	struct start s = { .ts = bpf_ktime_get_ns(), .preempted = preempted };
	__u32 tid, zero = 0;
	struct runqlat_hist *h;

	if (target_tgid && (__u32)task->tgid != target_tgid)
		return;
	tid = (__u32)task->pid;
	if (!tid)
		return;		/* the idle task */
	if (bpf_map_update_elem(&start, &tid, &s, BPF_ANY)) {
		h = bpf_map_lookup_elem(&hist, &zero);
		if (h)
			__sync_fetch_and_add(&h->untracked, 1);
	}
}

/* The woken task. */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(wakeup, struct task_struct *p)
{
	enqueued(p, 0);
	return 0;
}

/* A new task's first wakeup. */
SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(wakeup_new, struct task_struct *p)
{
	enqueued(p, 0);
	return 0;
}

/* The state prev leaves the CPU in. Since 5.18 sched_switch passes it as a
 * 4th argument, but a tp_btf program may not even read an argument the
 * running kernel's prototype lacks (on 5.10: "func 'sched_switch' doesn't
 * have 4-th argument"), and telling the two prototypes apart at load time
 * takes bpf_core_type_matches(), clang 15's. So, as BCC's runqlat does, the
 * program takes the three arguments every kernel has and reads the state
 * from prev itself: __state since 5.14, state before, each read only where
 * the running kernel's task_struct has it (CO-RE turns the test into a
 * constant, and the branch not taken is never verified). */
struct task_struct___5_14 {
	unsigned int __state;
} __attribute__((preserve_access_index));

struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(const struct task_struct *task)
{
	const struct task_struct___5_14 *t = (const void *)task;

	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return ((const struct task_struct___old *)task)->state;
}

/* prev leaves the CPU, next gets it. */
SEC("tp_btf/sched_switch")
int BPF_PROG(switch_in, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 tid, zero = 0, slot;
	struct runqlat_hist *h;
	struct start *s;
	__u64 delta;

	/* Preempted while runnable: it waits in the queue from now. */
	if (task_state(prev) == TASK_RUNNING)
		enqueued(prev, 1);

	tid = (__u32)next->pid;
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
