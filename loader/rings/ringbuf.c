// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringbuf.c - the consumer of BPF_MAP_TYPE_RINGBUF maps.
 *
 * Each map's fd is mmapped in two parts: the consumer page (read-write: we publish
 * consumer_pos there) and, from the next page on, the producer page followed by the data area
 * mapped twice (read-only). Producers on every CPU reserve space by advancing producer_pos,
 * write, then clear the BUSY bit of the record's header; we read committed records in order
 * and then advance consumer_pos.
 *
 * When the kernel wakes us is decided by where we publish consumer_pos. kernel/bpf/ringbuf.c,
 * bpf_ringbuf_commit(), after clearing BUSY with xchg():
 *
 *	rec_pos = (void *)hdr - (void *)rb->data;
 *	cons_pos = smp_load_acquire(&rb->consumer_pos) & rb->mask;
 *	if (flags & BPF_RB_FORCE_WAKEUP)
 *		irq_work_queue(&rb->work);
 *	else if (cons_pos == rec_pos && !(flags & BPF_RB_NO_WAKEUP))
 *		irq_work_queue(&rb->work);
 *
 * (6.1 and 6.18 alike). A record wakes us only if consumer_pos is exactly where it starts. So
 * while records stream in (wakeup.c says STREAM) we publish all but the last record we have
 * read - its start is a position no future record can start at - and drain on a timer: no
 * commit wakes us. When the stream thins out (EAGER) we publish everything and the next record
 * wakes us at once. Holding back a whole record rather than a few bytes keeps consumer_pos on
 * a record boundary, so whoever reads the map after us (a pinned map, a consumer that died)
 * finds a valid header there. The map's poll reports EPOLLIN whenever producer_pos !=
 * consumer_pos, which is always true while we hold a record back, so the fd is in the epoll
 * set edge-triggered: it fires on the kernel's wakeups only.
 */
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rings/rings.h"

struct rb_ring {
	int map_fd;                     /* -1: a ring in memory (ringbuf_new_mem()) */
	char name[BPF_OBJ_NAME_LEN];
	uint64_t *consumer_pos;         /* the consumer page */
	const uint64_t *producer_pos;   /* the producer page */
	size_t prod_map_size;
	bsdk_perfbuf_sample_fn on_sample;
	void *ctx;
	struct bpf_ring walk;           /* position and counters live here */
	struct wake_policy wake;
	bool pending;                   /* a callback stopped the drain with records left */
	uint64_t last_drain;            /* ns, when the last drain of this ring began */
	uint64_t period_ns;             /* its drain period while it streams */
};

struct bsdk_ringbuf {
	struct drain drain;
	struct bsdk_ringbuf_opts opts;
	struct wake_cfg wake_cfg;
	bool adaptive;                  /* max_latency_ms >= 0 */
	uint64_t base_period_ns;        /* max_latency_ms; a small ring may need less */
	size_t page_size;
	struct rb_ring *rings;
	size_t nrings;
	struct epoll_event *events;     /* one per ring, for epoll_wait */
};

/* Publish pos with release order: our reads of the records happen before the kernel may hand
 * their space to a new reservation. */
static void publish(uint64_t *consumer_pos, uint64_t *published, uint64_t pos)
{
	__atomic_store_n(consumer_pos, pos, __ATOMIC_RELEASE);
	*published = pos;
}

uint64_t bpf_ring_walk(struct bpf_ring *r, perf_ring_sample_fn on_sample, void *ctx)
{
	uint64_t n = 0;

	r->stop = 0;
	while (r->cons < r->prod) {
		const uint32_t *hdr =
			(const uint32_t *)(r->data + (r->cons & (r->size - 1)));
		/* Acquire: the producer clears BUSY with a release store after writing the
		 * record, so once we see BUSY clear, the bytes of the record are visible too. */
		uint32_t raw = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		const void *data = (const uint8_t *)hdr + BPF_RINGBUF_HDR_SZ;
		uint32_t len;
		uint64_t total;
		int stop = 0;

		if (raw & BPF_RINGBUF_BUSY_BIT)
			break;	/* reserved, not committed yet: stop here */
		len = raw & ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
		total = ((uint64_t)len + BPF_RINGBUF_HDR_SZ + 7) & ~7ull;
		if (total > r->size || total > r->prod - r->cons) {
			log_warn("ring buffer: corrupt record at offset %llu (length %u): dropping the %llu bytes ready",
				 (unsigned long long)(r->cons & (r->size - 1)),
				 len, (unsigned long long)(r->prod - r->cons));
			r->corrupt++;
			r->cons = r->prod;
			break;
		}
		if (raw & BPF_RINGBUF_DISCARD_BIT) {
			r->discarded++;
		} else {
			/* The data area is mapped twice: a record that
			 * wraps is contiguous here, no copy needed. */
			if (r->on_record)
				stop = r->on_record(ctx, data, len);
			else if (r->sample_cb)	/* libbpf's type: not const, but read-only */
				stop = r->sample_cb(ctx, (void *)data, len);
			else if (on_sample)
				on_sample(ctx, -1, data, len);
			r->received++;
			n++;
		}
		r->last = r->cons;
		r->cons += total;
		if (stop) {
			r->stop = stop;
			break;
		}
		/* A slow callback must not keep the whole batch's space from the producers. */
		if (r->consumer_pos && n % BPF_RING_PUBLISH_EVERY == 0 && n)
			publish(r->consumer_pos, &r->published, r->last);
	}
	return n;
}

