// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perfbuf.c - the per-CPU reader of a BPF_MAP_TYPE_PERF_EVENT_ARRAY.
 *
 * For every online CPU: a PERF_TYPE_SOFTWARE / PERF_COUNT_SW_BPF_OUTPUT
 * event, its fd stored in slot cpu of the map, its ring mmapped (one
 * metadata page + 2^n data pages) and its fd added to one epoll set.
 * Records are decoded by perf_ring.c; this file owns the protocol with the
 * kernel around it (the ordering of data_head and data_tail) and the
 * wakeup and drain policy.
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
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "channel/channel.h"
#include "channel/perf_ring.h"

/* The default ring size: a budget for all CPUs, split evenly, 64 KiB to 1 MiB per CPU (4 KiB
 * pages). A ring buffers the time the consumer is not running; 1 MiB holds ~50 ms of 32-byte
 * records at 600k/s, enough to ride out a busy machine's scheduling delays, while 256 CPUs
 * cost no more than 16 MiB. When the locked memory limit refuses it (perf_event_mlock_kb for
 * users without CAP_IPC_LOCK), the default halves down to AUTO_MIN_PAGES. */
#define AUTO_BUDGET_BYTES      (8u << 20)
#define AUTO_MAX_PAGES         256
#define AUTO_MIN_PAGES_SPLIT   16
#define AUTO_MIN_PAGES         8

/* What a drain reads of every ring, idle or not, comes first, in 64 bytes: down to the policy's
 * hold_until. */
struct cpu_ring {
	struct perf_event_mmap_page *meta;   /* the first mmapped page */
	uint64_t nrec;                       /* samples this drain */
	int cpu;
	int fd;                              /* owns the ring: watermark wakeups */
	int eager_fd;                        /* writes into it, wakes per record; -1 */
	bool settle;                         /* just switched to eager_fd: one more timed drain */
	bool has_pending;
	bool walked;                         /* merge mode: walk_begin() this drain */
	struct wake_policy wake;             /* which of the two is in the map slot */
	uint8_t *data;                       /* the 2^n data pages after it */
	struct perf_scratch scratch;         /* for records that wrap */
	struct perf_ring walk;               /* merge mode: the pending state */
	struct perf_rec pending;             /* merge mode: the record at tail */
};

struct bsdk_perfbuf {
	int map_fd;
	struct drain drain;
	struct bsdk_perfbuf_opts opts;       /* normalised copy */
	size_t page_size;
	size_t data_size;                    /* pages * page_size */
	bool auto_pages;                     /* pages chosen by us */
	bool mlock_refused;                  /* a ring's mmap met the locked-memory limit */
	bool auto_wakeup;                    /* wakeup_bytes chosen by us */
	bool adaptive;                       /* switch each slot by the rate (wakeup.c) */
	bool in_memory;                      /* perfbuf_new_mem(): the caller's rings, no
					      * event, map slot or mapping of ours */
	struct wake_cfg wake_cfg;
	uint32_t map_slots;                  /* the map's max_entries */

	struct cpu_ring *rings;
	size_t nrings;
	struct epoll_event *events;          /* for epoll_wait: one per CPU */
	struct merge_tree merge;             /* merge mode: the rings with a record (merge.c),
					      * room for every possible CPU */

	struct perf_ring_counts counts;
};

static bool have_ring_for(const struct bsdk_perfbuf *pb, int cpu)
{
	for (size_t i = 0; i < pb->nrings; i++)
		if (pb->rings[i].cpu == cpu)
			return true;
	return false;
}

/* The per-record event of a CPU, its output redirected into the ring of ring_fd. Its records
 * land in the same ring as the watermark event's, in order, so either can be in the map slot.
 * The fd, or -1 when the kernel refuses (the consumer then keeps the watermark event only and
 * drains on the timer, as without the policy). */
static int eager_open(struct bsdk_perfbuf *pb, int cpu, int ring_fd)
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

