// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringbuf.c - the consumer of a BPF_MAP_TYPE_RINGBUF.
 *
 * The map's fd is mmapped in two parts: the consumer page (read-write: we
 * publish consumer_pos there) and, from the next page on, the producer
 * page followed by the data area mapped twice (read-only). Producers on
 * every CPU reserve space by advancing producer_pos, write, then clear the
 * BUSY bit of the record's header; we read committed records in order and
 * then advance consumer_pos.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "perf_ring.h"

#define DEFAULT_MAX_LATENCY_MS 10

struct bsdk_ringbuf {
	int map_fd;
	int epfd;
	struct bsdk_ringbuf_opts opts;
	size_t page_size;
	uint64_t size;                  /* max_entries: the data area */
	uint64_t *consumer_pos;         /* the consumer page */
	uint64_t *producer_pos;         /* the producer page */
	const uint8_t *data;            /* after the producer page */
	size_t prod_map_size;
	struct bpf_ring walk;           /* counters live here */
	uint64_t drain_ns;
	uint64_t last_drain_ns;
	uint64_t wakeups;
	uint64_t drains;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t bpf_ring_walk(struct bpf_ring *r, perf_ring_sample_fn on_sample,
		       void *ctx)
{
	uint64_t n = 0;

	while (r->cons < r->prod) {
		const uint32_t *hdr =
			(const uint32_t *)(r->data + (r->cons & (r->size - 1)));
		/* Acquire: the producer clears BUSY with a release store
		 * after writing the record, so once we see BUSY clear, the
		 * bytes of the record are visible too. */
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
				on_sample(ctx, -1, (const uint8_t *)hdr +
					  BPF_RINGBUF_HDR_SZ, len);
			r->received++;
			n++;
		}
		r->cons += total;
	}
	return n;
}

static int opts_copy(struct bsdk_ringbuf_opts *dst,
		     const struct bsdk_ringbuf_opts *src)
{
	size_t sz;

	memset(dst, 0, sizeof(*dst));
	if (!src || !src->sz) {
		log_error("ring buffer: options with sz and on_sample are required");
		return fail(EINVAL);
	}
	sz = src->sz;
	if (sz > sizeof(*dst)) {
		const uint8_t *extra = (const uint8_t *)src + sizeof(*dst);

		for (size_t i = 0; i < sz - sizeof(*dst); i++) {
			if (extra[i]) {
				log_error("ring buffer: options set fields this library does not know (opts.sz %zu > %zu)",
					  sz, sizeof(*dst));
				return fail(EINVAL);
			}
		}
		sz = sizeof(*dst);
	}
	memcpy(dst, src, sz);
	dst->sz = sizeof(*dst);
	return 0;
}