/* Map the consumer page read-write, and read-only (the kernel refuses
 * write access) the producer page and the data area twice over: the double
 * mapping is what lets records wrap without a copy. */
static int ring_map(struct bsdk_ringbuf *rb, struct rb_ring *r, const struct bpf_map_info *info)
{
	void *p;

	/* The kernel only creates power-of-two multiples of the page size,
	 * but the walker's mask depends on it: check rather than trust. */
	if (!info->max_entries || info->max_entries & (info->max_entries - 1) ||
	    info->max_entries % rb->page_size)
		return log_fail(EINVAL, "ring buffer: map '%s' has size %u, not a power-of-two number of pages",
				info->name, info->max_entries);
	p = mmap(NULL, rb->page_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->map_fd, 0);
	if (p == MAP_FAILED)
		return log_fail(errno, "ring buffer: map '%s': mmap of the consumer page failed: %s", info->name, bsdk_strerror(errno));
	r->consumer_pos = p;
	r->prod_map_size = rb->page_size + 2 * (size_t)info->max_entries;
	p = mmap(NULL, r->prod_map_size, PROT_READ, MAP_SHARED, r->map_fd, (off_t)rb->page_size);
	if (p == MAP_FAILED)
		return log_fail(errno, "ring buffer: map '%s': mmap of the data pages failed: %s", info->name, bsdk_strerror(errno));
	r->producer_pos = p;
	r->walk.data = (const uint8_t *)p + rb->page_size;
	r->walk.size = info->max_entries;
	/* Start where the last consumer of the map stopped. */
	r->walk.cons = __atomic_load_n(r->consumer_pos, __ATOMIC_ACQUIRE);
	r->walk.published = r->walk.last = r->walk.cons;
	r->walk.consumer_pos = r->consumer_pos;
	return 0;
}

static void ring_unmap(struct rb_ring *r, size_t page_size)
{
	if (r->consumer_pos)
		munmap(r->consumer_pos, page_size);
	if (r->producer_pos)
		munmap((void *)r->producer_pos, r->prod_map_size);
}

/* Open map_fd as ring number rb->nrings, with the callbacks of opts. */
static int ring_add(struct bsdk_ringbuf *rb, int map_fd, const struct bsdk_ringbuf_opts *opts)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	struct rb_ring r = { .map_fd = map_fd };
	struct bpf_map_info info;
	struct epoll_event *grown;
	int err;

	if (!!opts->on_sample + !!opts->on_record + !!opts->sample_cb != 1)
		return log_fail(EINVAL, "ring buffer: set exactly one of opts.on_sample, opts.on_record and opts.sample_cb");
	r.on_sample = opts->on_sample;
	r.walk.on_record = opts->on_record;
	r.walk.sample_cb = opts->sample_cb;
	r.ctx = opts->ctx;
	err = map_check(map_fd, BPF_MAP_TYPE_RINGBUF, "BPF_MAP_TYPE_RINGBUF", "ring buffer", &info);
	if (!err)
		err = ring_map(rb, &r, &info);
	if (err) {
		ring_unmap(&r, rb->page_size);
		return err;
	}
	memcpy(r.name, info.name, sizeof(r.name));
	r.last_drain = now_ns();
	r.period_ns = rb->base_period_ns;
	wake_init(&r.wake, r.last_drain);
	ev.data.u64 = rb->nrings;
	grown = realloc(rb->events, (rb->nrings + 1) * sizeof(*grown));
	if (grown)
		rb->events = grown;
	if (!grown)
		err = fail(ENOMEM);
	else if (epoll_ctl(rb->drain.epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0)
		err = log_fail(errno, "ring buffer: epoll_ctl on map '%s' failed: %s", info.name, bsdk_strerror(errno));
	else if ((err = array_push(&rb->rings, &rb->nrings, &r, sizeof(r))) < 0)
		epoll_ctl(rb->drain.epfd, EPOLL_CTL_DEL, map_fd, NULL);
	if (err) {
		ring_unmap(&r, rb->page_size);
		return err;
	}
	log_info("ring buffer: map '%s', %u bytes", info.name, info.max_entries);
	return 0;
}