/* Open, map and register the ring of one CPU. Returns 1 when added, 0 when the CPU was skipped
 * (offline, or beyond the map), negative errno on failure. */
static int ring_open(struct bsdk_perfbuf *pb, int cpu)
{
	struct perf_event_attr attr;
	struct epoll_event ev = { .events = EPOLLIN };
	struct cpu_ring r = { .cpu = cpu };
	size_t mmap_size = pb->page_size + pb->data_size;
	int err;

	if ((uint32_t)cpu >= pb->map_slots) {
		log_warn("perf buffer: cpu %d has no slot in the map (max_entries %u); its records cannot be read", cpu, pb->map_slots);
		return 0;
	}
	attr = (struct perf_event_attr){ .size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW, .sample_period = 1 };
	if (pb->opts.wakeup_events) {
		attr.wakeup_events = pb->opts.wakeup_events;
	} else {
		/* Wake up when this many bytes are ready, not per record: a wakeup costs the
		 * producer CPU an interrupt and the consumer a context switch; the periodic
		 * drain bounds the latency this adds. */
		attr.watermark = 1;
		attr.wakeup_watermark = pb->opts.wakeup_bytes;
	}

	r.fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r.fd == -ENODEV || (r.fd < 0 && !bsdk_cpu_is_online(cpu))) {
		/* Went offline between the check and the open. */
		log_info("perf buffer: cpu %d is offline, its slot stays empty", cpu);
		return 0;
	}
	if (r.fd < 0)
		return log_fail(-r.fd, "perf buffer: cpu %d: perf_event_open(PERF_COUNT_SW_BPF_OUTPUT) failed: %s%s",
				cpu, bsdk_strerror(r.fd), perf_open_hint(r.fd));

	/* PROT_WRITE makes the kernel honour data_tail: it never overwrites
	 * unread records, and reports what did not fit as PERF_RECORD_LOST. */
	r.meta = mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
	if (r.meta == MAP_FAILED) {
		err = -errno;
		pb->mlock_refused = err == -EPERM;
		bsdk_log(err == -EPERM && pb->auto_pages &&
			 pb->opts.pages > AUTO_MIN_PAGES ?
			 BSDK_LOG_INFO : BSDK_LOG_ERROR,
			 "perf buffer: cpu %d: mmap of %zu bytes (%zu data pages) failed: %s%s",
			 cpu, mmap_size, pb->data_size / pb->page_size,
			 bsdk_strerror(err),
			 err == -EPERM ? " (the locked-memory limit for perf rings: raise /proc/sys/kernel/perf_event_mlock_kb or ulimit -l, or use fewer pages)" : "");
		close(r.fd);
		return fail(-err);
	}
	r.data = (uint8_t *)r.meta + pb->page_size;
	r.eager_fd = -1;
	if (pb->adaptive)
		r.eager_fd = eager_open(pb, cpu, r.fd);
	wake_init(&r.wake, now_ns());

	err = bpf_map_update(pb->map_fd, &cpu, r.eager_fd >= 0 ? &r.eager_fd : &r.fd, BPF_ANY);
	if (err < 0)
		log_error("perf buffer: cpu %d: storing the event in map slot %d failed: %s", cpu, cpu, bsdk_strerror(err));
	else if (epoll_ctl(pb->drain.epfd, EPOLL_CTL_ADD, r.fd, &ev) < 0)
		err = log_fail(errno, "perf buffer: cpu %d: epoll_ctl failed: %s", cpu, bsdk_strerror(errno));
	else if (ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		err = log_fail(errno, "perf buffer: cpu %d: enabling the event failed: %s", cpu, bsdk_strerror(errno));
	else
		err = array_push(&pb->rings, &pb->nrings, &r, sizeof(r));
	if (err < 0) {
		munmap(r.meta, mmap_size);
		close(r.fd);	/* which also takes it out of the epoll set */
		if (r.eager_fd >= 0)
			close(r.eager_fd);
		return fail(-err);
	}
	log_debug("perf buffer: cpu %d: ring of %zu bytes, fd %d", cpu, pb->data_size, r.fd);
	return 1;
}

