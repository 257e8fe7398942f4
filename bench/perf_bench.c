// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_bench - how fast records get from bpf_perf_event_output() (and
 * bpf_ringbuf_output()) to a user-space callback, with our consumers and
 * with libbpf's, on the same BPF program loaded by our loader.
 *
 * A producer thread pinned to one CPU loops on write(2) to /dev/null; a
 * program on syscalls/sys_enter_write sends a 16-byte record per write; the
 * consumer runs on the main thread, pinned to another CPU. Every contender
 * runs for the same fixed time, and the contenders alternate (A B C ... A B
 * C ...) for several rounds so that drifts of a shared machine hit them all
 * alike; the table gives the median and the range.
 *
 * libbpf is linked here only, to compare against; the SDK never uses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfsdk.h"
#include "perf_bench.h"

static const char usage[] =
"usage: perf_bench [options]\n"
"\n"
"Measure the throughput, consumer CPU cost and latency of the ways to read\n"
"records that a BPF program on syscalls/sys_enter_write sends for every\n"
"write(2) of a producer thread. Contenders, run in alternation:\n"
"\n"
"  ceiling-none         the write loop, nothing attached\n"
"  ceiling-noop         a program that returns at once attached\n"
"  ceiling-perf-unread  the sending program, into a 16 MiB ring per CPU\n"
"                       that nobody reads during the run: what the kernel\n"
"                       side costs with no consumer at all (a fixed count\n"
"                       of writes that fits the ring, not a fixed time)\n"
"  bsdk-perf-default    our perf buffer, default options\n"
"  bsdk-perf-tuned      our perf buffer, 512 pages, wakeup at half a ring\n"
"  libbpf-perf-default  libbpf perf_buffer__new(): a wakeup per record\n"
"  libbpf-perf-wm       libbpf perf_buffer__new_raw() with a watermark\n"
"                       wakeup at a quarter of the ring, like ours\n"
"  limit-ringbuf-nowake the same program with BPF_RB_NO_WAKEUP into a 2 MiB\n"
"                       BPF_MAP_TYPE_RINGBUF, our consumer draining it on a\n"
"                       timer: nothing ever wakes anyone, the ring buffer's\n"
"                       limit\n"
"  libbpf-ringbuf       libbpf ring_buffer over the same map, flags 0\n"
"  bsdk-ringbuf         our ring buffer consumer over the same map, flags 0\n"
"  bpfsdk-run-json      `bpfsdk run --format json > /dev/null` on the same\n"
"                       sending program (bench/run_bench.bpf.c): the CLI as\n"
"                       a consumer, every record decoded by BTF into JSON;\n"
"                       its CPU is the whole process's, load included\n"
"\n"
"Then the latency rounds: for each rate of --rates, every consumer and two\n"
"floors in turn, for --rounds rounds - the latency from bpf_ktime_get_ns()\n"
"in the program to the callback, p50 and p99 per run, their medians and\n"
"ranges, and ratios to the floors and to libbpf's consumer of the channel:\n"
"\n"
"  floor-pipe           a thread blocked in epoll_wait() on a pipe, woken by\n"
"                       each write of a timestamp: the machine's own cost of\n"
"                       waking a sleeping reader between the same two CPUs\n"
"  floor-ringbuf-wake   the simplest ring buffer reader, woken per record\n"
"                       (consumer_pos published after each): the kernel's\n"
"                       BPF wakeup path, no batching, no policy\n"
"\n"
"Then, for each consumer, the latency at full rate, and the consumer's CPU\n"
"time while the program is attached and nothing is written. Prints Markdown\n"
"tables and lines starting with 'bench:' for scripts. With the defaults a\n"
"run takes about 6 minutes (throughput ~2 min, latency rounds ~2.5 min,\n"
"full rate and idle ~1 min); -d, -r, -l, --rates and --idle shorten it.\n"
"\n"
"options:\n"
"  -d, --duration SEC       time per contender per round (default 2)\n"
"  -r, --rounds N           rounds of alternation (default 5)\n"
"  -l, --latency SEC        time per consumer for each latency run; 0 skips\n"
"                           them (default 1)\n"
"      --idle SEC           time per consumer for the idle run; 0 skips it\n"
"                           (default 5)\n"
"      --rates LIST         records per second of the latency rounds,\n"
"                           comma-separated (default 100,1000,10000)\n"
"      --rate N             the rate of the main table's latency column,\n"
"                           added to --rates if missing (default 1000)\n"
"  -p, --pages N            perf ring pages per CPU for libbpf's perf\n"
"                           buffers (default: what our perf buffer chooses\n"
"                           by default on this machine, so that both use\n"
"                           the same memory)\n"
"      --only LIST          run only these contenders (comma-separated)\n"
"      --producer-cpu N     CPU of the write loop (default 0)\n"
"      --consumer-cpu N     CPU of the consumer (default 1)\n"
"      --obj PATH           the BPF object (default: ../bpf/perf_bench.bpf.o\n"
"                           next to this program)\n"
"  -v                       show the library's messages (-vv: debug)\n"
"  -h, --help               this text\n"
"\n"
"exit status: 0 after a complete run, 1 on a failure or when interrupted,\n"
"2 on a usage error.\n";

/* ---------------------------------------------------------------- setup */

enum kind {
	K_NONE, K_NOOP, K_PERF_UNREAD, K_BSDK_PERF, K_BSDK_PERF_TUNED, K_LIBBPF_PERF,
	K_LIBBPF_PERF_WM, K_RING_NOWAKE, K_LIBBPF_RING, K_BSDK_RING, K_RUN_JSON,
	K_FLOOR_PIPE, K_FLOOR_RING, K_COUNT,
};

static const char *const kind_names[K_COUNT] = {
	"ceiling-none", "ceiling-noop", "ceiling-perf-unread",
	"bsdk-perf-default", "bsdk-perf-tuned",
	"libbpf-perf-default", "libbpf-perf-wm", "limit-ringbuf-nowake",
	"libbpf-ringbuf", "bsdk-ringbuf", "bpfsdk-run-json",
	"floor-pipe", "floor-ringbuf-wake",
};

/* The latency floors run in the latency rounds only. */
static bool is_floor(enum kind k)
{
	return k == K_FLOOR_PIPE || k == K_FLOOR_RING;
}

static bool is_consumer(enum kind k)
{
	return k != K_NONE && k != K_NOOP;
}

/* ceiling-perf-unread: 4096 pages per CPU hold 524288 records of 32
 * bytes; the producer stops well before that. */
#define UNREAD_PAGES  4096
#define UNREAD_WRITES 400000

static bool is_ring(enum kind k)
{
	return k == K_LIBBPF_RING || k == K_BSDK_RING || k == K_RING_NOWAKE || k == K_FLOOR_RING;
}

/* Full-rate latency runs keep one record in LAT_FULL_STEP (by sequence
 * number), so that reading the clock does not slow the consumer much. */
#define LAT_FULL_STEP 16

static struct {
	double duration;
	int rounds;
	double latency;
	double idle;
	int rate;
	int rates[8];             /* the latency rounds' rates */
	int nrates;
	unsigned int pages;
	int producer_cpu, consumer_cpu;
	bool run[K_COUNT];
	const char *obj_path;
	const char *bpfsdk_path;   /* bpfsdk-run-json: the CLI and its object */
	const char *run_obj_path;
	int verbose;
} cfg = {
	.duration = 2, .rounds = 5, .latency = 1, .idle = 5, .rate = 1000, .pages = 0,
	.rates = { 100, 1000, 10000 }, .nrates = 3,
	.producer_cpu = 0, .consumer_cpu = 1,
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The consumer thread's CPU time. CLOCK_THREAD_CPUTIME_ID reads the
 * scheduler's exact runtime of the thread; getrusage(RUSAGE_THREAD) may
 * only sample it at timer ticks, which biases a consumer that itself wakes
 * up on timers. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(t, sizeof(set), &set);
}

