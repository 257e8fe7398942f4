// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perfbuf.c - the per-CPU reader of a BPF_MAP_TYPE_PERF_EVENT_ARRAY.
 *
 * For every online CPU: a PERF_TYPE_SOFTWARE / PERF_COUNT_SW_BPF_OUTPUT
 * event, its fd stored in slot cpu of the map, its ring mmapped (one
 * metadata page + 2^n data pages) and its fd added to one epoll set. The
 * event wakes the consumer per wakeup_events records or at the watermark
 * (a quarter ring by default), and the consumer drains every ring on a
 * timer besides. Records are decoded by perf_ring.c; this file owns the
 * protocol with the kernel around it (the ordering of data_head and
 * data_tail). The rings layer extends it through struct perfbuf_ext
 * (channel.h): its sizing, per-record wakeups and merge by timestamp.
 */
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "channel/channel.h"

static const struct perfbuf_ext *ext;

void perfbuf_ext_set(const struct perfbuf_ext *e) { ext = e; }

static bool have_ring_for(const struct bsdk_perfbuf *pb, int cpu)
{
	for (size_t i = 0; i < pb->nrings; i++)
		if (pb->rings[i].cpu == cpu)
			return true;
	return false;
}

/* Map the ring of event r->fd; negative errno, logged. */
static int ring_map(struct bsdk_perfbuf *pb, struct cpu_ring *r)
{
	size_t mmap_size = pb->page_size + pb->data_size;
	int err;

	/* PROT_WRITE makes the kernel honour data_tail: it never overwrites
	 * unread records, and reports what did not fit as PERF_RECORD_LOST. */
	r->meta = mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->meta != MAP_FAILED) {
		r->data = (uint8_t *)r->meta + pb->page_size;
		return 0;
	}
	err = -errno;
	bsdk_log(ext && ext->map_refused(pb, err) ? BSDK_LOG_INFO : BSDK_LOG_ERROR,
		 "perf buffer: cpu %d: mmap of %zu bytes (%zu data pages) failed: %s%s",
		 r->cpu, mmap_size, pb->data_size / pb->page_size, bsdk_strerror(err),
		 err == -EPERM ? " (the locked-memory limit for perf rings: raise /proc/sys/kernel/perf_event_mlock_kb or ulimit -l, or use fewer pages)" : "");
	return err;
}

/* Open, map and register the ring of one CPU. Returns 1 when added, 0 when the CPU was skipped
 * (offline, or beyond the map), negative errno on failure. */
static int ring_open(struct bsdk_perfbuf *pb, int cpu)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW, .sample_period = 1 };
	struct epoll_event ev = { .events = EPOLLIN };
	struct cpu_ring r = { .cpu = cpu };
	size_t i = pb->nrings;
	int err, slot_fd;

	if ((uint32_t)cpu >= pb->map_slots) {
		log_warn("perf buffer: cpu %d has no slot in the map (max_entries %u); its records cannot be read", cpu, pb->map_slots);
		return 0;
	}
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
	err = ring_map(pb, &r);
	if (err) {
		close(r.fd);
		return fail(-err);
	}
	slot_fd = ext ? ext->ring_open(pb, i, &r) : r.fd;
	err = bpf_map_update(pb->map_fd, &cpu, &slot_fd, BPF_ANY);
	if (err < 0)
		log_error("perf buffer: cpu %d: storing the event in map slot %d failed: %s", cpu, cpu, bsdk_strerror(err));
	else if (epoll_ctl(pb->drain.epfd, EPOLL_CTL_ADD, r.fd, &ev) < 0)
		err = log_fail(errno, "perf buffer: cpu %d: epoll_ctl failed: %s", cpu, bsdk_strerror(errno));
	else if (ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		err = log_fail(errno, "perf buffer: cpu %d: enabling the event failed: %s", cpu, bsdk_strerror(errno));
	else
		err = array_push(&pb->rings, &pb->nrings, &r, sizeof(r));
	if (err < 0) {
		munmap(r.meta, pb->page_size + pb->data_size);
		close(r.fd);	/* which also takes it out of the epoll set */
		if (ext)
			ext->ring_close(pb, i);
		return fail(-err);
	}
	log_debug("perf buffer: cpu %d: ring of %zu bytes, fd %d", cpu, pb->data_size, r.fd);
	return 1;
}