static void ring_close(struct bsdk_perfbuf *pb, struct cpu_ring *r)
{
	union bpf_attr attr;

	perf_scratch_free(&r->scratch);
	if (pb->in_memory)
		return;
	/* Empty the slot so a program still running writes nowhere rather
	 * than into an event nobody reads (-ENOENT for it). */
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = pb->map_fd;
	attr.key = (uint64_t)(uintptr_t)&r->cpu;
	sys_bpf(BPF_MAP_DELETE_ELEM, &attr, sizeof(attr));
	munmap(r->meta, pb->page_size + pb->data_size);
	close(r->fd);
	if (r->eager_fd >= 0)
		close(r->eager_fd);
}

static void rings_close(struct bsdk_perfbuf *pb)
{
	for (size_t i = 0; i < pb->nrings; i++)
		ring_close(pb, &pb->rings[i]);
	pb->nrings = 0;
}

static unsigned int auto_pages(size_t page_size, int ncpu)
{
	size_t per_cpu = AUTO_BUDGET_BYTES / (size_t)(ncpu > 0 ? ncpu : 1);
	unsigned int pages = AUTO_MAX_PAGES;

	while (pages > AUTO_MIN_PAGES_SPLIT && (size_t)pages * page_size > per_cpu)
		pages /= 2;
	return pages;
}

/* merge mode: room for n rings. */
static int merge_alloc(struct bsdk_perfbuf *pb, size_t n)
{
	if (!pb->merge.key)
		pb->merge.key = calloc(n, sizeof(*pb->merge.key));
	if (!pb->merge.loser)
		pb->merge.loser = calloc(n, sizeof(*pb->merge.loser));
	return pb->merge.key && pb->merge.loser ? 0 : fail(ENOMEM);
}

int bsdk_perfbuf_rescan(struct bsdk_perfbuf *pb)
{
	int ncpu = bsdk_cpu_possible_count();
	int added = 0, err;

	if (pb->in_memory)	/* its rings are all the caller's */
		return 0;
	if (ncpu < 0)
		return log_fail(-ncpu, "perf buffer: cannot read the possible CPUs: %s", bsdk_strerror(ncpu));
	if (!pb->events)	/* room for every ring there can be */
		pb->events = calloc((size_t)ncpu, sizeof(*pb->events));
	if (!pb->events)
		return fail(ENOMEM);
	if (merge_alloc(pb, (size_t)ncpu))
		return fail(ENOMEM);
	for (int cpu = 0; cpu < ncpu; cpu++) {
		if (have_ring_for(pb, cpu))
			continue;
		if (!bsdk_cpu_is_online(cpu)) {
			log_info("perf buffer: cpu %d is offline, its slot stays empty", cpu);
			continue;
		}
		err = ring_open(pb, cpu);
		if (err < 0)
			return err;
		added += err;
	}
	return added;
}