/* ------------------------------------------------------------- producer */

struct producer {
	pthread_t thread;
	atomic_bool stop;
	int fd;
	int rate;                 /* 0: as fast as possible */
	bool stamp;               /* write now_ns() (8 bytes), not one byte */
	uint64_t limit;           /* stop after this many writes; 0: never */
	uint64_t writes;          /* written by the thread before it ends */
	uint64_t start_ns, end_ns;
};

static void *producer_main(void *arg)
{
	struct producer *p = arg;
	uint64_t n = 0;
	char byte = 'x';

	p->start_ns = now_ns();
	if (!p->rate) {
		while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
			if (write(p->fd, &byte, 1) == 1)
				n++;
			if (n == p->limit)
				break;
		}
	} else {
		struct timespec next;
		long step = 1000000000L / p->rate;

		clock_gettime(CLOCK_MONOTONIC, &next);
		while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
			next.tv_nsec += step;
			while (next.tv_nsec >= 1000000000L) {
				next.tv_nsec -= 1000000000L;
				next.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
			if (p->stamp) {
				uint64_t ts = now_ns();

				if (write(p->fd, &ts, sizeof(ts)) == sizeof(ts))
					n++;
			} else if (write(p->fd, &byte, 1) == 1) {
				n++;
			}
		}
	}
	p->end_ns = now_ns();
	p->writes = n;
	return NULL;
}

static int producer_start(struct producer *p, int fd, int rate,
			  uint64_t limit, bool stamp)
{
	int err;

	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->stamp = stamp;
	p->rate = rate;
	p->limit = limit;
	atomic_store(&p->stop, false);
	err = pthread_create(&p->thread, NULL, producer_main, p);
	if (err) {
		fprintf(stderr, "error: cannot start the producer thread: %s\n",
			strerror(err));
		return -1;
	}
	err = pin(p->thread, cfg.producer_cpu);
	if (err)
		fprintf(stderr, "warning: cannot pin the producer to cpu %d: %s\n",
			cfg.producer_cpu, strerror(err));
	return 0;
}

static void producer_stop(struct producer *p)
{
	atomic_store(&p->stop, true);
	if (p->thread)
		pthread_join(p->thread, NULL);
}

/* ------------------------------------------------------------- consumers */

/* What every callback does, the same for all contenders. */
struct sink {
	uint64_t received;
	uint64_t lost_reported;   /* what the kernel reported (perf only) */
	uint64_t seq_sum;         /* keeps the read of the record honest */
	bool latency;             /* record latencies */
	uint32_t lat_step;        /* of the records with seq % lat_step == 0 */
	bool draining;            /* the run is over: the final drain */
	uint64_t late;            /* records only the final drain found */
	uint64_t *lat;            /* ns */
	size_t nlat, cap_lat;
};

static struct sink sink;

static inline void take_latency(uint64_t ts)
{
	uint64_t t = now_ns();

	sink.lat[sink.nlat++] = t > ts ? t - ts : 0;
}

static inline void take(const void *data, uint32_t size)
{
	struct bench_event ev;

	sink.received++;
	if (sink.draining)
		sink.late++;
	if (size < sizeof(ev))
		return;
	memcpy(&ev, data, sizeof(ev));
	sink.seq_sum += ev.seq;
	if (sink.latency && sink.nlat < sink.cap_lat && ev.seq % sink.lat_step == 0)
		take_latency(ev.ts);
}

static void bsdk_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)ctx;
	(void)cpu;
	take(data, size);
}

static void bsdk_lost(void *ctx, int cpu, uint64_t count)
{
	(void)ctx;
	(void)cpu;
	sink.lost_reported += count;
}

static void libbpf_sample(void *ctx, int cpu, void *data, __u32 size)
{
	(void)ctx;
	(void)cpu;
	take(data, size);
}

static void libbpf_lost(void *ctx, int cpu, __u64 count)
{
	(void)ctx;
	(void)cpu;
	sink.lost_reported += count;
}

/* perf_buffer__new_raw() hands out whole perf records. */
static enum bpf_perf_event_ret libbpf_raw_event(void *ctx, int cpu,
						struct perf_event_header *hdr)
{
	(void)ctx;
	(void)cpu;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		const uint8_t *p = (const uint8_t *)(hdr + 1);
		uint32_t size;

		memcpy(&size, p, sizeof(size));
		take(p + sizeof(size), size);
	} else if (hdr->type == PERF_RECORD_LOST) {
		uint64_t lost;

		memcpy(&lost, (const uint8_t *)(hdr + 1) + 8, sizeof(lost));
		sink.lost_reported += lost;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

static int libbpf_ring_sample(void *ctx, void *data, size_t size)
{
	(void)ctx;
	take(data, (uint32_t)size);
	return 0;
}

/* The floors' wait: 1 when the fd is ready, 0 on timeout, else -errno. */
static int wait_ready(int epfd, int timeout_ms)
{
	struct epoll_event ev;
	int n = epoll_wait(epfd, &ev, 1, timeout_ms);

	return n < 0 ? -errno : n;
}

/* floor-pipe: a thread blocked in epoll_wait() on a pipe, woken by a write of the timestamp -
 * the machine's own cost of waking a sleeping reader between these two CPUs. */
struct pipe_floor {
	int rfd, wfd, epfd;
};

static int pipe_floor_open(struct pipe_floor *f)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int fds[2];

	f->rfd = f->wfd = f->epfd = -1;
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	f->rfd = fds[0];
	f->wfd = fds[1];
	f->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (fcntl(f->rfd, F_SETFL, O_NONBLOCK) || f->epfd < 0 ||
	    epoll_ctl(f->epfd, EPOLL_CTL_ADD, f->rfd, &ev))
		return -1;
	return 0;
}

static int pipe_floor_drain(struct pipe_floor *f)
{
	uint64_t ts[64];
	ssize_t got;
	int n = 0;

	while ((got = read(f->rfd, ts, sizeof(ts))) > 0) {
		for (size_t i = 0; i < (size_t)got / sizeof(ts[0]); i++) {
			sink.received++;
			if (sink.draining)
				sink.late++;
			if (sink.latency && sink.nlat < sink.cap_lat)
				take_latency(ts[i]);
			n++;
		}
	}
	return n;
}

static void pipe_floor_close(struct pipe_floor *f)
{
	if (f->rfd >= 0)
		close(f->rfd);
	if (f->wfd >= 0)
		close(f->wfd);
	if (f->epfd >= 0)
		close(f->epfd);
}

/* floor-ringbuf-wake: the simplest reader of a BPF_MAP_TYPE_RINGBUF - level-triggered
 * epoll_wait() on the map, every committed record read and consumer_pos published after each,
 * so every commit wakes it: the kernel's BPF wakeup path (irq_work after the commit) with no
 * batching and no policy. */
struct simple_rb {
	int epfd;
	uint64_t *cons;           /* the consumer page */
	const uint64_t *prod;     /* the producer page, then the data twice */
	const uint8_t *data;
	size_t size, page;
};

static int simple_rb_open(struct simple_rb *s, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	void *p;

	memset(s, 0, sizeof(*s));
	s->epfd = -1;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->size = info.max_entries;
	p = mmap(NULL, s->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	s->cons = p;
	p = mmap(NULL, s->page + 2 * s->size, PROT_READ, MAP_SHARED, fd, (off_t)s->page);
	if (p == MAP_FAILED)
		return -1;
	s->prod = p;
	s->data = (const uint8_t *)p + s->page;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev))
		return -1;
	return 0;
}

