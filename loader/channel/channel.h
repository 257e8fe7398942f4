/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * channel.h - what the readers of BPF output share: the wait-and-drain
 * loop (drain.c) and the tool's poll loop (poll_loop.c); and the perf buffer
 * (perfbuf.c), which the rings layer extends (rings/rings.h: the ring
 * buffer, the wakeup policy, the merge by timestamp). A channel knows a
 * map only by its fd. Not installed.
 */
#ifndef BPFSDK_CHANNEL_H
#define BPFSDK_CHANNEL_H

#include <stdio.h>

#include "base/base.h"
#include "channel/perf_ring.h"

/* ---- poll_loop.c: the poll loop behind bsdk_perfbuf_run() and bsdk_ringbuf_run(), over any
 * poll function (the unit tests give it a fake one); what names the buffer in messages. */
int run_loop(int (*poll)(void *buf, int timeout_ms), void *buf, const char *what,
	     const struct bsdk_run_opts *opts);
/* fflush(out): 0, BSDK_RUN_CLOSED on EPIPE, else negative errno, logged. */
int run_flush(FILE *out);

/* ---- drain.c */
/* Get the info of map_fd into *info and check it is of map type type. */
int map_check(int map_fd, uint32_t type, const char *type_name,
	      const char *who, struct bpf_map_info *info);

/* The wait-and-drain loop: an epoll set, and while some ring is streaming (rings/wakeup.c) a drain
 * every period_ns; with none streaming it sleeps until the kernel wakes it (or idle_ns). */
struct epoll_event;
struct drain {
	const char *who;	/* "perf buffer", "ring buffer": for messages */
	int epfd;		/* -1 before drain_init() */
	uint64_t period_ns;	/* the streaming drain period; 0: none */
	uint64_t idle_ns;	/* drain this often even with nothing streaming; 0: never */
	bool streaming;		/* some ring wants the timer: set by the owner's consume */
	uint64_t last_ns;	/* when the last drain began */
	uint64_t wakeups;	/* epoll waits that ended with an fd ready */
	uint64_t drains;	/* calls of consume */
};
/* Create the epoll set; *max_latency_ms 0 becomes the default (DEFAULT_MAX_LATENCY_MS). */
int drain_init(struct drain *d, const char *who, int *max_latency_ms);
#define DEFAULT_MAX_LATENCY_MS 5
int drain_timeout_ms(const struct drain *d);
/* bsdk_perfbuf_poll() for any consumer: wait on d->epfd (into events, at most nevents), then
 * consume(owner), until it returns records (or a negative value) or the timeout passes. */
int drain_poll(struct drain *d, struct epoll_event *events, int nevents,
	       int timeout_ms, int (*consume)(void *owner), void *owner);

/* ---- perfbuf.c: the plain reader of a perf buffer, and what the rings layer needs of it to
 * extend it (rings/perf_wake.c, perfbuf_merge.c, perf_size.c) */
struct cpu_ring {	/* what a drain reads of every ring, idle or not, first */
	struct perf_event_mmap_page *meta;   /* the first mmapped page */
	uint64_t nrec;                       /* samples this drain */
	uint8_t *data;                       /* the 2^n data pages after it */
	int cpu;
	int fd;                              /* owns the ring; -1: a ring in memory */
	struct perf_scratch scratch;         /* for records that wrap */
};

struct perfbuf_rings;	/* the rings layer's state of one perf buffer */

struct bsdk_perfbuf {
	int map_fd;                          /* -1: rings in memory (perfbuf_new_mem()) */
	struct drain drain;
	struct bsdk_perfbuf_opts opts;       /* normalised copy */
	size_t page_size;
	size_t data_size;                    /* pages * page_size */
	uint32_t map_slots;                  /* the map's max_entries */
	struct cpu_ring *rings;
	size_t nrings;
	struct epoll_event *events;          /* for epoll_wait: one per CPU */
	struct perfbuf_rings *ext;           /* NULL without the rings layer */
	struct perf_ring_counts counts;
	void *user_ctx;                      /* opts.ctx when opts.sample_cb is set: opts.ctx is pb */
};

/* What the rings layer adds to every perf buffer, set when the library loads (ext/passes.c):
 * the default sizing, the wakeup policy, the merge by timestamp. Without it (libbpfsdk-core.a)
 * the reader is the plain one: the options' pages (or PERFBUF_PLAIN_PAGES), a wakeup per
 * wakeup_events or at the watermark, a drain every max_latency_ms, the CPUs in order. */
struct perfbuf_ext {
	/* The caller's options copied, before the core's defaults: its state of pb (pb->ext, with
	 * room for ncpu rings) and its own defaults for what the caller left at 0 (opts.pages);
	 * negative errno. */
	int (*setup)(struct bsdk_perfbuf *pb, size_t page_size, int ncpu);
	/* The drain loop is set up (pb->drain), the rings not open yet: its wakeup policy. */
	void (*drain_ready)(struct bsdk_perfbuf *pb);
	int (*open)(struct bsdk_perfbuf *pb);	/* perfbuf_open_cpus(), and retries */
	/* A ring's mmap failed with err: true when the rings layer will try again with smaller
	 * rings, so that the core tells the failure at info level, not as an error. */
	bool (*map_refused)(struct bsdk_perfbuf *pb, int err);
	/* Whether a ring wakes the consumer per record while records are rare (for messages). */
	bool (*per_record)(const struct bsdk_perfbuf *pb);
	/* Ring r, number i, is mapped: the fd its map slot gets; and its end. */
	int (*ring_open)(struct bsdk_perfbuf *pb, size_t i, struct cpu_ring *r);
	void (*ring_close)(struct bsdk_perfbuf *pb, size_t i);
	int (*consume)(struct bsdk_perfbuf *pb);	/* a drain of every ring */
	void (*stats)(const struct bsdk_perfbuf *pb, struct bsdk_perfbuf_stats *stats);
	void (*free)(struct bsdk_perfbuf *pb);
};
void perfbuf_ext_set(const struct perfbuf_ext *ext);
#define PERFBUF_PLAIN_PAGES 64

/* The steps of bsdk_perfbuf_new(), for perfbuf_new_mem(): read the options for ncpu rings,
 * then set up the drain loop (and the rings layer). Negative errno, logged. */
int perfbuf_opts_setup(struct bsdk_perfbuf *pb, const struct bsdk_perfbuf_opts *opts, int ncpu);
int perfbuf_drain_setup(struct bsdk_perfbuf *pb, int ncpu);
/* Open a ring for every online CPU that has none yet: how many were added, or negative errno.
 * And close them all. */
int perfbuf_open_cpus(struct bsdk_perfbuf *pb);
void perfbuf_close_rings(struct bsdk_perfbuf *pb);
/* Walk ring r from data_tail to the data_head loaded now; give the bytes walked back. */
void perfbuf_walk_begin(struct bsdk_perfbuf *pb, struct cpu_ring *r, struct perf_ring *w);
void perfbuf_walk_end(struct cpu_ring *r, const struct perf_ring *w);
/* One drain of every ring in CPU order: the samples handed out. */
int perfbuf_consume_cpus(struct bsdk_perfbuf *pb);

#endif /* BPFSDK_CHANNEL_H */
