// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_wake.c - the perf buffer's per-record wakeups, and the table through
 * which the rings layer extends the core's perf buffer (channel/perfbuf.c).
 *
 * Each CPU has two events writing into one ring: the one that owns the ring,
 * opened with a watermark (a wakeup per quarter ring), and a second one
 * with wakeup_events = 1 whose output PERF_EVENT_IOC_SET_OUTPUT redirects
 * into the first one's ring. The map slot of the CPU holds whichever the
 * policy of wakeup.c wants: the per-record one while records are rare (a
 * record wakes the consumer at once), the watermark one while they stream
 * in (the consumer drains on a timer). Replacing a slot is one atomic map
 * update; the ring, its order and its lost-record reports stay the same.
 */
#include <sys/ioctl.h>
#include <unistd.h>

#include "rings/rings.h"

/* The per-record event of a CPU, its output redirected into the ring of ring_fd. Its records
 * land in the same ring as the watermark event's, in order, so either can be in the map slot.
 * The fd, or -1 when the kernel refuses (the consumer then keeps the watermark event only and
 * drains on the timer, as without the policy). */
static int eager_open(int cpu, int ring_fd)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW, .sample_period = 1, .wakeup_events = 1 };
	int fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0) {
		log_info("perf buffer: cpu %d: no per-record event (%s): draining on the timer only", cpu, bsdk_strerror(fd));
		return -1;
	}
	/* The kernel wakes every event attached to a ring when any of them asks (its
	 * ring_buffer_wakeup() walks rb->event_list), so the ring owner's fd in our epoll
	 * set sees this one's wakeups: the eager fd itself is never polled nor mmapped. */
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) < 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		log_info("perf buffer: cpu %d: cannot redirect a per-record event into the ring (%s): draining on the timer only",
			 cpu, bsdk_strerror(-errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The caller's options copied: room for ncpu rings, and the default size of a ring. */
static int ext_setup(struct bsdk_perfbuf *pb, size_t page_size, int ncpu)
{
	size_t n = ncpu > 0 ? (size_t)ncpu : 1;
	struct perfbuf_rings *x = calloc(1, sizeof(*x) + n * sizeof(x->ring[0]));

	if (!x)
		return fail(ENOMEM);
	pb->ext = x;
	x->cap = n;
	for (size_t i = 0; i < n; i++)
		x->ring[i].eager_fd = -1;
	x->merge.key = calloc(n, sizeof(*x->merge.key));
	x->merge.loser = calloc(n, sizeof(*x->merge.loser));
	if (!x->merge.key || !x->merge.loser)
		return fail(ENOMEM);
	x->auto_pages = !pb->opts.pages;
	x->auto_wakeup = !pb->opts.wakeup_events && !pb->opts.wakeup_bytes;
	if (x->auto_pages)
		pb->opts.pages = perfbuf_auto_pages(page_size, ncpu);
	x->adaptive = !pb->opts.wakeup_events && pb->opts.max_latency_ms >= 0;
	return 0;
}

/* The drain loop set up: the policy's figures, from its period. */
static void ext_drain_ready(struct bsdk_perfbuf *pb)
{
	wake_cfg_init(&pb->ext->wake_cfg, pb->drain.period_ns);
	pb->drain.streaming = !pb->ext->adaptive;
}

static bool ext_map_refused(struct bsdk_perfbuf *pb, int err)
{
	pb->ext->mlock_refused = err == -EPERM;
	return err == -EPERM && pb->ext->retry_smaller;
}

static bool ext_per_record(const struct bsdk_perfbuf *pb) { return pb->ext->adaptive; }

static void ext_free(struct bsdk_perfbuf *pb)
{
	if (!pb->ext)
		return;
	free(pb->ext->merge.key);
	free(pb->ext->merge.loser);
	free(pb->ext);
	pb->ext = NULL;
}

/* Ring r, number i, is mapped: its per-record event, which its map slot holds first. */
static int ext_ring_open(struct bsdk_perfbuf *pb, size_t i, struct cpu_ring *r)
{
	struct ring_ext *re = &pb->ext->ring[i];

	re->eager_fd = pb->ext->adaptive ? eager_open(r->cpu, r->fd) : -1;
	wake_init(&re->wake, now_ns());
	return re->eager_fd >= 0 ? re->eager_fd : r->fd;
}

static void ext_ring_close(struct bsdk_perfbuf *pb, size_t i)
{
	struct ring_ext *re = &pb->ext->ring[i];

	if (re->eager_fd >= 0)
		close(re->eager_fd);
	re->eager_fd = -1;
}

static int consume_once(struct bsdk_perfbuf *pb)
{
	return pb->opts.merge_by_ts ? perfbuf_consume_merged(pb) : perfbuf_consume_cpus(pb);
}

/* Put the event the policy wants into the CPU's slot. An update replaces the slot atomically
 * (a program sees the old or the new event, both writing into the same ring). */
static void slot_set(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct ring_ext *re)
{
	int fd = re->wake.mode == WAKE_STREAM ? r->fd : re->eager_fd;
	int err = bpf_map_update(pb->map_fd, &r->cpu, &fd, BPF_ANY);

	if (err < 0)
		log_warn("perf buffer: cpu %d: switching the map slot failed: %s", r->cpu, bsdk_strerror(err));
}

/* A drain (bsdk_perfbuf_consume() has counted it, at pb->drain.last_ns), then the policy's
 * judgement of every ring by the records it brought. */
static int ext_consume(struct bsdk_perfbuf *pb)
{
	uint64_t now = pb->drain.last_ns;
	bool streaming = false, recheck = false;
	int n = consume_once(pb), more;

	if (!pb->ext->adaptive)
		return n;
	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];
		struct ring_ext *re = &pb->ext->ring[i];

		if (re->eager_fd < 0) {
			streaming = true;
			continue;
		}
		re->settle = false;
		if (wake_update(&re->wake, &pb->ext->wake_cfg, now, r->nrec)) {
			slot_set(pb, r, re);
			/* Back to per-record wakeups: a record written through the watermark
			 * event just before the switch woke nobody. Look again now, and once
			 * more a period later for a program that was still running with the
			 * old event when the update returned. */
			if (re->wake.mode == WAKE_EAGER)
				recheck = re->settle = true;
		}
		streaming |= re->wake.mode == WAKE_STREAM || re->settle;
	}
	pb->drain.streaming = streaming;
	if (recheck) {
		more = consume_once(pb);
		if (more > 0)
			n = n + more > INT32_MAX ? INT32_MAX : n + more;
	}
	return n;
}

static void ext_stats(const struct bsdk_perfbuf *pb, struct bsdk_perfbuf_stats *stats)
{
	stats->streaming = 0;
	for (size_t i = 0; i < pb->nrings; i++) {
		const struct ring_ext *re = &pb->ext->ring[i];

		stats->switches += re->wake.switches;
		stats->streaming += !pb->ext->adaptive || re->eager_fd < 0 || re->wake.mode == WAKE_STREAM;
	}
}

const struct perfbuf_ext rings_perfbuf_ext = {
	.setup = ext_setup,
	.drain_ready = ext_drain_ready,
	.open = perfbuf_open_sized,
	.map_refused = ext_map_refused,
	.per_record = ext_per_record,
	.ring_open = ext_ring_open,
	.ring_close = ext_ring_close,
	.consume = ext_consume,
	.stats = ext_stats,
	.free = ext_free,
};