static int simple_rb_drain(struct simple_rb *s)
{
	uint64_t cons = __atomic_load_n(s->cons, __ATOMIC_ACQUIRE);
	uint64_t prod = __atomic_load_n(s->prod, __ATOMIC_ACQUIRE);
	int n = 0;

	while (cons < prod) {
		const uint8_t *hdr = s->data + (cons & (s->size - 1));
		uint32_t raw = __atomic_load_n((const uint32_t *)hdr, __ATOMIC_ACQUIRE);
		uint32_t len = raw & ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);

		if (raw & BPF_RINGBUF_BUSY_BIT)
			break;
		if (!(raw & BPF_RINGBUF_DISCARD_BIT)) {
			take(hdr + BPF_RINGBUF_HDR_SZ, len);
			n++;
		}
		cons += ((uint64_t)len + BPF_RINGBUF_HDR_SZ + 7) & ~7ull;
		__atomic_store_n(s->cons, cons, __ATOMIC_RELEASE);
	}
	return n;
}

static void simple_rb_close(struct simple_rb *s)
{
	if (s->cons)
		munmap(s->cons, s->page);
	if (s->prod)
		munmap((void *)s->prod, s->page + 2 * s->size);
	if (s->epfd >= 0)
		close(s->epfd);
	memset(s, 0, sizeof(*s));
}

struct consumer {
	enum kind kind;
	struct pipe_floor pipe;
	struct simple_rb srb;
	struct bsdk_perfbuf *bpb;
	struct bsdk_ringbuf *brb;
	struct perf_buffer *lpb;
	struct ring_buffer *lrb;
};

static int consumer_open(struct consumer *c, enum kind k, int perf_fd,
			 int ring_fd)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(c, 0, sizeof(*c));
	c->kind = k;
	c->pipe.rfd = c->pipe.wfd = c->pipe.epfd = c->srb.epfd = -1;
	switch (k) {
	case K_PERF_UNREAD:
	case K_BSDK_PERF:
	case K_BSDK_PERF_TUNED: {
		struct bsdk_perfbuf_opts o;

		memset(&o, 0, sizeof(o));
		o.sz = sizeof(o);
		o.on_sample = bsdk_sample;
		o.on_lost = bsdk_lost;
		if (k == K_PERF_UNREAD) {
			/* Never woken, never drained during the run. */
			o.pages = UNREAD_PAGES;
			o.wakeup_bytes = (unsigned int)(o.pages * page);
			o.max_latency_ms = -1;
		} else if (k == K_BSDK_PERF) {
			o.pages = 0;	/* the library's choice */
		} else {
			o.pages = 512;
			o.wakeup_bytes = (unsigned int)(o.pages * page / 2);
		}
		c->bpb = bsdk_perfbuf_new(perf_fd, &o);
		return c->bpb ? 0 : -1;
	}
	case K_LIBBPF_PERF:
		c->lpb = perf_buffer__new(perf_fd, cfg.pages, libbpf_sample,
					  libbpf_lost, NULL, NULL);
		return c->lpb ? 0 : -1;
	case K_LIBBPF_PERF_WM: {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_BPF_OUTPUT;
		attr.sample_type = PERF_SAMPLE_RAW;
		attr.sample_period = 1;
		attr.watermark = 1;
		attr.wakeup_watermark = (uint32_t)(cfg.pages * page / 4);
		c->lpb = perf_buffer__new_raw(perf_fd, cfg.pages, &attr,
					      libbpf_raw_event, NULL, NULL);
		return c->lpb ? 0 : -1;
	}
	case K_LIBBPF_RING:
		c->lrb = ring_buffer__new(ring_fd, libbpf_ring_sample, NULL, NULL);
		return c->lrb ? 0 : -1;
	case K_RING_NOWAKE:
	case K_BSDK_RING: {
		struct bsdk_ringbuf_opts o;

		memset(&o, 0, sizeof(o));
		o.sz = sizeof(o);
		o.on_sample = bsdk_sample;
		/* No wakeup ever comes: drain every default period, idle or not. */
		if (k == K_RING_NOWAKE)
			o.idle_drain_ms = 5;
		c->brb = bsdk_ringbuf_new(ring_fd, &o);
		return c->brb ? 0 : -1;
	}
	case K_FLOOR_PIPE:
		return pipe_floor_open(&c->pipe);
	case K_FLOOR_RING:
		return simple_rb_open(&c->srb, ring_fd);
	default:
		return 0;
	}
}

static int consumer_poll(struct consumer *c, int timeout_ms)
{
	int n;

	switch (c->kind) {
	case K_PERF_UNREAD:
		usleep((useconds_t)timeout_ms * 1000);
		return 0;
	case K_BSDK_PERF:
	case K_BSDK_PERF_TUNED:
		return bsdk_perfbuf_poll(c->bpb, timeout_ms);
	case K_LIBBPF_PERF:
	case K_LIBBPF_PERF_WM:
		return perf_buffer__poll(c->lpb, timeout_ms);
	case K_LIBBPF_RING:
		return ring_buffer__poll(c->lrb, timeout_ms);
	case K_RING_NOWAKE:
	case K_BSDK_RING:
		return bsdk_ringbuf_poll(c->brb, timeout_ms);
	case K_FLOOR_PIPE:
		n = wait_ready(c->pipe.epfd, timeout_ms);
		return n > 0 ? pipe_floor_drain(&c->pipe) : n;
	case K_FLOOR_RING:
		n = wait_ready(c->srb.epfd, timeout_ms);
		return n > 0 ? simple_rb_drain(&c->srb) : n;
	default:
		if (timeout_ms > 0)
			usleep((useconds_t)timeout_ms * 1000);
		return 0;
	}
}

static int consumer_drain(struct consumer *c)
{
	switch (c->kind) {
	case K_PERF_UNREAD:
	case K_BSDK_PERF:
	case K_BSDK_PERF_TUNED:
		return bsdk_perfbuf_consume(c->bpb);
	case K_LIBBPF_PERF:
	case K_LIBBPF_PERF_WM:
		return perf_buffer__consume(c->lpb);
	case K_LIBBPF_RING:
		return ring_buffer__consume(c->lrb);
	case K_RING_NOWAKE:
	case K_BSDK_RING:
		return bsdk_ringbuf_consume(c->brb);
	case K_FLOOR_PIPE:
		return pipe_floor_drain(&c->pipe);
	case K_FLOOR_RING:
		return simple_rb_drain(&c->srb);
	default:
		return 0;
	}
}

static void consumer_close(struct consumer *c)
{
	/* -vv: how our consumers spent the run. */
	if (cfg.verbose > 1 && (c->bpb || c->brb)) {
		struct bsdk_perfbuf_stats ps = { 0 };
		struct bsdk_ringbuf_stats rs = { 0 };

		if (c->bpb)
			bsdk_perfbuf_stats(c->bpb, &ps);
		else
			bsdk_ringbuf_stats(c->brb, &rs);
		fprintf(stderr, "  %s: drains %llu wakeups %llu switches %llu streaming %u\n",
			kind_names[c->kind], (unsigned long long)(ps.drains + rs.drains),
			(unsigned long long)(ps.wakeups + rs.wakeups),
			(unsigned long long)(ps.switches + rs.switches), ps.streaming + rs.streaming);
	}
	bsdk_perfbuf_free(c->bpb);
	bsdk_ringbuf_free(c->brb);
	perf_buffer__free(c->lpb);
	ring_buffer__free(c->lrb);
	if (c->kind == K_FLOOR_PIPE)
		pipe_floor_close(&c->pipe);
	simple_rb_close(&c->srb);
	memset(c, 0, sizeof(*c));
}

/* ----------------------------------------------------------- one run */

struct bench {
	struct bsdk_obj *obj;
	struct bsdk_prog *noop, *emit_perf, *emit_ring, *emit_ring_nowake;
	int perf_fd, ring_fd, counters_fd;
	int devnull;
	int ncpu;
};