/* Take the caller's options and fill in the defaults, the ring size's for ncpu CPUs. */
static int opts_setup(struct bsdk_perfbuf *pb, const struct bsdk_perfbuf_opts *opts, int ncpu)
{
	long page_size = sysconf(_SC_PAGESIZE);
	int err;

	err = opts_copy(&pb->opts, sizeof(pb->opts), opts, opts ? opts->sz : 0,
			offsetof(struct bsdk_perfbuf_opts, ctx) + sizeof(void *),
			"perf buffer");
	if (err < 0)
		return err;
	if (!pb->opts.on_sample)
		return log_fail(EINVAL, "perf buffer: opts.on_sample is required");
	if (page_size <= 0)
		return log_fail(EINVAL, "perf buffer: cannot read the page size");
	if (!pb->opts.pages) {
		pb->opts.pages = auto_pages((size_t)page_size, ncpu);
		pb->auto_pages = true;
	}
	if (pb->opts.pages & (pb->opts.pages - 1))
		return log_fail(EINVAL, "perf buffer: %u pages per CPU is not a power of two (try %u)",
				pb->opts.pages,
				1u << (31 - __builtin_clz(pb->opts.pages)));
	if (pb->opts.pages > SIZE_MAX / 2 / (size_t)page_size)
		return log_fail(EINVAL, "perf buffer: %u pages per CPU is too large", pb->opts.pages);
	pb->page_size = (size_t)page_size;
	pb->data_size = (size_t)pb->opts.pages * pb->page_size;
	if (!pb->opts.wakeup_events && !pb->opts.wakeup_bytes) {
		pb->opts.wakeup_bytes = pb->data_size / 4;
		pb->auto_wakeup = true;
	}
	if (pb->opts.wakeup_bytes > pb->data_size)
		return log_fail(EINVAL, "perf buffer: wakeup_bytes %u is larger than the ring (%zu bytes)",
				pb->opts.wakeup_bytes, pb->data_size);
	if (pb->opts.merge_by_ts && pb->opts.ts_offset > UINT32_MAX - 8)
		return log_fail(EINVAL, "perf buffer: ts_offset %u is out of range", pb->opts.ts_offset);
	return 0;
}

/* Open the rings; when the locked-memory limit refuses the default size,
 * try again at half size. */
static int rings_open(struct bsdk_perfbuf *pb)
{
	int err;

	for (;;) {
		pb->mlock_refused = false;
		err = bsdk_perfbuf_rescan(pb);
		/* only the mmap's EPERM is the limit: perf_event_open's is a missing
		 * capability, which smaller rings do not help */
		if (err != -EPERM || !pb->mlock_refused || !pb->auto_pages ||
		    pb->opts.pages <= AUTO_MIN_PAGES)
			break;
		rings_close(pb);
		pb->opts.pages /= 2;
		pb->data_size /= 2;
		if (pb->auto_wakeup)
			pb->opts.wakeup_bytes = pb->data_size / 4;
		log_info("perf buffer: locked memory limit reached, retrying with %u pages per CPU", pb->opts.pages);
	}
	if (err >= 0 && pb->nrings == 0)
		return log_fail(ENODEV, "perf buffer: no CPU could get a ring");
	return err < 0 ? err : 0;
}

/* The drain loop and the wakeup policy, as the options say. */
static int drain_setup(struct bsdk_perfbuf *pb)
{
	int err;

	pb->adaptive = !pb->opts.wakeup_events && pb->opts.max_latency_ms >= 0;
	err = drain_init(&pb->drain, "perf buffer", &pb->opts.max_latency_ms);
	wake_cfg_init(&pb->wake_cfg, pb->drain.period_ns);
	/* Without the policy every ring is drained on the timer, whatever its rate. */
	pb->drain.streaming = !pb->adaptive;
	return err;
}

