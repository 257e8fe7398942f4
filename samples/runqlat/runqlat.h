/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * runqlat.h - the histogram the BPF side keeps and user space reads: no
 * record per event crosses to user space, only this, when it is asked.
 */
#ifndef RUNQLAT_H
#define RUNQLAT_H

#include <linux/types.h>

#define RUNQLAT_SLOTS 64		/* log2 slots: every u64 fits */

struct runqlat_hist {
	__u64 slots[RUNQLAT_SLOTS];	/* slot 0: 0 and 1; slot k: [2^k, 2^(k+1)) */
	__u64 wakeups;		/* latencies that began with a wakeup */
	__u64 preempted;	/* ... with a preemption (still runnable) */
	__u64 untracked;	/* enqueues not timed: the start map was full */
};

#endif /* RUNQLAT_H */