/* A consumer with no ring yet, its options taken; NULL with errno. */
static struct bsdk_ringbuf *consumer_new(const struct bsdk_ringbuf_opts *opts)
{
	struct bsdk_ringbuf *rb;
	int err;

	rb = calloc(1, sizeof(*rb));
	if (!rb)
		return fail_ptr(ENOMEM);
	rb->drain.epfd = -1;
	rb->page_size = (size_t)sysconf(_SC_PAGESIZE);

	err = opts_copy(&rb->opts, sizeof(rb->opts), opts, opts ? opts->sz : 0,
			offsetof(struct bsdk_ringbuf_opts, max_latency_ms) + sizeof(int), "ring buffer");
	if (!err && rb->opts.idle_drain_ms < 0)
		err = log_fail(EINVAL, "ring buffer: opts.idle_drain_ms is %d, not 0 or more", rb->opts.idle_drain_ms);
	if (!err) {
		rb->adaptive = rb->opts.max_latency_ms >= 0;
		err = drain_init(&rb->drain, "ring buffer", &rb->opts.max_latency_ms);
	}
	if (err) {
		bsdk_ringbuf_free(rb);
		return fail_ptr(-err);
	}
	rb->drain.idle_ns = (uint64_t)rb->opts.idle_drain_ms * 1000000ull;
	wake_cfg_init(&rb->wake_cfg, rb->drain.period_ns);
	rb->base_period_ns = rb->drain.period_ns;
	return rb;
}

struct bsdk_ringbuf *bsdk_ringbuf_new(int map_fd, const struct bsdk_ringbuf_opts *opts)
{
	struct bsdk_ringbuf *rb = consumer_new(opts);
	int err;

	if (!rb)
		return NULL;
	err = ring_add(rb, map_fd, &rb->opts);
	if (err) {
		bsdk_ringbuf_free(rb);
		return fail_ptr(-err);
	}
	return rb;
}

struct bsdk_ringbuf *ringbuf_new_mem(const struct bsdk_ringbuf_opts *opts, uint64_t *consumer_pos,
				     const uint64_t *producer_pos, const void *data, size_t size)
{
	struct bsdk_ringbuf *rb = consumer_new(opts);
	struct rb_ring r = { .map_fd = -1, .name = "in memory" };
	int err = 0;

	if (!rb)
		return NULL;
	if (!!rb->opts.on_sample + !!rb->opts.on_record + !!rb->opts.sample_cb != 1 ||
	    !size || size & (size - 1))
		err = fail(EINVAL);
	r.on_sample = rb->opts.on_sample;
	r.walk.on_record = rb->opts.on_record;
	r.walk.sample_cb = rb->opts.sample_cb;
	r.ctx = rb->opts.ctx;
	r.consumer_pos = r.walk.consumer_pos = consumer_pos;
	r.producer_pos = producer_pos;
	r.walk.data = data;
	r.walk.size = size;
	r.walk.cons = r.walk.published = r.walk.last = *consumer_pos;
	r.last_drain = now_ns();
	r.period_ns = rb->base_period_ns;
	wake_init(&r.wake, r.last_drain);
	rb->events = calloc(1, sizeof(*rb->events));
	if (!err && !rb->events)
		err = fail(ENOMEM);
	if (!err)
		err = array_push(&rb->rings, &rb->nrings, &r, sizeof(r));
	if (err) {
		bsdk_ringbuf_free(rb);
		return fail_ptr(-err);
	}
	return rb;
}