struct result {
	double secs;              /* the producer's own time */
	uint64_t produced;        /* write() calls */
	uint64_t received;
	uint64_t lost;            /* the BPF side's error count */
	uint64_t lost_reported;
	uint64_t bpf_produced;
	uint64_t cpu_ns;          /* consumer thread */
	bool ok;
};

static int counters_read(const struct bench *b, uint64_t out[BENCH_NR_COUNTERS])
{
	uint64_t *vals = calloc((size_t)b->ncpu, sizeof(*vals));

	if (!vals)
		return -1;
	for (uint32_t k = 0; k < BENCH_NR_COUNTERS; k++) {
		out[k] = 0;
		if (bpf_map_lookup_elem(b->counters_fd, &k, vals)) {
			free(vals);
			return -1;
		}
		for (int i = 0; i < b->ncpu; i++)
			out[k] += vals[i];
	}
	free(vals);
	return 0;
}

/* As many writes as the duration asks for at a generous rate, but never
 * more than the unread ring holds. */
static uint64_t unread_writes(double secs)
{
	double n = secs * 2e6;

	return n < 1000 ? 1000 : n > UNREAD_WRITES ? UNREAD_WRITES : (uint64_t)n;
}

/* bpfsdk-run-json: the CLI in a child process on the consumer CPU, stdout to
 * /dev/null, -v messages on a pipe; its object's counters, pinned by name,
 * give the exact produced and lost counts. */
#define RUN_COUNTERS_PIN "/sys/fs/bpf/run_bench_counters"

static int pinned_counters(uint64_t out[BENCH_NR_COUNTERS], int ncpu)
{
	struct bsdk_map *m = bsdk_map_open_pinned(RUN_COUNTERS_PIN);
	uint64_t *vals = calloc((size_t)ncpu, sizeof(*vals));
	int err = m && vals ? 0 : -1;

	for (uint32_t k = 0; !err && k < BENCH_NR_COUNTERS; k++) {
		out[k] = 0;
		err = bsdk_map_lookup_elem(m, &k, sizeof(k), vals, (size_t)ncpu * sizeof(*vals), 0);
		for (int i = 0; !err && i < ncpu; i++)
			out[k] += vals[i];
	}
	free(vals);
	bsdk_map_close(m);
	return err;
}

/* utime + stime of pid so far, in ns (clock ticks: 10 ms steps). */
static uint64_t proc_cpu_ns(pid_t pid)
{
	unsigned long long ut = 0, st = 0;
	char path[64], buf[1024], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after "pid (comm)": state and 10 more fields, then utime stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK));
}

static int run_json_once(struct bench *b, double secs, int rate, struct result *res)
{
	uint64_t before[BENCH_NR_COUNTERS], after[BENCH_NR_COUNTERS], cpu0;
	unsigned long long received = 0, lost = 0;
	char line[512], arg[64];
	bool streaming = false;
	struct producer p;
	struct rusage ru;
	int pfd[2], status;
	pid_t pid;
	FILE *err;

	memset(res, 0, sizeof(*res));
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	snprintf(arg, sizeof(arg), "target_tgid=%d", (int)getpid());
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cfg.consumer_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		dup2(b->devnull, 1);
		dup2(pfd[1], 2);
		execl(cfg.bpfsdk_path, "bpfsdk", "run", "-v", "--format", "json", "--set", arg,
		      cfg.run_obj_path, (char *)NULL);
		fprintf(stderr, "error: cannot run '%s': %s\n", cfg.bpfsdk_path, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	err = fdopen(pfd[0], "r");
	while (err && !streaming && fgets(line, sizeof(line), err)) {
		streaming = !strncmp(line, "streaming:", 10);
		if (!strncmp(line, "error", 5))
			fputs(line, stderr);
	}
	if (!streaming || pinned_counters(before, b->ncpu)) {
		fprintf(stderr, "error: bpfsdk-run-json: '%s run' did not start streaming\n",
			cfg.bpfsdk_path);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (err)
			fclose(err);
		return -1;
	}
	cpu0 = proc_cpu_ns(pid);
	if (producer_start(&p, b->devnull, rate, 0, false)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		fclose(err);
		return -1;
	}
	usleep((useconds_t)(secs * 1e6));
	producer_stop(&p);
	usleep(100 * 1000);	/* run drains every 10 ms: let it finish */
	if (pinned_counters(after, b->ncpu))
		memset(after, 0, sizeof(after));
	kill(pid, SIGINT);
	while (fgets(line, sizeof(line), err))
		sscanf(line, "received %llu, lost %llu", &received, &lost);
	fclose(err);
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "error: bpfsdk-run-json: bpfsdk run did not exit 0\n");
		return -1;
	}
	res->secs = (double)(p.end_ns - p.start_ns) / 1e9;
	res->produced = p.writes;
	res->received = received;
	res->lost_reported = lost;
	res->bpf_produced = after[BENCH_PRODUCED] - before[BENCH_PRODUCED];
	res->lost = after[BENCH_ERRORS] - before[BENCH_ERRORS];
	res->cpu_ns = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
		      ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
	res->cpu_ns = res->cpu_ns > cpu0 ? res->cpu_ns - cpu0 : res->cpu_ns;
	res->ok = true;
	if (res->received + res->lost != res->bpf_produced)
		fprintf(stderr, "warning: bpfsdk-run-json: program produced %llu, received %llu + lost %llu\n",
			(unsigned long long)res->bpf_produced, (unsigned long long)res->received,
			(unsigned long long)res->lost);
	return 0;
}

/* Run contender k once: set up its consumer, attach its program, let the
 * producer run for secs (at rate, 0: flat out; negative: no producer at all,
 * the consumer waits with its own poll for the whole time) while the
 * consumer polls, stop, drain, detach. */
static int run_once(struct bench *b, enum kind k, double secs, int rate,
		    struct result *res)
{
	struct bsdk_prog *prog = NULL;
	struct bsdk_link *link = NULL;
	struct consumer c;
	struct producer p;
	uint64_t before[BENCH_NR_COUNTERS], after[BENCH_NR_COUNTERS];
	uint64_t end, cpu0;
	int n;

	if (k == K_RUN_JSON)
		return run_json_once(b, secs, rate, res);
	memset(res, 0, sizeof(*res));
	if (k == K_NOOP)
		prog = b->noop;
	else if (k == K_RING_NOWAKE)
		prog = b->emit_ring_nowake;
	else if (is_ring(k))
		prog = b->emit_ring;
	else if (is_consumer(k))
		prog = b->emit_perf;

	if (consumer_open(&c, k, b->perf_fd, b->ring_fd)) {
		fprintf(stderr, "error: %s: cannot set up the consumer: %s\n",
			kind_names[k], strerror(errno));
		return -1;
	}
	/* Leftovers of an earlier contender in the shared ring buffer. */
	if (is_ring(k))
		consumer_drain(&c);
	sink.received = sink.lost_reported = sink.seq_sum = 0;
	sink.late = 0;
	sink.draining = false;
	sink.nlat = 0;
	if (counters_read(b, before)) {
		fprintf(stderr, "error: cannot read the 'counters' map: %s\n",
			strerror(errno));
		consumer_close(&c);
		return -1;
	}
	if (prog) {
		link = bsdk_prog_attach(prog);
		if (!link) {
			consumer_close(&c);
			return -1;
		}
	}

