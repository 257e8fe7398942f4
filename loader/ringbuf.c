// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringbuf.c - the consumer of a BPF_MAP_TYPE_RINGBUF.
 *
 * The map's fd is mmapped in two parts: the consumer page (read-write: we publish
 * consumer_pos there) and, from the next page on, the producer page followed by the data area
 * mapped twice (read-only). Producers on every CPU reserve space by advancing producer_pos,
 * write, then clear the BUSY bit of the record's header; we read committed records in order
 * and then advance consumer_pos.
 */
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "perf_ring.h"

struct bsdk_ringbuf {
	int map_fd;
	struct drain drain;
	struct bsdk_ringbuf_opts opts;
	size_t page_size;
	uint64_t size;                  /* max_entries: the data area */
	uint64_t *consumer_pos;         /* the consumer page */
	uint64_t *producer_pos;         /* the producer page */
	size_t prod_map_size;
	struct bpf_ring walk;           /* counters live here */
};

uint64_t bpf_ring_walk(struct bpf_ring *r, perf_ring_sample_fn on_sample, void *ctx)
{
	uint64_t n = 0;

	while (r->cons < r->prod) {
		const uint32_t *hdr =
			(const uint32_t *)(r->data + (r->cons & (r->size - 1)));
		/* Acquire: the producer clears BUSY with a release store after writing the
		 * record, so once we see BUSY clear, the bytes of the record are visible too. */
		uint32_t raw = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		uint32_t len;
		uint64_t total;

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
			if (on_sample)
				on_sample(ctx, -1, (const uint8_t *)hdr + BPF_RINGBUF_HDR_SZ, len);
			r->received++;
			n++;
		}
		r->cons += total;
	}
	return n;
}

/* Map the consumer page read-write, and read-only (the kernel refuses
 * write access) the producer page and the data area twice over: the double
 * mapping is what lets records wrap without a copy. */
static int ring_map(struct bsdk_ringbuf *rb, const struct bpf_map_info *info)
{
	void *p;

	/* The kernel only creates power-of-two multiples of the page size,
	 * but the walker's mask depends on it: check rather than trust. */
	if (!info->max_entries || info->max_entries & (info->max_entries - 1) ||
	    info->max_entries % rb->page_size)
		return log_fail(EINVAL, "ring buffer: map '%s' has size %u, not a power-of-two number of pages",
				info->name, info->max_entries);
	rb->size = info->max_entries;
	p = mmap(NULL, rb->page_size, PROT_READ | PROT_WRITE, MAP_SHARED, rb->map_fd, 0);
	if (p == MAP_FAILED)
		return log_fail(errno, "ring buffer: map '%s': mmap of the consumer page failed: %s", info->name, bsdk_strerror(errno));
	rb->consumer_pos = p;
	rb->prod_map_size = rb->page_size + 2 * rb->size;
	p = mmap(NULL, rb->prod_map_size, PROT_READ, MAP_SHARED, rb->map_fd, (off_t)rb->page_size);
	if (p == MAP_FAILED)
		return log_fail(errno, "ring buffer: map '%s': mmap of the data pages failed: %s", info->name, bsdk_strerror(errno));
	rb->producer_pos = p;
	rb->walk.data = (const uint8_t *)p + rb->page_size;
	rb->walk.size = rb->size;
	return 0;
}

struct bsdk_ringbuf *bsdk_ringbuf_new(int map_fd, const struct bsdk_ringbuf_opts *opts)
{
	struct bsdk_ringbuf *rb;
	struct bpf_map_info info;
	struct epoll_event ev = { .events = EPOLLIN };
	int err;

	rb = calloc(1, sizeof(*rb));
	if (!rb)
		return fail_ptr(ENOMEM);
	rb->map_fd = map_fd;
	rb->drain.epfd = -1;
	rb->page_size = (size_t)sysconf(_SC_PAGESIZE);

	err = opts_copy(&rb->opts, sizeof(rb->opts), opts, opts ? opts->sz : 0, 1, "ring buffer");
	if (!err && !rb->opts.on_sample)
		err = log_fail(EINVAL, "ring buffer: opts.on_sample is required");
	if (!err)
		err = map_check(map_fd, BPF_MAP_TYPE_RINGBUF,
				"BPF_MAP_TYPE_RINGBUF", "ring buffer", &info);
	if (!err)
		err = ring_map(rb, &info);
	if (!err)
		err = drain_init(&rb->drain, "ring buffer", &rb->opts.max_latency_ms);
	if (!err && epoll_ctl(rb->drain.epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0)
		err = log_fail(errno, "ring buffer: epoll_ctl on map '%s' failed: %s", info.name, bsdk_strerror(errno));
	if (err) {
		bsdk_ringbuf_free(rb);
		return fail_ptr(-err);
	}
	log_info("ring buffer: map '%s', %llu bytes, drain every %d ms",
		 info.name, (unsigned long long)rb->size,
		 rb->opts.max_latency_ms);
	return rb;
}

void bsdk_ringbuf_free(struct bsdk_ringbuf *rb)
{
	int saved = errno;

	if (!rb)
		return;
	if (rb->consumer_pos)
		munmap(rb->consumer_pos, rb->page_size);
	if (rb->producer_pos)
		munmap(rb->producer_pos, rb->prod_map_size);
	if (rb->drain.epfd >= 0)
		close(rb->drain.epfd);
	free(rb);
	errno = saved;
}

int bsdk_ringbuf_consume(struct bsdk_ringbuf *rb)
{
	uint64_t n;

	if (!rb)
		return fail(EINVAL);
	rb->drain.drains++;
	rb->drain.last_ns = now_ns();
	/* Acquire on producer_pos, pairing with the kernel's release when it reserves: every
	 * header below it is at least reserved (BUSY) and readable. */
	rb->walk.prod = __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE);
	rb->walk.cons = __atomic_load_n(rb->consumer_pos, __ATOMIC_RELAXED);
	if (rb->walk.cons == rb->walk.prod)
		return 0;
	n = bpf_ring_walk(&rb->walk, rb->opts.on_sample, rb->opts.ctx);
	/* Release: our reads of the records happen before the kernel may
	 * hand their space to a new reservation. */
	__atomic_store_n(rb->consumer_pos, rb->walk.cons, __ATOMIC_RELEASE);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

static int consume(void *rb) { return bsdk_ringbuf_consume(rb); }

int bsdk_ringbuf_poll(struct bsdk_ringbuf *rb, int timeout_ms)
{
	struct epoll_event ev;

	return rb ? drain_poll(&rb->drain, &ev, 1, timeout_ms, consume, rb) :
		    fail(EINVAL);
}

int bsdk_ringbuf_timeout_ms(const struct bsdk_ringbuf *rb) { return rb ? drain_timeout_ms(&rb->drain) : fail(EINVAL); }

int bsdk_ringbuf_epoll_fd(const struct bsdk_ringbuf *rb) { return rb ? rb->drain.epfd : fail(EINVAL); }

void bsdk_ringbuf_stats(const struct bsdk_ringbuf *rb, struct bsdk_ringbuf_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!rb)
		return;
	stats->received = rb->walk.received;
	stats->discarded = rb->walk.discarded;
	stats->corrupt = rb->walk.corrupt;
	stats->wakeups = rb->drain.wakeups;
	stats->drains = rb->drain.drains;
}
