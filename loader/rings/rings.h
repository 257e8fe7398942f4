/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * rings.h - the rings layer, above the core's channel: the BPF ring buffer
 * (ringbuf.c), the wakeup policy both consumers follow (wakeup.c), and
 * what it adds to the core's perf buffer through struct perfbuf_ext
 * (channel.h): the per-record wakeups (perf_wake.c), the merge by
 * timestamp (merge.c, perfbuf_merge.c), the default sizing, CPU hotplug and
 * the rings in memory (perf_size.c). Not installed.
 */
#ifndef BPFSDK_RINGS_H
#define BPFSDK_RINGS_H

#include "channel/channel.h"

/* perf_wake.c: what ext/passes.c registers with perfbuf_ext_set() */
extern const struct perfbuf_ext rings_perfbuf_ext;

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

/* ---- merge.c: the tournament behind merge_by_ts (perfbuf_merge.c): k streams, each in its own
 * order, merged by (ts, ring); log2(k) comparisons a record, none of them a branch. */
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

/* ---- the rings layer's state of one perf buffer (pb->ext): per ring, as pb->rings */
struct ring_ext {
	int eager_fd;                        /* writes into the ring, wakes per record; -1 */
	bool settle;                         /* just switched to eager_fd: one more timed drain */
	bool has_pending;                    /* merge mode: pending holds a sample */
	bool walked;                         /* merge mode: perfbuf_walk_begin() this drain */
	struct wake_policy wake;             /* which of the two is in the map slot */
	struct perf_ring walk;               /* merge mode: the pending state */
	struct perf_rec pending;             /* merge mode: the record at tail */
};

struct perfbuf_rings {
	bool auto_pages;                     /* the caller left opts.pages to us */
	bool auto_wakeup;                    /* ...and opts.wakeup_bytes (and wakeup_events) */
	bool retry_smaller;                  /* a refused mmap: smaller rings are left to try */
	bool mlock_refused;                  /* a ring's mmap met the locked-memory limit */
	bool adaptive;                       /* each map slot switched by the rate (wakeup.c) */
	struct wake_cfg wake_cfg;
	struct merge_tree merge;             /* merge mode: the rings with a record (merge.c) */
	size_t cap;                          /* room for this many rings: every possible CPU */
	struct ring_ext ring[];
};

/* perf_size.c: the default pages per ring for ncpu CPUs; open the rings, at half the size
 * again while the locked-memory limit refuses the default one. */
unsigned int perfbuf_auto_pages(size_t page_size, int ncpu);
int perfbuf_open_sized(struct bsdk_perfbuf *pb);
/* perfbuf_merge.c: one drain of every ring, the records in timestamp order (merge_by_ts). */
int perfbuf_consume_merged(struct bsdk_perfbuf *pb);

/* ---- the BPF ring buffer (BPF_MAP_TYPE_RINGBUF): one ring for all CPUs.
 * A record starts with an 8-byte header: a u32 length whose top bits say
 * it is still being written (BUSY) or was thrown away (DISCARD), and a u32
 * the kernel uses to find its page; it takes round_up(8 + length, 8) bytes.
 * The data area is mapped twice in a row, so a record that wraps is still
 * contiguous: no copy is ever needed. */
typedef int (*bpf_ring_record_fn)(void *ctx, const void *data, uint32_t size);

/* Mid-walk, consumer_pos is published every this many records, so that a slow callback does
 * not hold the whole drain's space away from the producers. */
#define BPF_RING_PUBLISH_EVERY 32

struct bpf_ring {
	const uint8_t *data;     /* the data area (mapped twice: 2 * size) */
	uint64_t size;           /* bytes, a power of two */
	uint64_t prod;           /* producer_pos as loaded by the caller */
	uint64_t cons;           /* consumer_pos: the next record */
	uint64_t received;       /* counters, added to */
	uint64_t discarded;
	uint64_t corrupt;
	/* Optional: called instead of on_sample; a non-zero return stops the walk after that
	 * record and is left in stop. */
	bpf_ring_record_fn on_record;
	bsdk_ringbuf_sample_cb sample_cb;	/* the same with libbpf's type */
	int stop;                /* 0, or what on_record returned to stop the last walk */
	uint64_t last;           /* where the last record consumed starts */
	/* Optional: where the walk publishes its progress every BPF_RING_PUBLISH_EVERY records:
	 * the start of the last record consumed (a position no record still to come can start
	 * at, so it never asks the kernel for a wakeup; see ringbuf.c). published is the value
	 * last stored there. */
	uint64_t *consumer_pos;
	uint64_t published;
};

/* Hand every committed record between cons and prod to on_record, or else on_sample (cpu -1),
 * stopping at the first still BUSY (read with acquire order) or when on_record returns
 * non-zero (r->stop). A length running past prod or larger than the ring is counted as corrupt
 * and skips to prod. Returns the number handed out. */
uint64_t bpf_ring_walk(struct bpf_ring *r, perf_ring_sample_fn on_sample, void *ctx);

/* ---- perf_size.c and ringbuf.c: the consumers over rings in memory, for the unit tests and
 * bench/rings_bench.c:
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

#endif /* BPFSDK_RINGS_H */