	cpu0 = thread_cpu_ns();
	if (rate < 0) {
		/* Idle: nothing written, the consumer asleep in its own poll. */
		memset(&p, 0, sizeof(p));
		p.start_ns = now_ns();
		end = p.start_ns + (uint64_t)(secs * 1e9);
		for (uint64_t t = now_ns(); t < end && !interrupted; t = now_ns())
			consumer_poll(&c, (int)((end - t + 999999) / 1000000));
		p.end_ns = now_ns();
		res->cpu_ns = thread_cpu_ns() - cpu0;
		bsdk_link_destroy(link);
		consumer_close(&c);
		res->secs = (double)(p.end_ns - p.start_ns) / 1e9;
		res->ok = true;
		return 0;
	}
	if (producer_start(&p, k == K_FLOOR_PIPE ? c.pipe.wfd : b->devnull, rate,
			   k == K_PERF_UNREAD ? unread_writes(secs) : 0, k == K_FLOOR_PIPE)) {
		bsdk_link_destroy(link);
		consumer_close(&c);
		return -1;
	}
	end = now_ns() + (uint64_t)(secs * 1e9);
	for (;;) {
		uint64_t t = now_ns();
		int wait;

		if (t >= end || interrupted)
			break;
		if (k == K_PERF_UNREAD) {
			/* Wait for the fixed count, touching nothing. */
			pthread_join(p.thread, NULL);
			p.thread = 0;
			break;
		}
		wait = (int)((end - t) / 1000000) + 1;
		n = consumer_poll(&c, wait < 100 ? wait : 100);
		if (n < 0 && n != -EINTR) {
			fprintf(stderr, "error: %s: poll failed: %s\n",
				kind_names[k], strerror(-n));
			break;
		}
	}
	producer_stop(&p);
	bsdk_link_destroy(link);
	/* Everything produced in the window is in the rings now: take it. */
	sink.draining = true;
	while (consumer_drain(&c) > 0)
		;
	sink.draining = false;
	res->cpu_ns = thread_cpu_ns() - cpu0;
	consumer_close(&c);

	if (counters_read(b, after))
		return -1;
	res->secs = (double)(p.end_ns - p.start_ns) / 1e9;
	res->produced = p.writes;
	res->received = sink.received;
	res->lost_reported = sink.lost_reported;
	res->bpf_produced = after[BENCH_PRODUCED] - before[BENCH_PRODUCED];
	res->lost = after[BENCH_ERRORS] - before[BENCH_ERRORS];
	res->ok = true;
	/* Writes of other threads (a log line) count as produced too. */
	if (is_consumer(k) && k != K_FLOOR_PIPE && res->received + res->lost != res->bpf_produced)
		fprintf(stderr, "warning: %s: writes %llu, program produced %llu, received %llu + lost %llu\n",
			kind_names[k], (unsigned long long)res->produced,
			(unsigned long long)res->bpf_produced,
			(unsigned long long)res->received,
			(unsigned long long)res->lost);
	return 0;
}

/* ------------------------------------------------------------- numbers */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
};

static struct stat3 stat_of(const double *v, int n)
{
	double *s = malloc(sizeof(*s) * (size_t)(n ? n : 1));
	struct stat3 st = { NAN, NAN, NAN };

	if (!s || n == 0) {
		free(s);
		return st;
	}
	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	st.min = s[0];
	st.max = s[n - 1];
	st.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return st;
}

static double percentile(uint64_t *v, size_t n, double q)
{
	size_t i;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_u64);
	/* Nearest rank: the smallest value with at least q of them at or
	 * below it. */
	i = (size_t)ceil(q * (double)n);
	if (i > 0)
		i--;
	if (i >= n)
		i = n - 1;
	return (double)v[i];
}

/* "1.23M" style for the table; the bench: lines carry plain numbers. */
static const char *human(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* One latency run's figures, ns. */
struct lat {
	double p50, p99, max;
	size_t n, late;
};

/* The row a consumer is held against: what the kernel side does with
 * nobody reading (perf) or with nobody woken (ring buffer). */
static enum kind limit_of(enum kind k)
{
	return is_ring(k) ? K_RING_NOWAKE : K_PERF_UNREAD;
}

/* libbpf's consumer of the same channel, with its defaults. */
static enum kind libbpf_of(enum kind k)
{
	return is_ring(k) ? K_LIBBPF_RING : K_LIBBPF_PERF;
}

/* received/s of k over that of ref (for a ceiling row, what it produces). */
static double ratio_to(const struct stat3 *recv, const struct stat3 *prod, int k, enum kind ref)
{
	double v = is_consumer((enum kind)k) ? recv[k].med : prod[k].med;

	return v / recv[ref].med;
}

static void print_ratio(double r)
{
	if (isnan(r) || isinf(r))
		printf("- | ");
	else
		printf("%.2f | ", r);
}

/* ------------------------------------------------------- latency rounds */

/* Every consumer has latency runs, and the floors; not ceiling-perf-unread
 * (nobody reads) nor bpfsdk-run-json (a process of its own). */
static bool latency_contender(enum kind k)
{
	return cfg.run[k] && is_consumer(k) && k != K_PERF_UNREAD && k != K_RUN_JSON;
}

static int rate_index(int rate)
{
	for (int i = 0; i < cfg.nrates; i++)
		if (cfg.rates[i] == rate)
			return i;
	return -1;
}

/* The latency rounds' figures: per rate, per contender, per round. */
#define MAX_ROUNDS 1000
static struct {
	double p50[8][K_COUNT][MAX_ROUNDS], p99[8][K_COUNT][MAX_ROUNDS];
	double cpu_pct[8][K_COUNT][MAX_ROUNDS];
	double max[8][K_COUNT];       /* ns, over all rounds */
	size_t n[8][K_COUNT], late[8][K_COUNT];
	int done[8][K_COUNT];
} lr;

/* p50, p99 and max of the latencies the sink holds. */
static void lat_figures(struct lat *l)
{
	l->n = sink.nlat;
	/* Records still in a ring when the run ended: only the final drain
	 * picked them up. */
	l->late = sink.late;
	l->max = NAN;
	for (size_t i = 0; i < sink.nlat; i++)
		if (sink.lat[i] > l->max || isnan(l->max))
			l->max = (double)sink.lat[i];
	l->p50 = percentile(sink.lat, sink.nlat, 0.50);
	l->p99 = percentile(sink.lat, sink.nlat, 0.99);
}

/* Rounds of: for each rate, each contender in turn for cfg.latency s at that rate - the
 * floors and the consumers between the same two CPUs, in the same minutes. */
static int latency_rounds(struct bench *b)
{
	if (cfg.latency <= 0)
		return 0;
	for (int r = 0; r < cfg.rounds && !interrupted; r++) {
		for (int i = 0; i < cfg.nrates && !interrupted; i++) {
			for (int k = 0; k < K_COUNT && !interrupted; k++) {
				struct result res;
				struct lat l;
				int d = lr.done[i][k];

				if (!latency_contender((enum kind)k))
					continue;
				sink.latency = true;
				sink.lat_step = 1;
				if (run_once(b, (enum kind)k, cfg.latency, cfg.rates[i], &res))
					return -1;
				sink.latency = false;
				if (interrupted)
					break;
				lat_figures(&l);
				lr.p50[i][k][d] = l.p50;
				lr.p99[i][k][d] = l.p99;
				lr.cpu_pct[i][k][d] = res.secs > 0 ?
					(double)res.cpu_ns / (res.secs * 1e9) * 100 : NAN;
				if (isnan(lr.max[i][k]) || l.max > lr.max[i][k])
					lr.max[i][k] = l.max;
				lr.n[i][k] += l.n;
				lr.late[i][k] += l.late;
				lr.done[i][k]++;
				if (cfg.verbose)
					fprintf(stderr, "latency round %d %6d/s %-20s p50 %.1f us p99 %.1f us max %.1f us cpu %.2f%% samples %zu late %zu\n",
						r + 1, cfg.rates[i], kind_names[k], l.p50 / 1e3,
						l.p99 / 1e3, l.max / 1e3, lr.cpu_pct[i][k][d], l.n, l.late);
			}
		}
	}
	return 0;
}

/* The wakeup-per-record reader of k's channel: floor-ringbuf-wake for the ring buffer,
 * libbpf's perf_buffer defaults (wakeup_events 1) for perf. */
static enum kind bpf_floor_of(enum kind k)
{
	return is_ring(k) ? K_FLOOR_RING : K_LIBBPF_PERF;
}

static double lr_med(double (*v)[K_COUNT][MAX_ROUNDS], int i, enum kind k)
{
	return stat_of(v[i][k], lr.done[i][k]).med;
}

static void print_latency_table(void)
{
	static const enum kind order[] = {
		K_FLOOR_PIPE, K_FLOOR_RING, K_LIBBPF_RING, K_BSDK_RING, K_RING_NOWAKE,
		K_LIBBPF_PERF, K_LIBBPF_PERF_WM, K_BSDK_PERF, K_BSDK_PERF_TUNED,
	};

	if (cfg.latency <= 0)
		return;
	printf("\n| rate/s | contender | p50 (range) | p99 (range) | p50 / pipe floor | p99 / pipe floor | p99 / BPF floor | p99 / libbpf, same channel | consumer CPU, %% of a core |\n");
	printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int i = 0; i < cfg.nrates; i++) {
		for (size_t j = 0; j < sizeof(order) / sizeof(order[0]); j++) {
			enum kind k = order[j];
			struct stat3 p50 = stat_of(lr.p50[i][k], lr.done[i][k]);
			struct stat3 p99 = stat_of(lr.p99[i][k], lr.done[i][k]);
			struct stat3 cpu = stat_of(lr.cpu_pct[i][k], lr.done[i][k]);

			if (!lr.done[i][k])
				continue;
			printf("| %d | %s | %.3f (%.3f–%.3f) ms | %.3f (%.3f–%.3f) ms | ", cfg.rates[i],
			       kind_names[k], p50.med / 1e6, p50.min / 1e6, p50.max / 1e6,
			       p99.med / 1e6, p99.min / 1e6, p99.max / 1e6);
			print_ratio(p50.med / lr_med(lr.p50, i, K_FLOOR_PIPE));
			print_ratio(p99.med / lr_med(lr.p99, i, K_FLOOR_PIPE));
			if (is_floor(k))
				printf("- | - | ");
			else {
				print_ratio(p99.med / lr_med(lr.p99, i, bpf_floor_of(k)));
				print_ratio(p99.med / lr_med(lr.p99, i, libbpf_of(k)));
			}
			printf("%.2f (%.2f–%.2f) |\n", cpu.med, cpu.min, cpu.max);
		}
	}
	printf("\nlatency rounds: %d rounds of %.1f s per contender per rate, alternated; p50 and p99 of each run, their median (range) over the rounds\n",
	       cfg.rounds, cfg.latency);
	printf("floor-pipe: a thread blocked in epoll_wait() on a pipe, woken by each write of a timestamp; floor-ringbuf-wake: the simplest ring buffer reader, woken per record\n");
	printf("BPF floor: floor-ringbuf-wake for ring buffer rows, libbpf-perf-default (a wakeup per record) for perf rows\n");
}