void perfbuf_close_rings(struct bsdk_perfbuf *pb)
{
	union bpf_attr attr;

	for (size_t i = 0; i < pb->nrings; i++) {
		struct cpu_ring *r = &pb->rings[i];

		perf_scratch_free(&r->scratch);
		if (r->fd >= 0) {	/* not the caller's memory (perfbuf_new_mem()) */
			/* Empty the slot so a program still running writes nowhere rather
			 * than into an event nobody reads (-ENOENT for it). */
			memset(&attr, 0, sizeof(attr));
			attr.map_fd = pb->map_fd;
			attr.key = (uint64_t)(uintptr_t)&r->cpu;
			sys_bpf(BPF_MAP_DELETE_ELEM, &attr, sizeof(attr));
			munmap(r->meta, pb->page_size + pb->data_size);
			close(r->fd);
		}
		if (ext)
			ext->ring_close(pb, i);
	}
	pb->nrings = 0;
}

int perfbuf_open_cpus(struct bsdk_perfbuf *pb)
{
	int ncpu = bsdk_cpu_possible_count();
	int added = 0, err;

	if (ncpu < 0)
		return log_fail(-ncpu, "perf buffer: cannot read the possible CPUs: %s", bsdk_strerror(ncpu));
	if (!pb->events)	/* room for every ring there can be */
		pb->events = calloc((size_t)ncpu, sizeof(*pb->events));
	if (!pb->events)
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

/* Handlers written with libbpf's types (opts.sample_cb, opts.lost_cb) are called from here, with
 * the caller's ctx: the rings call on_sample and on_lost with pb as ctx. */
static void libbpf_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct bsdk_perfbuf *pb = ctx;

	pb->opts.sample_cb(pb->user_ctx, cpu, (void *)data, size);
}

static void libbpf_lost(void *ctx, int cpu, uint64_t count)
{
	struct bsdk_perfbuf *pb = ctx;

	if (pb->opts.lost_cb)
		pb->opts.lost_cb(pb->user_ctx, cpu, count);
}

static int libbpf_callbacks(struct bsdk_perfbuf *pb)
{
	if (!pb->opts.sample_cb && !pb->opts.lost_cb)
		return 0;
	if (!pb->opts.sample_cb || pb->opts.on_sample || pb->opts.on_lost)
		return log_fail(EINVAL, "perf buffer: set opts.on_sample (and on_lost) or opts.sample_cb (and lost_cb), not both kinds");
	pb->user_ctx = pb->opts.ctx;
	pb->opts.ctx = pb;
	pb->opts.on_sample = libbpf_sample;
	pb->opts.on_lost = libbpf_lost;
	return 0;
}

int perfbuf_opts_setup(struct bsdk_perfbuf *pb, const struct bsdk_perfbuf_opts *opts, int ncpu)
{
	long page_size = sysconf(_SC_PAGESIZE);
	int err;

	err = opts_copy(&pb->opts, sizeof(pb->opts), opts, opts ? opts->sz : 0,
			offsetof(struct bsdk_perfbuf_opts, ctx) + sizeof(void *),
			"perf buffer");
	if (err < 0)
		return err;
	err = libbpf_callbacks(pb);
	if (err < 0)
		return err;
	if (!pb->opts.on_sample)
		return log_fail(EINVAL, "perf buffer: opts.on_sample (or opts.sample_cb) is required");
	if (page_size <= 0)
		return log_fail(EINVAL, "perf buffer: cannot read the page size");
	err = ext ? ext->setup(pb, (size_t)page_size, ncpu) : 0;
	if (err < 0)
		return err;
	if (!pb->opts.pages)
		pb->opts.pages = PERFBUF_PLAIN_PAGES;
	if (pb->opts.pages & (pb->opts.pages - 1))
		return log_fail(EINVAL, "perf buffer: %u pages per CPU is not a power of two (try %u)",
				pb->opts.pages,
				1u << (31 - __builtin_clz(pb->opts.pages)));
	if (pb->opts.pages > SIZE_MAX / 2 / (size_t)page_size)
		return log_fail(EINVAL, "perf buffer: %u pages per CPU is too large", pb->opts.pages);
	pb->page_size = (size_t)page_size;
	pb->data_size = (size_t)pb->opts.pages * pb->page_size;
	if (!pb->opts.wakeup_events && !pb->opts.wakeup_bytes)
		pb->opts.wakeup_bytes = pb->data_size / 4;
	if (pb->opts.wakeup_bytes > pb->data_size)
		return log_fail(EINVAL, "perf buffer: wakeup_bytes %u is larger than the ring (%zu bytes)",
				pb->opts.wakeup_bytes, pb->data_size);
	if (pb->opts.merge_by_ts && !ext)
		return log_fail(ENOTSUP, "perf buffer: merge_by_ts needs the rings layer, which this build lacks (libbpfsdk-core.a: link libbpfsdk instead)");
	if (pb->opts.merge_by_ts && pb->opts.ts_offset > UINT32_MAX - 8)
		return log_fail(EINVAL, "perf buffer: ts_offset %u is out of range", pb->opts.ts_offset);
	return 0;
}