struct bsdk_ringbuf *bsdk_ringbuf_new(int map_fd,
				      const struct bsdk_ringbuf_opts *opts)
{
	struct bsdk_ringbuf *rb;
	struct bpf_map_info info;
	union bpf_attr attr;
	struct epoll_event ev;
	long page_size = sysconf(_SC_PAGESIZE);
	void *p;
	int err;

	rb = calloc(1, sizeof(*rb));
	if (!rb)
		return fail_ptr(ENOMEM);
	rb->map_fd = map_fd;
	rb->epfd = -1;
	rb->page_size = (size_t)page_size;

	err = opts_copy(&rb->opts, opts);
	if (err < 0)
		goto err;
	if (!rb->opts.on_sample) {
		log_error("ring buffer: opts.on_sample is required");
		err = fail(EINVAL);
		goto err;
	}
	if (rb->opts.max_latency_ms == 0)
		rb->opts.max_latency_ms = DEFAULT_MAX_LATENCY_MS;
	rb->drain_ns = rb->opts.max_latency_ms > 0 ?
		(uint64_t)rb->opts.max_latency_ms * 1000000ull : 0;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)map_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	if (err < 0) {
		log_error("ring buffer: map fd %d: cannot get map info: %s",
			  map_fd, bsdk_strerror(err));
		goto err;
	}
	if (info.type != BPF_MAP_TYPE_RINGBUF) {
		log_error("ring buffer: map '%s' (fd %d) has type %u, not BPF_MAP_TYPE_RINGBUF",
			  info.name, map_fd, info.type);
		err = fail(EINVAL);
		goto err;
	}
	/* The kernel only creates power-of-two multiples of the page size,
	 * but the walker's mask depends on it: check rather than trust. */
	if (!info.max_entries || info.max_entries & (info.max_entries - 1) ||
	    info.max_entries % rb->page_size) {
		log_error("ring buffer: map '%s' has size %u, not a power-of-two number of pages",
			  info.name, info.max_entries);
		err = fail(EINVAL);
		goto err;
	}
	rb->size = info.max_entries;

	p = mmap(NULL, rb->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 map_fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		log_error("ring buffer: map '%s': mmap of the consumer page failed: %s",
			  info.name, bsdk_strerror(err));
		goto err;
	}
	rb->consumer_pos = p;
	/* The producer page and twice the data area: the double mapping is
	 * what lets records wrap without a copy. Read-only: the kernel
	 * refuses write access to these pages. */
	rb->prod_map_size = rb->page_size + 2 * rb->size;
	p = mmap(NULL, rb->prod_map_size, PROT_READ, MAP_SHARED, map_fd,
		 (off_t)rb->page_size);
	if (p == MAP_FAILED) {
		err = -errno;
		log_error("ring buffer: map '%s': mmap of the data pages failed: %s",
			  info.name, bsdk_strerror(err));
		goto err;
	}
	rb->producer_pos = p;
	rb->data = (const uint8_t *)p + rb->page_size;
	rb->walk.data = rb->data;
	rb->walk.size = rb->size;

	rb->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (rb->epfd < 0) {
		err = -errno;
		log_error("ring buffer: epoll_create1 failed: %s",
			  bsdk_strerror(err));
		goto err;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	if (epoll_ctl(rb->epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0) {
		err = -errno;
		log_error("ring buffer: epoll_ctl on map '%s' failed: %s",
			  info.name, bsdk_strerror(err));
		goto err;
	}
	log_info("ring buffer: map '%s', %llu bytes, drain every %d ms",
		 info.name, (unsigned long long)rb->size,
		 rb->opts.max_latency_ms);
	rb->last_drain_ns = now_ns();
	return rb;

err:
	bsdk_ringbuf_free(rb);
	return fail_ptr(-err);
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
	if (rb->epfd >= 0)
		close(rb->epfd);
	free(rb);
	errno = saved;
}

int bsdk_ringbuf_consume(struct bsdk_ringbuf *rb)
{
	uint64_t n;

	if (!rb)
		return fail(EINVAL);
	rb->drains++;
	rb->last_drain_ns = now_ns();
	/* Acquire on producer_pos, pairing with the kernel's release when
	 * it reserves: every header below it is at least reserved (BUSY)
	 * and readable. */
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

int bsdk_ringbuf_timeout_ms(const struct bsdk_ringbuf *rb)
{
	uint64_t now, due;

	if (!rb->drain_ns)
		return -1;
	now = now_ns();
	due = rb->last_drain_ns + rb->drain_ns;
	if (now >= due)
		return 0;
	return (int)((due - now + 999999) / 1000000);
}

int bsdk_ringbuf_poll(struct bsdk_ringbuf *rb, int timeout_ms)
{
	struct epoll_event ev;
	uint64_t deadline = 0;
	int n, cnt;

	if (!rb)
		return fail(EINVAL);
	if (timeout_ms > 0)
		deadline = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		int wait = timeout_ms < 0 ? -1 : 0;
		int drain = bsdk_ringbuf_timeout_ms(rb);

		if (timeout_ms > 0) {
			uint64_t now = now_ns();

			wait = now >= deadline ? 0 :
				(int)((deadline - now + 999999) / 1000000);
		}
		if (drain >= 0 && (wait < 0 || drain < wait))
			wait = drain;
		n = epoll_wait(rb->epfd, &ev, 1, wait);
		if (n < 0) {
			if (errno == EINTR)
				return fail(EINTR);
			n = -errno;
			log_error("ring buffer: epoll_wait failed: %s",
				  bsdk_strerror(n));
			return fail(-n);
		}
		if (n > 0)
			rb->wakeups++;
		cnt = bsdk_ringbuf_consume(rb);
		if (cnt > 0 || timeout_ms == 0)
			return cnt;
		if (timeout_ms > 0 && now_ns() >= deadline)
			return 0;
	}
}

int bsdk_ringbuf_epoll_fd(const struct bsdk_ringbuf *rb)
{
	return rb ? rb->epfd : fail(EINVAL);
}

void bsdk_ringbuf_stats(const struct bsdk_ringbuf *rb,
			struct bsdk_ringbuf_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!rb)
		return;
	stats->received = rb->walk.received;
	stats->discarded = rb->walk.discarded;
	stats->corrupt = rb->walk.corrupt;
	stats->wakeups = rb->wakeups;
	stats->drains = rb->drains;
}