static void print_latency_lines(void)
{
	for (int i = 0; i < cfg.nrates; i++) {
		for (int k = 0; k < K_COUNT; k++) {
			struct stat3 p50 = stat_of(lr.p50[i][k], lr.done[i][k]);
			struct stat3 p99 = stat_of(lr.p99[i][k], lr.done[i][k]);
			struct stat3 cpu = stat_of(lr.cpu_pct[i][k], lr.done[i][k]);

			if (!lr.done[i][k])
				continue;
			printf("bench: latency name=%s rate=%d rounds=%d secs=%.3f samples=%zu late=%zu p50_us=%.1f p50_us_min=%.1f p50_us_max=%.1f p99_us=%.1f p99_us_min=%.1f p99_us_max=%.1f max_us=%.1f cpu_pct=%.3f p50_vs_pipe=%.3f p99_vs_pipe=%.3f",
			       kind_names[k], cfg.rates[i], lr.done[i][k], cfg.latency, lr.n[i][k],
			       lr.late[i][k], p50.med / 1e3, p50.min / 1e3, p50.max / 1e3,
			       p99.med / 1e3, p99.min / 1e3, p99.max / 1e3, lr.max[i][k] / 1e3,
			       cpu.med, p50.med / lr_med(lr.p50, i, K_FLOOR_PIPE),
			       p99.med / lr_med(lr.p99, i, K_FLOOR_PIPE));
			if (!is_floor((enum kind)k))
				printf(" p99_vs_bpf_floor=%.3f p99_vs_libbpf_same=%.3f",
				       p99.med / lr_med(lr.p99, i, bpf_floor_of((enum kind)k)),
				       p99.med / lr_med(lr.p99, i, libbpf_of((enum kind)k)));
			printf("\n");
		}
	}
}

/* ---------------------------------------------------------------- main */


/* A path next to this program's directory, malloc'ed (never freed: once). */
static const char *beside_exe(const char *relative)
{
	char exe[PATH_MAX], *slash, *path;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return relative;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	if (asprintf(&path, "%s/%s", exe, relative) < 0)
		return relative;
	return path;
}

static double parse_double(const char *opt, const char *arg, double min,
			   double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || end == arg || !(v >= min && v <= max)) {
		fprintf(stderr, "error: %s '%s' is not a number from %g to %g\n",
			opt, arg, min, max);
		exit(2);
	}
	return v;
}

static int rate_index(int rate);

static void parse_rates(const char *arg)
{
	char *list = strdup(arg), *save = NULL, *tok;

	if (!list)
		exit(1);
	cfg.nrates = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cfg.nrates == (int)(sizeof(cfg.rates) / sizeof(cfg.rates[0]))) {
			fprintf(stderr, "error: --rates: at most %zu rates\n",
				sizeof(cfg.rates) / sizeof(cfg.rates[0]));
			exit(2);
		}
		cfg.rates[cfg.nrates++] = (int)parse_double("--rates", tok, 1, 1000000);
	}
	free(list);
	if (!cfg.nrates) {
		fprintf(stderr, "error: --rates: no rate given\n");
		exit(2);
	}
}