struct bsdk_perfbuf *bsdk_perfbuf_new(int map_fd, const struct bsdk_perfbuf_opts *opts)
{
	struct bsdk_perfbuf *pb;
	struct bpf_map_info info;
	int err;

	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return fail_ptr(ENOMEM);
	pb->map_fd = map_fd;
	pb->drain.epfd = -1;
	err = opts_setup(pb, opts, bsdk_cpu_possible_count());
	if (!err)
		err = map_check(map_fd, BPF_MAP_TYPE_PERF_EVENT_ARRAY,
				"BPF_MAP_TYPE_PERF_EVENT_ARRAY", "perf buffer", &info);
	if (!err) {
		pb->map_slots = info.max_entries;
		err = drain_setup(pb);
	}
	if (!err)
		err = rings_open(pb);
	if (err) {
		bsdk_perfbuf_free(pb);
		return fail_ptr(-err);
	}
	log_info("perf buffer: %zu rings of %u pages, wakeup %s %u%s, drain every %d ms%s",
		 pb->nrings, pb->opts.pages,
		 pb->opts.wakeup_events ? "every" : "at bytes",
		 pb->opts.wakeup_events ? pb->opts.wakeup_events :
		 pb->opts.wakeup_bytes, pb->adaptive ? " or per record while records are rare" : "",
		 pb->opts.max_latency_ms, pb->adaptive ? " while they stream" : "");
	return pb;
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
	pb->in_memory = true;
	err = !nrings || nrings > INT32_MAX ? fail(EINVAL) : opts_setup(pb, opts, (int)nrings);
	if (!err)
		err = drain_setup(pb);
	if (!err) {
		pb->rings = calloc(nrings, sizeof(*pb->rings));
		pb->events = calloc(nrings, sizeof(*pb->events));
		if (!pb->rings || !pb->events || merge_alloc(pb, nrings))
			err = fail(ENOMEM);
	}
	/* No per-record event to switch to: each ring drains as one whose kernel refused it. */
	for (size_t i = 0; !err && i < nrings; i++, pb->nrings++) {
		struct cpu_ring *r = &pb->rings[i];

		r->cpu = (int)i;
		r->fd = r->eager_fd = -1;
		r->meta = rings[i];
		r->data = (uint8_t *)rings[i] + pb->page_size;
		wake_init(&r->wake, now_ns());
	}
	if (err) {
		bsdk_perfbuf_free(pb);
		return fail_ptr(-err);
	}
	return pb;
}

void perfbuf_default_footprint(int ncpu, size_t page_size, struct perfbuf_footprint *f)
{
	f->pages = auto_pages(page_size, ncpu);
	f->mapped = (size_t)ncpu * (1 + (size_t)f->pages) * page_size;
	f->heap = sizeof(struct bsdk_perfbuf) + (size_t)ncpu * (sizeof(struct cpu_ring) +
		  sizeof(struct epoll_event) + sizeof(struct merge_key) + sizeof(size_t));
}

void bsdk_perfbuf_free(struct bsdk_perfbuf *pb)
{
	int saved = errno;

	if (!pb)
		return;
	rings_close(pb);
	if (pb->drain.epfd >= 0)
		close(pb->drain.epfd);
	free(pb->rings);
	free(pb->events);
	free(pb->merge.key);
	free(pb->merge.loser);
	free(pb);
	errno = saved;
}

/* Begin a walk of ring r: snapshot data_head.
 *
 * The rule (include/uapi/linux/perf_event.h, on data_head): after reading data_head, user
 * space must issue a read barrier before reading the records, pairing with the kernel's
 * barrier between writing a record and publishing the new head. An acquire load is exactly
 * that: no read of the ring below can be ordered before it, so we never see a head that
 * covers a record whose bytes are not visible yet. */
static void walk_begin(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct perf_ring *w)
{
	w->data = r->data;
	w->size = pb->data_size;
	w->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	/* Only we write data_tail, so a plain (relaxed) read is enough. */
	w->tail = __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED);
	w->cpu = r->cpu;
	w->scratch = &r->scratch;
	w->counts = &pb->counts;
}

/* End a walk: give the consumed bytes back.
 *
 * The rule (same header, on data_tail): the kernel will not overwrite unread data as long as
 * data_tail says it is unread, and it may overwrite it as soon as it sees the new value. A
 * release store orders every read of the records (and the callbacks' use of zero-copy
 * pointers into the ring) before the store, pairing with the kernel's barrier before it
 * reads data_tail to compute free space. */
static void walk_end(struct cpu_ring *r, const struct perf_ring *w)
{
	__atomic_store_n(&r->meta->data_tail, w->tail, __ATOMIC_RELEASE);
}

