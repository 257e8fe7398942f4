/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * channel.h - what the readers of BPF output share: the perf buffer
 * (perfbuf.c), the ring buffer (ringbuf.c), the wait-and-drain loop
 * (drain.c), the wakeup policy (wakeup.c) and the tool's poll loop
 * (run.c). A channel knows a map only by its fd. Not installed.
 */
#ifndef BPFSDK_CHANNEL_H
#define BPFSDK_CHANNEL_H

#include <stdio.h>

#include "base/base.h"

/* ---- run.c: the poll loop behind bsdk_perfbuf_run() and bsdk_ringbuf_run(), over any poll
 * function (the unit tests give it a fake one); what names the buffer in messages. */
int run_loop(int (*poll)(void *buf, int timeout_ms), void *buf, const char *what,
	     const struct bsdk_run_opts *opts);
/* fflush(out): 0, BSDK_RUN_CLOSED on EPIPE, else negative errno, logged. */
int run_flush(FILE *out);

/* ---- drain.c */
/* Get the info of map_fd into *info and check it is of map type type. */
int map_check(int map_fd, uint32_t type, const char *type_name,
	      const char *who, struct bpf_map_info *info);

/* The wait-and-drain loop: an epoll set, and while some ring is streaming (see wakeup.c) a drain
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

/* ---- wakeup.c: per ring, be woken by the kernel for each record (EAGER) or drain on the
 * timer (STREAM), by the rate seen over windows: one drain period in STREAM, several in EAGER,
 * each judged when it ends by its records over its whole length (a late drain's backlog is not a
 * fast rate). */
enum wake_mode { WAKE_EAGER, WAKE_STREAM };

struct wake_cfg {
	uint64_t period_ns;	/* the streaming drain period, and STREAM's window */
	uint64_t stream_window_ns; /* EAGER's window: several periods */
	uint64_t n_stream;	/* records per period, over EAGER's window, that switch to STREAM */
	uint64_t n_eager;	/* fewer per period, over a window, switch STREAM back to EAGER */
};

struct wake_policy {	/* what wake_update() reads of an idle ring first */
	enum wake_mode mode;
	uint64_t window_start;	/* ns */
	uint64_t window_n;	/* records in the current window */
	uint64_t hold_until;	/* ns: stay EAGER until then (wake_hold_eager) */
	uint64_t switches;	/* mode changes so far */
	uint64_t left_stream;	/* ns: when the rate last sent it from STREAM to EAGER; 0: never */
};

void wake_cfg_init(struct wake_cfg *c, uint64_t period_ns);
/* Start EAGER, with a window beginning at now. */
void wake_init(struct wake_policy *p, uint64_t now);
/* Go EAGER now and stay so for hold_ns, whatever the rate: a ring that filled past a quarter
 * within one period is too small to be drained on the timer at that rate. */
void wake_hold_eager(struct wake_policy *p, uint64_t now, uint64_t hold_ns);
/* The drain period for a ring of size bytes that took bytes in elapsed ns while streaming: the
 * time a quarter of it takes to fill at that rate, at most base. 0 when that is under
 * WAKE_MIN_PERIOD_NS (epoll_wait() counts in ms): the ring is too small for any timer. */
#define WAKE_MIN_PERIOD_NS 1000000ull
uint64_t wake_stream_period(uint64_t base, uint64_t bytes, uint64_t elapsed, uint64_t size);
/* Account the n records a drain at time now found; true when p->mode changed. */
bool wake_update(struct wake_policy *p, const struct wake_cfg *c, uint64_t now, uint64_t n);

/* ---- merge.c: the tournament behind merge_by_ts: k streams, each in its own order, merged by
 * (ts, ring); log2(k) comparisons a record, none of them a branch. */
struct merge_key {
	uint64_t ts;		/* the stream's next record's */
	size_t ring;		/* among equal timestamps the lower first; SIZE_MAX: ended */
};
#define MERGE_DONE ((struct merge_key){ UINT64_MAX, SIZE_MAX })

struct merge_tree {
	struct merge_key *key;	/* per stream: its next record's key, the caller's to set */
	size_t *loser;		/* per inner node (1 .. k - 1): the stream that lost there */
	size_t k;
	size_t winner;		/* the stream whose key goes first */
};
/* Play every match of the k keys (k room in key and loser). */
void merge_build(struct merge_tree *t, size_t k);
/* The winner's key changed (its next record, or MERGE_DONE): play its matches again; the new
 * winner, also in t->winner. */
size_t merge_replay(struct merge_tree *t);

/* ---- perfbuf.c and ringbuf.c over rings in memory, for the unit tests and bench/rings_bench.c:
 * no event, map, mapping or system call of their own; the caller writes the records and the
 * producer's position as the kernel does, and bsdk_perfbuf_consume() / bsdk_ringbuf_consume()
 * read them with the code that reads the kernel's rings. _free() leaves the memory alone. */

/* nrings perf rings laid out as the kernel maps one: a metadata page (struct
 * perf_event_mmap_page: data_head, data_tail), then opts->pages data pages (0: the default for
 * nrings CPUs), at rings[i]; ring i reads as CPU i. No per-record event to switch to, so each
 * ring is drained as one whose kernel refused it: on the timer while the policy is on. */
struct bsdk_perfbuf *perfbuf_new_mem(const struct bsdk_perfbuf_opts *opts, void *const *rings,
				     size_t nrings);

/* What the default sizing takes for ncpu CPUs: pages per ring, the bytes the rings map (the
 * metadata page and the data pages, pinned by the kernel) and the consumer's own allocations
 * (the scratch copy of records that wrap, grown on the first one, not included). */
struct perfbuf_footprint {
	unsigned int pages;
	size_t mapped;
	size_t heap;
};
void perfbuf_default_footprint(int ncpu, size_t page_size, struct perfbuf_footprint *f);

/* One BPF ring buffer: consumer_pos and producer_pos (the first u64 of the map's consumer and
 * producer pages) and the data area of size bytes, a power of two, readable twice in a row at
 * data as the kernel maps it. */
struct bsdk_ringbuf *ringbuf_new_mem(const struct bsdk_ringbuf_opts *opts, uint64_t *consumer_pos,
				     const uint64_t *producer_pos, const void *data, size_t size);

#endif /* BPFSDK_CHANNEL_H */
