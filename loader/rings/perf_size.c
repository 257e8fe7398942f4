// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_size.c - how large the perf buffer's rings are when the caller does
 * not say (and smaller again when the locked-memory limit refuses them),
 * the rings of CPUs that came online since (bsdk_perfbuf_rescan()), and a
 * perf buffer over rings in memory for the unit tests and the benchmark.
 */
#include <sys/epoll.h>

#include "rings/rings.h"

/* The default ring size: a budget for all CPUs, split evenly, 64 KiB to 1 MiB per CPU (4 KiB
 * pages). A ring buffers the time the consumer is not running; 1 MiB holds ~50 ms of 32-byte
 * records at 600k/s, enough to ride out a busy machine's scheduling delays, while 256 CPUs
 * cost no more than 16 MiB. When the locked memory limit refuses it (perf_event_mlock_kb for
 * users without CAP_IPC_LOCK), the default halves down to AUTO_MIN_PAGES. */
#define AUTO_BUDGET_BYTES      (8u << 20)
#define AUTO_MAX_PAGES         256
#define AUTO_MIN_PAGES_SPLIT   16
#define AUTO_MIN_PAGES         8

unsigned int perfbuf_auto_pages(size_t page_size, int ncpu)
{
	size_t per_cpu = AUTO_BUDGET_BYTES / (size_t)(ncpu > 0 ? ncpu : 1);
	unsigned int pages = AUTO_MAX_PAGES;

	while (pages > AUTO_MIN_PAGES_SPLIT && (size_t)pages * page_size > per_cpu)
		pages /= 2;
	return pages;
}

int perfbuf_open_sized(struct bsdk_perfbuf *pb)
{
	struct perfbuf_rings *x = pb->ext;
	int err;

	for (;;) {
		x->mlock_refused = false;
		/* a refused mmap is only informative while a smaller size is left to try */
		x->retry_smaller = x->auto_pages && pb->opts.pages > AUTO_MIN_PAGES;
		err = perfbuf_open_cpus(pb);
		/* only the mmap's EPERM is the limit: perf_event_open's is a missing
		 * capability, which smaller rings do not help */
		if (err != -EPERM || !x->mlock_refused || !x->retry_smaller)
			break;
		perfbuf_close_rings(pb);
		pb->opts.pages /= 2;
		pb->data_size /= 2;
		if (x->auto_wakeup)
			pb->opts.wakeup_bytes = pb->data_size / 4;
		log_info("perf buffer: locked memory limit reached, retrying with %u pages per CPU", pb->opts.pages);
	}
	return err;
}

int bsdk_perfbuf_rescan(struct bsdk_perfbuf *pb)
{
	if (pb->map_fd < 0)	/* perfbuf_new_mem(): its rings are all the caller's */
		return 0;
	return perfbuf_open_cpus(pb);
}

struct bsdk_perfbuf *perfbuf_new_mem(const struct bsdk_perfbuf_opts *opts, void *const *rings,
				     size_t nrings)
{
	struct bsdk_perfbuf *pb = calloc(1, sizeof(*pb));
	int err;

	if (!pb)
		return fail_ptr(ENOMEM);
	pb->map_fd = -1;
	pb->drain.epfd = -1;
	err = !nrings || nrings > INT32_MAX ? fail(EINVAL) : perfbuf_opts_setup(pb, opts, (int)nrings);
	if (!err)
		err = perfbuf_drain_setup(pb, (int)nrings);
	if (!err && !pb->ext)	/* ext/passes.c did not run: the program lacks it */
		err = log_fail(ENOTSUP, "perf buffer in memory: the rings layer is not registered (ext/passes.c)");
	if (!err) {
		pb->rings = calloc(nrings, sizeof(*pb->rings));
		pb->events = calloc(nrings, sizeof(*pb->events));
		if (!pb->rings || !pb->events)
			err = fail(ENOMEM);
	}
	/* No per-record event to switch to: each ring drains as one whose kernel refused it. */
	for (size_t i = 0; !err && i < nrings; i++, pb->nrings++) {
		struct cpu_ring *r = &pb->rings[i];

		r->cpu = (int)i;
		r->fd = -1;
		r->meta = rings[i];
		r->data = (uint8_t *)rings[i] + pb->page_size;
		wake_init(&pb->ext->ring[i].wake, now_ns());
	}
	if (err) {
		bsdk_perfbuf_free(pb);
		return fail_ptr(-err);
	}
	return pb;
}

void perfbuf_default_footprint(int ncpu, size_t page_size, struct perfbuf_footprint *f)
{
	f->pages = perfbuf_auto_pages(page_size, ncpu);
	f->mapped = (size_t)ncpu * (1 + (size_t)f->pages) * page_size;
	f->heap = sizeof(struct bsdk_perfbuf) + sizeof(struct perfbuf_rings) +
		  (size_t)ncpu * (sizeof(struct cpu_ring) + sizeof(struct ring_ext) +
		  sizeof(struct epoll_event) + sizeof(struct merge_key) + sizeof(size_t));
}