static int consume_cpu_order(struct bsdk_perfbuf *pb)
{
	uint64_t n = 0;

	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];
		struct perf_ring w;

		r->nrec = 0;
		/* Checking for data costs one load from the mmapped page:
		 * no system call, so a drain of idle rings is cheap. */
		if (__atomic_load_n(&r->meta->data_head, __ATOMIC_RELAXED) == r->meta->data_tail)
			continue;
		walk_begin(pb, r, &w);
		r->nrec = perf_ring_walk(&w, (perf_ring_sample_fn)pb->opts.on_sample,
					 (perf_ring_lost_fn)pb->opts.on_lost,
					 pb->opts.ctx);
		n += r->nrec;
		walk_end(r, &w);
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

static uint64_t rec_ts(const struct bsdk_perfbuf *pb, const struct perf_rec *rec)
{
	uint64_t ts;

	/* Records too short to carry the field sort first. */
	if (rec->size < pb->opts.ts_offset + sizeof(ts))
		return 0;
	memcpy(&ts, (const uint8_t *)rec->data + pb->opts.ts_offset, sizeof(ts));
	return ts;
}

/* Fetch the next sample of ring r into r->pending, handing out the lost
 * reports met on the way (they carry no timestamp). */
static void merge_fetch(struct bsdk_perfbuf *pb, struct cpu_ring *r)
{
	r->has_pending = false;
	while (perf_ring_next(&r->walk, &r->pending)) {
		if (r->pending.kind == PERF_REC_SAMPLE) {
			r->has_pending = true;
			return;
		}
		if (pb->opts.on_lost)
			pb->opts.on_lost(pb->opts.ctx, r->cpu, r->pending.lost);
		perf_ring_advance(&r->walk, &r->pending);
	}
}

/* Hand out the record waiting in ring r. */
static void merge_deliver(struct bsdk_perfbuf *pb, struct cpu_ring *r)
{
	pb->opts.on_sample(pb->opts.ctx, r->cpu, r->pending.data, r->pending.size);
	perf_ring_advance(&r->walk, &r->pending);
	r->nrec++;
}

/* The k-way merge: every ring keeps its next record where it is (each has its own scratch
 * buffer, so a wrapped record of one CPU survives while another CPU's records are
 * delivered), and the smallest timestamp goes first, from a tournament of the rings that have
 * one (merge.c): log2(rings) comparisons per record. A ring with nothing to read is not
 * touched beyond the load of its head. */