int perfbuf_drain_setup(struct bsdk_perfbuf *pb, int ncpu)
{
	int err = drain_init(&pb->drain, "perf buffer", &pb->opts.max_latency_ms);

	/* Without the rings layer's policy every ring is drained on the timer, whatever its rate. */
	pb->drain.streaming = true;
	if (!err && ext)
		ext->drain_ready(pb);
	return err;
}

struct bsdk_perfbuf *bsdk_perfbuf_new(int map_fd, const struct bsdk_perfbuf_opts *opts)
{
	struct bsdk_perfbuf *pb;
	struct bpf_map_info info;
	int ncpu = bsdk_cpu_possible_count(), err;
	bool per_record;

	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return fail_ptr(ENOMEM);
	pb->map_fd = map_fd;
	pb->drain.epfd = -1;
	err = perfbuf_opts_setup(pb, opts, ncpu);
	if (!err)
		err = map_check(map_fd, BPF_MAP_TYPE_PERF_EVENT_ARRAY,
				"BPF_MAP_TYPE_PERF_EVENT_ARRAY", "perf buffer", &info);
	if (!err) {
		pb->map_slots = info.max_entries;
		err = perfbuf_drain_setup(pb, ncpu);
	}
	if (!err)
		err = ext ? ext->open(pb) : perfbuf_open_cpus(pb);
	if (err >= 0 && pb->nrings == 0)
		err = log_fail(ENODEV, "perf buffer: no CPU could get a ring");
	if (err < 0) {
		bsdk_perfbuf_free(pb);
		return fail_ptr(-err);
	}
	per_record = ext && ext->per_record(pb);
	log_info("perf buffer: %zu rings of %u pages, wakeup %s %u%s, drain every %d ms%s",
		 pb->nrings, pb->opts.pages,
		 pb->opts.wakeup_events ? "every" : "at bytes",
		 pb->opts.wakeup_events ? pb->opts.wakeup_events :
		 pb->opts.wakeup_bytes, per_record ? " or per record while records are rare" : "",
		 pb->opts.max_latency_ms, per_record ? " while they stream" : "");
	return pb;
}

void bsdk_perfbuf_free(struct bsdk_perfbuf *pb)
{
	int saved = errno;

	if (!pb)
		return;
	perfbuf_close_rings(pb);
	if (ext)
		ext->free(pb);
	if (pb->drain.epfd >= 0)
		close(pb->drain.epfd);
	free(pb->rings);
	free(pb->events);
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
void perfbuf_walk_begin(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct perf_ring *w)
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
void perfbuf_walk_end(struct cpu_ring *r, const struct perf_ring *w)
{
	__atomic_store_n(&r->meta->data_tail, w->tail, __ATOMIC_RELEASE);
}

int perfbuf_consume_cpus(struct bsdk_perfbuf *pb)
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
		perfbuf_walk_begin(pb, r, &w);
		r->nrec = perf_ring_walk(&w, (perf_ring_sample_fn)pb->opts.on_sample,
					 (perf_ring_lost_fn)pb->opts.on_lost,
					 pb->opts.ctx);
		n += r->nrec;
		perfbuf_walk_end(r, &w);
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int bsdk_perfbuf_consume(struct bsdk_perfbuf *pb)
{
	if (!pb)
		return fail(EINVAL);
	pb->drain.drains++;
	pb->drain.last_ns = now_ns();
	return ext ? ext->consume(pb) : perfbuf_consume_cpus(pb);
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
	stats->streaming = (unsigned int)pb->nrings;	/* all on the timer, without the policy */
	if (ext)
		ext->stats(pb, stats);
}