int bsdk_ringbuf_add(struct bsdk_ringbuf *rb, int map_fd, const struct bsdk_ringbuf_opts *opts)
{
	struct bsdk_ringbuf_opts o;
	int err;

	if (!rb)
		return fail(EINVAL);
	if (!opts)
		return ring_add(rb, map_fd, &rb->opts);
	err = opts_copy(&o, sizeof(o), opts, opts->sz,
			offsetof(struct bsdk_ringbuf_opts, max_latency_ms) + sizeof(int), "ring buffer");
	if (!err && (o.max_latency_ms || o.idle_drain_ms))
		err = log_fail(EINVAL, "ring buffer: bsdk_ringbuf_add(): max_latency_ms and idle_drain_ms belong to bsdk_ringbuf_new(); leave them 0");
	return err ? err : ring_add(rb, map_fd, &o);
}

void bsdk_ringbuf_free(struct bsdk_ringbuf *rb)
{
	int saved = errno;

	if (!rb)
		return;
	for (size_t i = 0; i < rb->nrings; i++) {
		struct rb_ring *r = &rb->rings[i];

		/* Leave the map as a plain consumer would: everything read is given back. */
		if (r->consumer_pos && r->walk.published != r->walk.cons)
			publish(r->consumer_pos, &r->walk.published, r->walk.cons);
		if (r->map_fd >= 0)	/* not the caller's memory (ringbuf_new_mem()) */
			ring_unmap(r, rb->page_size);
	}
	if (rb->drain.epfd >= 0)
		close(rb->drain.epfd);
	free(rb->rings);
	free(rb->events);
	free(rb);
	errno = saved;
}

/* Publish everything and check that nothing slipped in unseen. A producer that committed
 * while we still held a record back was not asked to wake us. The kernel commits with xchg()
 * (a full barrier) and then loads consumer_pos; we store consumer_pos, issue a full fence, then
 * load producer_pos and the header there. Either our load sees its reservation and its cleared
 * BUSY bit - we drain again - or its load sees our consumer_pos equal to its record - it wakes
 * us. True when there is a committed record to drain now. */
static bool publish_all(struct rb_ring *r)
{
	uint64_t prod;
	uint32_t raw;

	if (r->walk.published != r->walk.cons)
		publish(r->consumer_pos, &r->walk.published, r->walk.cons);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	prod = __atomic_load_n(r->producer_pos, __ATOMIC_ACQUIRE);
	if (prod == r->walk.cons)
		return false;
	raw = __atomic_load_n((const uint32_t *)(r->walk.data + (r->walk.cons & (r->walk.size - 1))),
			      __ATOMIC_ACQUIRE);
	/* Still BUSY: its commit will find consumer_pos at its record and wake us. */
	return !(raw & BPF_RINGBUF_BUSY_BIT);
}

/* Publish all but the last record read: its start is a position no future record can start
 * at, so no commit wakes us. consumer_pos never moves back: the kernel may have handed out
 * space up to a ring's size past it. */
static void hold_back(struct rb_ring *r)
{
	if (r->walk.last > r->walk.published)
		publish(r->consumer_pos, &r->walk.published, r->walk.last);
}

/* Drain one ring: walk, let the policy judge, publish accordingly. The number of records handed
 * out, or a callback's negative stop value. */
static int64_t ring_drain(struct bsdk_ringbuf *rb, struct rb_ring *r, uint64_t now)
{
	uint64_t total = 0, n, from = r->walk.cons;

	r->pending = false;
	for (;;) {
		/* Acquire on producer_pos, pairing with the kernel's release when it reserves:
		 * every header below it is at least reserved (BUSY) and readable. */
		r->walk.prod = __atomic_load_n(r->producer_pos, __ATOMIC_ACQUIRE);
		n = r->walk.cons == r->walk.prod ? 0 : bpf_ring_walk(&r->walk, r->on_sample, r->ctx);
		total += n;
		if (rb->adaptive && wake_update(&r->wake, &rb->wake_cfg, now, n))
			log_debug("ring buffer: map '%s': %s after %llu records", r->name,
				  r->wake.mode == WAKE_STREAM ? "draining on the timer" :
				  "woken per record", (unsigned long long)n);
		if (r->walk.stop) {
			/* Records may be left that no wakeup will announce: drain again at
			 * the next poll, without waiting. */
			r->pending = true;
			hold_back(r);
			return r->walk.stop < 0 ? r->walk.stop : (int64_t)total;
		}
		if (rb->adaptive && r->wake.mode == WAKE_STREAM) {
			/* Drain at least as often as a quarter of the ring fills; when that
			 * is under a millisecond, the timer would let it overflow: be woken
			 * by the kernel instead, for a second at least. */
			r->period_ns = wake_stream_period(rb->base_period_ns, r->walk.cons - from,
						     now - r->last_drain, r->walk.size);
			if (!r->period_ns) {
				r->period_ns = rb->base_period_ns;
				wake_hold_eager(&r->wake, now, 1000000000ull);
				log_debug("ring buffer: map '%s': %llu bytes in %llu us, a quarter of the ring in less than 1 ms: woken per record for 1 s",
					  r->name, (unsigned long long)(r->walk.cons - from),
					  (unsigned long long)(now - r->last_drain) / 1000);
			}
		}
		if (rb->adaptive && r->wake.mode == WAKE_STREAM) {
			hold_back(r);
			return (int64_t)total;
		}
		if (!publish_all(r))
			return (int64_t)total;
	}
}