static int consume_merged(struct bsdk_perfbuf *pb)
{
	struct merge_tree *t = &pb->merge;
	size_t k = 0, live;
	uint64_t n = 0;

	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];

		r->nrec = 0;
		r->has_pending = false;
		if (__atomic_load_n(&r->meta->data_head, __ATOMIC_RELAXED) == r->meta->data_tail)
			continue;
		walk_begin(pb, r, &r->walk);
		r->walked = true;
		merge_fetch(pb, r);
		if (r->has_pending)
			t->key[k++] = (struct merge_key){ rec_ts(pb, &r->pending), i };
	}
	merge_build(t, k);
	for (live = k; live > 1; merge_replay(t)) {
		struct merge_key *key = &t->key[t->winner];
		struct cpu_ring *best = &pb->rings[key->ring];

		merge_deliver(pb, best);
		n++;
		merge_fetch(pb, best);
		if (best->has_pending) {
			key->ts = rec_ts(pb, &best->pending);
		} else {
			*key = MERGE_DONE;
			live--;
		}
	}
	if (live) {
		/* One ring left with records (or only ever one): its order is the merge's, and
		 * the rest of it goes as in CPU order, at that cost. */
		struct cpu_ring *last = &pb->rings[t->key[t->winner].ring];
		uint64_t rest;

		merge_deliver(pb, last);
		rest = perf_ring_walk(&last->walk, (perf_ring_sample_fn)pb->opts.on_sample,
				      (perf_ring_lost_fn)pb->opts.on_lost, pb->opts.ctx);
		last->nrec += rest;
		n += 1 + rest;
	}
	for (size_t i = 0; i < pb->nrings; i++) {
		if (!pb->rings[i].walked)
			continue;
		pb->rings[i].walked = false;
		walk_end(&pb->rings[i], &pb->rings[i].walk);
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

static int consume_once(struct bsdk_perfbuf *pb)
{
	return pb->opts.merge_by_ts ? consume_merged(pb) : consume_cpu_order(pb);
}

/* Put the event the policy wants into the CPU's slot. An update replaces the slot atomically
 * (a program sees the old or the new event, both writing into the same ring). */
static void slot_set(struct bsdk_perfbuf *pb, struct cpu_ring *r)
{
	int fd = r->wake.mode == WAKE_STREAM ? r->fd : r->eager_fd;
	int err = bpf_map_update(pb->map_fd, &r->cpu, &fd, BPF_ANY);

	if (err < 0)
		log_warn("perf buffer: cpu %d: switching the map slot failed: %s", r->cpu, bsdk_strerror(err));
}

int bsdk_perfbuf_consume(struct bsdk_perfbuf *pb)
{
	uint64_t now;
	bool streaming = false, recheck = false;
	int n, more;

	if (!pb)
		return fail(EINVAL);
	now = now_ns();
	pb->drain.drains++;
	pb->drain.last_ns = now;
	n = consume_once(pb);
	if (!pb->adaptive)
		return n;
	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];

		if (r->eager_fd < 0) {
			streaming = true;
			continue;
		}
		r->settle = false;
		if (wake_update(&r->wake, &pb->wake_cfg, now, r->nrec)) {
			slot_set(pb, r);
			/* Back to per-record wakeups: a record written through the watermark
			 * event just before the switch woke nobody. Look again now, and once
			 * more a period later for a program that was still running with the
			 * old event when the update returned. */
			if (r->wake.mode == WAKE_EAGER)
				recheck = r->settle = true;
		}
		streaming |= r->wake.mode == WAKE_STREAM || r->settle;
	}
	pb->drain.streaming = streaming;
	if (recheck) {
		more = consume_once(pb);
		if (more > 0)
			n = n + more > INT32_MAX ? INT32_MAX : n + more;
	}
	return n;
}

static int consume(void *pb) { return bsdk_perfbuf_consume(pb); }

int bsdk_perfbuf_poll(struct bsdk_perfbuf *pb, int timeout_ms)
{
	return pb ? drain_poll(&pb->drain, pb->events, (int)pb->nrings,
			       timeout_ms, consume, pb) : fail(EINVAL);
}

int bsdk_perfbuf_timeout_ms(const struct bsdk_perfbuf *pb) { return pb ? drain_timeout_ms(&pb->drain) : fail(EINVAL); }

int bsdk_perfbuf_epoll_fd(const struct bsdk_perfbuf *pb) { return pb ? pb->drain.epfd : fail(EINVAL); }

void bsdk_perfbuf_stats(const struct bsdk_perfbuf *pb, struct bsdk_perfbuf_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!pb)
		return;
	stats->received = pb->counts.samples;
	stats->lost = pb->counts.lost;
	stats->unknown = pb->counts.unknown;
	stats->corrupt = pb->counts.corrupt;
	stats->corrupt_bytes = pb->counts.corrupt_bytes;
	stats->nomem = pb->counts.nomem;
	stats->copied = pb->counts.copied;
	stats->wakeups = pb->drain.wakeups;
	stats->drains = pb->drain.drains;
	stats->cpus = (unsigned int)pb->nrings;
	stats->pages = pb->opts.pages;
	for (size_t i = 0; i < pb->nrings; i++) {
		stats->switches += pb->rings[i].wake.switches;
		stats->streaming += !pb->adaptive || pb->rings[i].eager_fd < 0 ||
				    pb->rings[i].wake.mode == WAKE_STREAM;
	}
}