static void parse_only(const char *arg)
{
	char *list = strdup(arg), *save = NULL, *tok;

	if (!list)
		exit(1);
	memset(cfg.run, 0, sizeof(cfg.run));
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < K_COUNT; k++)
			if (!strcmp(tok, kind_names[k]))
				break;
		if (k == K_COUNT) {
			fprintf(stderr, "error: --only: unknown contender '%s' (see --help)\n",
				tok);
			exit(2);
		}
		cfg.run[k] = true;
	}
	free(list);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "latency", required_argument, NULL, 'l' },
		{ "rate", required_argument, NULL, 'R' },
		{ "rates", required_argument, NULL, 'L' },
		{ "idle", required_argument, NULL, 'I' },
		{ "pages", required_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'O' },
		{ "producer-cpu", required_argument, NULL, 'P' },
		{ "consumer-cpu", required_argument, NULL, 'C' },
		{ "obj", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	for (int k = 0; k < K_COUNT; k++)
		cfg.run[k] = true;
	while ((c = getopt_long(argc, argv, "d:r:l:p:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': cfg.duration = parse_double("--duration", optarg, 0.01, 3600); break;
		case 'r': cfg.rounds = (int)parse_double("--rounds", optarg, 1, 1000); break;
		case 'l': cfg.latency = parse_double("--latency", optarg, 0, 3600); break;
		case 'I': cfg.idle = parse_double("--idle", optarg, 0, 3600); break;
		case 'R': cfg.rate = (int)parse_double("--rate", optarg, 1, 1000000); break;
		case 'L': parse_rates(optarg); break;
		case 'p': cfg.pages = (unsigned int)parse_double("--pages", optarg, 1, 1 << 16); break;
		case 'O': parse_only(optarg); break;
		case 'P': cfg.producer_cpu = (int)parse_double("--producer-cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 'C': cfg.consumer_cpu = (int)parse_double("--consumer-cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 'o': cfg.obj_path = optarg; break;
		case 'v': cfg.verbose++; break;
		case 'h': fputs(usage, stdout); exit(0);
		default: fputs("try 'perf_bench --help'\n", stderr); exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\ntry 'perf_bench --help'\n",
			argv[optind]);
		exit(2);
	}
	/* The main table's column at --rate comes from the rounds. */
	if (rate_index(cfg.rate) < 0) {
		if (cfg.nrates == (int)(sizeof(cfg.rates) / sizeof(cfg.rates[0]))) {
			fprintf(stderr, "error: --rate %d is not among the %d --rates, and there is no room for it\n",
				cfg.rate, cfg.nrates);
			exit(2);
		}
		cfg.rates[cfg.nrates++] = cfg.rate;
	}
	if (cfg.pages && cfg.pages & (cfg.pages - 1)) {
		fprintf(stderr, "error: --pages %u is not a power of two\n", cfg.pages);
		exit(2);
	}
	if (!cfg.obj_path)
		cfg.obj_path = beside_exe("../bpf/perf_bench.bpf.o");
	if (!cfg.bpfsdk_path)
		cfg.bpfsdk_path = beside_exe("bpfsdk");
	if (!cfg.run_obj_path)
		cfg.run_obj_path = beside_exe("../bpf/run_bench.bpf.o");
}

static int bench_open(struct bench *b)
{
	uint32_t tgid = (uint32_t)getpid();
	struct bsdk_map *perf, *ring, *counters;

	memset(b, 0, sizeof(*b));
	b->devnull = -1;
	b->ncpu = libbpf_num_possible_cpus();
	if (b->ncpu <= 0) {
		fprintf(stderr, "error: cannot count the possible CPUs\n");
		return -1;
	}
	b->obj = bsdk_obj_open(cfg.obj_path);
	if (!b->obj)
		return -1;
	if (bsdk_obj_set_global(b->obj, "target_tgid", &tgid, sizeof(tgid)) ||
	    bsdk_obj_load(b->obj))
		return -1;
	b->noop = bsdk_obj_prog_find(b->obj, "noop");
	b->emit_perf = bsdk_obj_prog_find(b->obj, "emit_perf");
	b->emit_ring = bsdk_obj_prog_find(b->obj, "emit_ring");
	b->emit_ring_nowake = bsdk_obj_prog_find(b->obj, "emit_ring_nowake");
	perf = bsdk_obj_map_find(b->obj, "perf_events");
	ring = bsdk_obj_map_find(b->obj, "ring_events");
	counters = bsdk_obj_map_find(b->obj, "counters");
	if (!b->noop || !b->emit_perf || !b->emit_ring || !b->emit_ring_nowake || !perf || !ring ||
	    !counters) {
		fprintf(stderr, "error: '%s' lacks the programs noop, emit_perf, emit_ring, emit_ring_nowake or the maps perf_events, ring_events, counters\n",
			cfg.obj_path);
		return -1;
	}
	/* libbpf gets nothing but these fds: the object is ours. */
	b->perf_fd = bsdk_map_fd(perf);
	b->ring_fd = bsdk_map_fd(ring);
	b->counters_fd = bsdk_map_fd(counters);
	b->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (b->devnull < 0) {
		fprintf(stderr, "error: cannot open '/dev/null': %s\n", strerror(errno));
		return -1;
	}
	if (!cfg.pages) {
		/* Give libbpf the ring size our default picks here. */
		struct bsdk_perfbuf_opts o;
		struct bsdk_perfbuf_stats st;
		struct bsdk_perfbuf *pb;

		memset(&o, 0, sizeof(o));
		o.sz = sizeof(o);
		o.on_sample = bsdk_sample;
		pb = bsdk_perfbuf_new(b->perf_fd, &o);
		if (!pb)
			return -1;
		bsdk_perfbuf_stats(pb, &st);
		bsdk_perfbuf_free(pb);
		cfg.pages = st.pages;
	}
	return 0;
}

static void print_env(void)
{
	struct utsname u;
	char model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "model name", 10) && colon) {
				snprintf(model, sizeof(model), "%s", colon + 2);
				model[strcspn(model, "\n")] = '\0';
				break;
			}
		}
		fclose(f);
	}
	uname(&u);
	printf("# perf_bench: kernel %s %s, %ld online CPUs (%s), libbpf %s\n",
	       u.release, u.machine, sysconf(_SC_NPROCESSORS_ONLN), model,
	       libbpf_version_string());
	printf("# producer on cpu %d, consumer on cpu %d, %d rounds of %.2f s per contender, %u pages per CPU (our default here, given to libbpf too), 16-byte records\n\n",
	       cfg.producer_cpu, cfg.consumer_cpu, cfg.rounds, cfg.duration,
	       cfg.pages);
}