static int64_t ring_consume(struct bsdk_ringbuf *rb, struct rb_ring *r, uint64_t now)
{
	int64_t n = ring_drain(rb, r, now);

	r->last_drain = now;
	return n;
}

static int consume(void *owner)
{
	struct bsdk_ringbuf *rb = owner;
	uint64_t now = now_ns(), total = 0;
	bool streaming = false, pending = false;
	int64_t n = 0;

	rb->drain.drains++;
	rb->drain.last_ns = now;
	for (size_t i = 0; i < rb->nrings; i++) {
		n = ring_consume(rb, &rb->rings[i], now);
		if (n < 0)
			break;
		total += (uint64_t)n;
		if (rb->rings[i].pending) {
			pending = true;
			break;
		}
	}
	rb->drain.period_ns = rb->base_period_ns;
	for (size_t i = 0; i < rb->nrings; i++) {
		const struct rb_ring *r = &rb->rings[i];

		if (rb->adaptive && r->wake.mode == WAKE_STREAM) {
			streaming = true;
			if (r->period_ns < rb->drain.period_ns)
				rb->drain.period_ns = r->period_ns;
		}
		pending |= r->pending;
	}
	/* A ring a callback stopped short is due at once; one that streams at the period. */
	rb->drain.streaming = streaming || pending;
	if (pending)
		rb->drain.last_ns = now - rb->drain.period_ns;
	if (n < 0)
		return (int)n;
	return total > INT32_MAX ? INT32_MAX : (int)total;
}

int bsdk_ringbuf_consume(struct bsdk_ringbuf *rb)
{
	if (!rb)
		return fail(EINVAL);
	/* Called from the caller's own loop, after its epoll said ours is readable: take the
	 * edge-triggered events off our set, or it would stay readable in the caller's. */
	epoll_wait(rb->drain.epfd, rb->events, (int)rb->nrings, 0);
	return consume(rb);
}

int bsdk_ringbuf_poll(struct bsdk_ringbuf *rb, int timeout_ms)
{
	return rb ? drain_poll(&rb->drain, rb->events, (int)rb->nrings, timeout_ms, consume, rb) :
		    fail(EINVAL);
}

int bsdk_ringbuf_timeout_ms(const struct bsdk_ringbuf *rb) { return rb ? drain_timeout_ms(&rb->drain) : fail(EINVAL); }

int bsdk_ringbuf_epoll_fd(const struct bsdk_ringbuf *rb) { return rb ? rb->drain.epfd : fail(EINVAL); }

void bsdk_ringbuf_stats(const struct bsdk_ringbuf *rb, struct bsdk_ringbuf_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!rb)
		return;
	for (size_t i = 0; i < rb->nrings; i++) {
		const struct rb_ring *r = &rb->rings[i];

		stats->received += r->walk.received;
		stats->discarded += r->walk.discarded;
		stats->corrupt += r->walk.corrupt;
		stats->switches += r->wake.switches;
		stats->streaming += rb->adaptive && r->wake.mode == WAKE_STREAM;
	}
	stats->rings = (unsigned int)rb->nrings;
	stats->wakeups = rb->drain.wakeups;
	stats->drains = rb->drain.drains;
}

static int ringbuf_poll_fn(void *buf, int timeout_ms)
{
	return bsdk_ringbuf_poll(buf, timeout_ms);
}

int bsdk_ringbuf_run(struct bsdk_ringbuf *rb, const struct bsdk_run_opts *opts)
{
	return run_loop(ringbuf_poll_fn, rb, "ring buffer", opts);
}

int bsdk_ringbuf_drain(struct bsdk_ringbuf *rb, FILE *out)
{
	if (!rb)
		return log_fail(EINVAL, "ring buffer: nothing to drain");
	bsdk_ringbuf_consume(rb);
	return run_flush(out);
}