static __attribute__((format(printf, 2, 0))) int
libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b;
	/* Per contender, per round. */
	static double prod_s[K_COUNT][1000], recv_s[K_COUNT][1000];
	static double lost_v[K_COUNT][1000], cpu_ev[K_COUNT][1000];
	struct lat lat[2][K_COUNT];	/* [0]: at cfg.rate, [1]: flat out */
	double idle_us[K_COUNT];
	int done[K_COUNT] = { 0 };
	double noop_ceiling, libbpf_default;
	struct stat3 st_prod[K_COUNT], st_recv[K_COUNT], st_lost[K_COUNT],
		     st_cpu[K_COUNT];
	char a0[32], a1[32];
	int ret = 1;

	parse_args(argc, argv);
	if (cfg.verbose)
		bsdk_set_log_level(cfg.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	libbpf_set_print(libbpf_quiet);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	if (pin(pthread_self(), cfg.consumer_cpu))
		fprintf(stderr, "warning: cannot pin the consumer to cpu %d\n",
			cfg.consumer_cpu);
	if (bench_open(&b))
		goto out;
	print_env();

	/* Throughput: A B C ... A B C ... */
	for (int r = 0; r < cfg.rounds && !interrupted; r++) {
		for (int k = 0; k < K_COUNT && !interrupted; k++) {
			struct result res;

			if (!cfg.run[k] || is_floor((enum kind)k))
				continue;
			if (run_once(&b, (enum kind)k, cfg.duration, 0, &res))
				goto out;
			if (interrupted)
				break;
			prod_s[k][done[k]] = (double)res.produced / res.secs;
			recv_s[k][done[k]] = (double)res.received / res.secs;
			lost_v[k][done[k]] = (double)res.lost;
			cpu_ev[k][done[k]] = res.received ?
				(double)res.cpu_ns / (double)res.received : NAN;
			done[k]++;
			if (cfg.verbose)
				fprintf(stderr, "round %d %-20s produced/s %.0f received/s %.0f lost %llu (reported %llu) cpu ns/event %.1f\n",
					r + 1, kind_names[k], prod_s[k][done[k] - 1],
					recv_s[k][done[k] - 1],
					(unsigned long long)res.lost,
					(unsigned long long)res.lost_reported,
					cpu_ev[k][done[k] - 1]);
		}
	}

	/* Latency at low rates: alternated rounds, like the throughput's. */
	sink.cap_lat = (size_t)(cfg.latency * 4e6 / LAT_FULL_STEP) + 16;
	for (int i = 0; i < cfg.nrates; i++)
		if (sink.cap_lat < (size_t)(cfg.latency * cfg.rates[i] * 1.2) + 16)
			sink.cap_lat = (size_t)(cfg.latency * cfg.rates[i] * 1.2) + 16;
	sink.lat = calloc(sink.cap_lat, sizeof(*sink.lat));
	if (!sink.lat) {
		fprintf(stderr, "error: out of memory\n");
		goto out;
	}
	if (latency_rounds(&b))
		goto out;
	/* Latency at full rate, then the idle cost: each consumer in turn. */
	for (int k = 0; k < K_COUNT; k++) {
		struct result res;
		struct lat *l = &lat[1][k];
		int ri = rate_index(cfg.rate);

		idle_us[k] = NAN;
		l->p50 = l->p99 = l->max = NAN;
		l->n = l->late = 0;
		/* The main table's column at --rate: the medians of the rounds. */
		lat[0][k] = lat[1][k];
		if (ri >= 0 && lr.done[ri][k]) {
			lat[0][k].p50 = stat_of(lr.p50[ri][k], lr.done[ri][k]).med;
			lat[0][k].p99 = stat_of(lr.p99[ri][k], lr.done[ri][k]).med;
			lat[0][k].max = lr.max[ri][k];
			lat[0][k].n = lr.n[ri][k];
			lat[0][k].late = lr.late[ri][k];
		}
		/* ceiling-perf-unread has no latency: nobody reads; the floors
		 * are for low rates only. */
		if (!latency_contender((enum kind)k) || is_floor((enum kind)k) || interrupted)
			continue;
		if (cfg.latency > 0) {
			sink.latency = true;
			sink.lat_step = LAT_FULL_STEP;
			if (run_once(&b, (enum kind)k, cfg.latency, 0, &res))
				goto out;
			sink.latency = false;
			lat_figures(l);
		}
		/* bpfsdk-run-json runs in a process of its own: throughput only */
		if (cfg.idle <= 0 || interrupted)
			continue;
		if (run_once(&b, (enum kind)k, cfg.idle, -1, &res))
			goto out;
		idle_us[k] = (double)res.cpu_ns / 1e3;
	}
	if (interrupted) {
		fprintf(stderr, "interrupted\n");
		goto out;
	}

	for (int k = 0; k < K_COUNT; k++) {
		st_prod[k] = stat_of(prod_s[k], done[k]);
		st_recv[k] = stat_of(recv_s[k], done[k]);
		st_lost[k] = stat_of(lost_v[k], done[k]);
		st_cpu[k] = stat_of(cpu_ev[k], done[k]);
	}
	noop_ceiling = st_prod[K_NOOP].med;
	libbpf_default = st_recv[K_LIBBPF_PERF].med;

	printf("| contender | produced/s | received/s (range) | lost (median, range) | consumer CPU ns/event (range) | recv / its limit | recv / libbpf, same channel | p50 / p99 at %d/s | p50 / p99 at full rate | idle CPU, %.0f s |\n",
	       cfg.rate, cfg.idle);
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int k = 0; k < K_COUNT; k++) {
		char a[32], b1[32], b2[32], c1[32];
		bool cons = is_consumer((enum kind)k);
		double rc = ratio_to(st_recv, st_prod, k, limit_of((enum kind)k));
		double rl = ratio_to(st_recv, st_prod, k, libbpf_of((enum kind)k));

		if (!done[k])
			continue;
		printf("| %s | %s | ", kind_names[k],
		       human(st_prod[k].med, a, sizeof(a)));
		if (cons)
			printf("%s (%s–%s) | %.0f (%.0f–%.0f) | %.1f (%.1f–%.1f) | ",
			       human(st_recv[k].med, b1, sizeof(b1)),
			       human(st_recv[k].min, b2, sizeof(b2)),
			       human(st_recv[k].max, c1, sizeof(c1)),
			       st_lost[k].med, st_lost[k].min, st_lost[k].max,
			       st_cpu[k].med, st_cpu[k].min, st_cpu[k].max);
		else
			printf("- | - | - | ");
		print_ratio(rc);
		print_ratio(rl);
		for (int f = 0; f < 2; f++)
			if (lat[f][k].n)
				printf("%.2f / %.2f ms | ", lat[f][k].p50 / 1e6, lat[f][k].p99 / 1e6);
			else
				printf("- | ");
		if (!isnan(idle_us[k]))
			printf("%.3f ms |\n", idle_us[k] / 1e3);
		else
			printf("- |\n");
	}
	if (done[K_RUN_JSON] && done[K_BSDK_PERF])
		printf("\nbpfsdk-run-json / bsdk-perf-default received/s: %.2f (%s vs %s)\n",
		       st_recv[K_RUN_JSON].med / st_recv[K_BSDK_PERF].med,
		       human(st_recv[K_RUN_JSON].med, a0, sizeof(a0)),
		       human(st_recv[K_BSDK_PERF].med, a1, sizeof(a1)));
	printf("\nproduced/s: the median of the write loop's rate (range in the bench: lines)\n");
	printf("lost: records the program could not send (-ENOSPC / -EAGAIN), counted on the BPF side\n");
	printf("its limit: ceiling-perf-unread for perf rows, limit-ringbuf-nowake for ring buffer rows\n");
	printf("latency: bpf_ktime_get_ns() in the program to the callback; at %d records/s the medians of the latency rounds (below), flat out one run of %.1f s (one record in %d)\n",
	       cfg.rate, cfg.latency, LAT_FULL_STEP);
	printf("idle CPU: the consumer thread's CPU time over %.1f s with the program attached and nothing written\n",
	       cfg.idle);
	print_latency_table();
	printf("\n");

	for (int k = 0; k < K_COUNT; k++) {
		if (!done[k])
			continue;
		printf("bench: name=%s rounds=%d duration_s=%.3f produced_per_s=%.0f produced_per_s_min=%.0f produced_per_s_max=%.0f",
		       kind_names[k], done[k], cfg.duration, st_prod[k].med,
		       st_prod[k].min, st_prod[k].max);
		if (is_consumer((enum kind)k))
			printf(" received_per_s=%.0f received_per_s_min=%.0f received_per_s_max=%.0f lost=%.0f lost_min=%.0f lost_max=%.0f cpu_ns_per_event=%.2f cpu_ns_per_event_min=%.2f cpu_ns_per_event_max=%.2f ratio_ceiling=%.3f ratio_libbpf_default=%.3f ratio_limit=%.3f ratio_libbpf_same=%.3f",
			       st_recv[k].med, st_recv[k].min, st_recv[k].max,
			       st_lost[k].med, st_lost[k].min, st_lost[k].max,
			       st_cpu[k].med, st_cpu[k].min, st_cpu[k].max,
			       st_recv[k].med / noop_ceiling,
			       st_recv[k].med / libbpf_default,
			       ratio_to(st_recv, st_prod, k, limit_of((enum kind)k)),
			       ratio_to(st_recv, st_prod, k, libbpf_of((enum kind)k)));
		else
			printf(" ratio_ceiling=%.3f", st_prod[k].med / noop_ceiling);
		if (lat[0][k].n)
			printf(" latency_rate=%d latency_samples=%zu latency_late=%zu latency_p50_us=%.1f latency_p99_us=%.1f latency_max_us=%.1f",
			       cfg.rate, lat[0][k].n, lat[0][k].late, lat[0][k].p50 / 1e3,
			       lat[0][k].p99 / 1e3, lat[0][k].max / 1e3);
		if (lat[1][k].n)
			printf(" latency_full_samples=%zu latency_full_p50_us=%.1f latency_full_p99_us=%.1f latency_full_max_us=%.1f",
			       lat[1][k].n, lat[1][k].p50 / 1e3, lat[1][k].p99 / 1e3,
			       lat[1][k].max / 1e3);
		if (!isnan(idle_us[k]))
			printf(" idle_s=%.1f idle_cpu_us=%.1f", cfg.idle, idle_us[k]);
		printf("\n");
	}
	print_latency_lines();
	ret = 0;
out:
	if (b.devnull >= 0)
		close(b.devnull);
	bsdk_obj_close(b.obj);
	free(sink.lat);
	return ret;
}
