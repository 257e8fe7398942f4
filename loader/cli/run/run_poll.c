// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_poll.c - `bpfsdk run`'s readers and poll loop: a perf buffer or a
 * ring buffer reader on every map that streams records, every reader's
 * epoll fd in one set, the records printed as they come, the views every
 * --interval; and the signals that end it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "run_state.h"

/* How late the records of a ringbuf producer that never wakes the reader may be. */
#define RUN_RINGBUF_IDLE_MS 100

static int stream_epoll_fd(const struct stream *s)
{
	return s->pb ? bsdk_perfbuf_epoll_fd(s->pb) : bsdk_ringbuf_epoll_fd(s->rb);
}

static int stream_timeout_ms(const struct stream *s)
{
	return s->pb ? bsdk_perfbuf_timeout_ms(s->pb) : bsdk_ringbuf_timeout_ms(s->rb);
}

static int stream_consume(struct stream *s)
{
	return s->pb ? bsdk_perfbuf_consume(s->pb) : bsdk_ringbuf_consume(s->rb);
}

void stream_free(struct stream *s)
{
	bsdk_perfbuf_free(s->pb);
	bsdk_ringbuf_free(s->rb);
}

static void run_on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sample_ctx *c = ctx;
	struct run_state *st = c->st;

	c->received++;
	/* the rest of a batch after the N-th record is not printed */
	if (st->done || st->write_failed || st->failed)
		return;
	if (decoder_record(c->dec, stdout, cpu, data, size)) {
		st->failed = true;
		return;
	}
	if (++st->printed == st->count)
		st->done = true;
}

/* The reader of one map, for c (its label and decoder set). */
static int stream_open(struct run *r, struct bsdk_map *map, struct sample_ctx *c,
		       struct stream *s)
{
	if (bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		struct bsdk_perfbuf_opts opts = {
			.sz = sizeof(opts), .pages = r->a.pages,
			.on_sample = run_on_sample, .ctx = c,
		};
		int ts_offset = 0;

		/* the rings' k-way merge orders each drain by the field */
		if (r->a.sort_by) {
			ts_offset = decoder_field_offset(c->dec, r->a.sort_by);
			if (ts_offset < 0)
				return EXIT_USAGE;
			opts.merge_by_ts = true;
			opts.ts_offset = (unsigned int)ts_offset;
		}

		s->pb = bsdk_perfbuf_new(bsdk_map_fd(map), &opts);
		if (!s->pb) {
			cli_error_unless_logged("map '%s': cannot open its perf rings: %s",
						c->map, bsdk_strerror(errno));
			return EXIT_RUNTIME;
		}
	} else {
		/* run cannot know whether the program passes BPF_RB_NO_WAKEUP, for
		 * which the kernel never wakes the reader: drain an idle ring
		 * every RUN_RINGBUF_IDLE_MS too, ten cheap checks a second */
		struct bsdk_ringbuf_opts opts = {
			.sz = sizeof(opts), .on_sample = run_on_sample, .ctx = c,
			.idle_drain_ms = RUN_RINGBUF_IDLE_MS,
		};

		s->rb = bsdk_ringbuf_new(bsdk_map_fd(map), &opts);
		if (!s->rb) {
			cli_error_unless_logged("map '%s': cannot map its ring buffer: %s",
						c->map, bsdk_strerror(errno));
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

static bool map_streams(const struct bsdk_map *map)
{
	return bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	       bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF;
}

int run_streams_new(struct run *r)
{
	struct run_state *st = &r->st;
	struct bsdk_map *map = NULL;
	size_t nmaps = 0;
	int ret;

	while ((map = bsdk_obj_map_next(r->obj, map)))
		nmaps += map_streams(map);
	st->streams = calloc(nmaps ? nmaps : 1, sizeof(*st->streams));
	r->ctxs = calloc(nmaps ? nmaps : 1, sizeof(*r->ctxs));
	if (!st->streams || !r->ctxs) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	r->nctxs = nmaps;
	r->dcfg.columns = nmaps == 1;	/* columns when one stream has them alone */
	while ((map = bsdk_obj_map_next(r->obj, map))) {
		struct sample_ctx *c = &r->ctxs[st->nstreams];
		struct stream *s = &st->streams[st->nstreams];

		if (!map_streams(map))
			continue;
		c->st = st;
		c->map = record_map_label(bsdk_map_name(map));
		if (!c->map) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		s->map = c->map;
		c->dec = decoder_new(r->obj, map, c->map, &r->dcfg);
		if (!c->dec)
			return EXIT_RUNTIME;
		ret = stream_open(r, map, c, s);
		if (ret)
			return ret;
		st->nstreams++;
	}
	return 0;
}

volatile sig_atomic_t run_stop_signal;

static void run_on_signal(int sig)
{
	run_stop_signal = sig;
	bsdk_signals_note(sig);	/* so that loading stops between two verifier runs */
}

void run_signals_catch(void)
{
	struct sigaction sa;

	/* Ctrl-C and SIGTERM only set a flag, checked after each step of the
	 * command (no SA_RESTART: a wait they interrupt returns); a closed
	 * stdout shows up as EPIPE from fflush, not as a signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* One epoll set that holds every reader's own: the fd, or -1 after an error line. */
static int epoll_set_new(const struct run_state *st)
{
	struct epoll_event ev;
	int epfd;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		cli_error("cannot create an epoll set: %s%s", strerror(errno),
			  errno == EMFILE ? " (the open files limit, ulimit -n, is reached: raise it)" : "");
		return -1;
	}
	for (size_t i = 0; i < st->nstreams; i++) {
		ev.events = EPOLLIN;
		ev.data.u64 = i;
		if (epoll_ctl(epfd, EPOLL_CTL_ADD,
			      stream_epoll_fd(&st->streams[i]), &ev) < 0) {
			cli_error("map '%s': cannot watch its rings: %s",
				  st->streams[i].map, strerror(errno));
			close(epfd);
			return -1;
		}
	}
	ev.events = EPOLLIN;
	ev.data.u64 = st->nstreams;
	if (st->trace && epoll_ctl(epfd, EPOLL_CTL_ADD, trace_relay_fd(st->trace), &ev) < 0) {
		cli_error("cannot watch the trace pipe: %s", strerror(errno));
		close(epfd);
		return -1;
	}
	return epfd;
}

/* Drain every reader, up to --count: 0, or -1 after an error line. */
static int consume_all(struct run_state *st)
{
	for (size_t i = 0; i < st->nstreams && !st->done; i++) {
		int n = stream_consume(&st->streams[i]);

		if (n < 0) {
			cli_error_unless_logged("map '%s': cannot read its rings: %s",
						st->streams[i].map, bsdk_strerror(n));
			return -1;
		}
	}
	return st->trace ? trace_relay_read(st->trace, stdout) : 0;
}

/* The soonest any stream wants to be drained, -1 when none does. */
static int streams_timeout_ms(const struct run_state *st)
{
	int timeout = -1;

	for (size_t i = 0; i < st->nstreams; i++) {
		int t = stream_timeout_ms(&st->streams[i]);

		if (t >= 0 && (timeout < 0 || t < timeout))
			timeout = t;
	}
	return timeout;
}

/* Print the map views when their interval is up; *timeout shortened to the
 * next one. -1 when printing failed. */
static int views_tick(struct run_state *st, int64_t deadline, int *timeout)
{
	int64_t left = st->next_view - run_now_ms();

	/* the run ends within a tenth of an interval: the table
	 * printed at the end is this one, not one more after it
	 * that would hold next to nothing */
	if (left <= 0 && deadline >= 0 &&
	    deadline - run_now_ms() <= st->interval_ms / 10) {
		st->next_view = deadline + st->interval_ms;
		left = st->next_view - run_now_ms();
	}
	if (left <= 0) {
		if (mapviews_print(st->views, stdout))
			return -1;
		st->next_view += st->interval_ms;
		left = st->next_view - run_now_ms();
		if (left < 0)
			left = 0;
	}
	if (*timeout < 0 || left < *timeout)
		*timeout = (int)left;
	return 0;
}

/*
 * Wait on every reader's epoll fd at once (nested in one epoll set), and
 * at least every bsdk_perfbuf_timeout_ms() drain them all: the library's
 * latency bound holds with several maps too. The signals that stop the
 * loop are blocked everywhere except inside epoll_pwait(), so one that
 * arrives between a check and the wait still ends the wait at once.
 */
int run_poll_loop(struct run_state *st, double duration,
		  const sigset_t *waitmask)
{
	/* at least 1 ms, so that a tiny --duration still polls once */
	int64_t deadline = duration > 0 ?
		run_now_ms() + (int64_t)(duration * 1000 + 0.5) + (duration < 0.001) : -1;
	struct epoll_event ev;
	int epfd, ret = 0;

	epfd = epoll_set_new(st);
	if (epfd < 0)
		return -1;
	/* the views' ticks count from where the duration does */
	if (st->interval_ms)
		st->next_view = run_now_ms() + st->interval_ms;
	while (!run_stop_signal && !st->done && !st->write_failed && !st->failed) {
		int timeout = streams_timeout_ms(st), n;

		if (st->interval_ms && views_tick(st, deadline, &timeout)) {
			ret = -1;
			break;
		}
		if (st->metrics) {
			int left = run_metrics_tick(st->metrics);

			if (left == -2) {
				ret = -1;
				break;
			}
			if (left >= 0 && (timeout < 0 || left < timeout))
				timeout = left;
		}
		if (deadline >= 0) {
			int64_t left = deadline - run_now_ms();

			if (left <= 0)
				break;
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		n = epoll_pwait(epfd, &ev, 1, timeout, waitmask);
		if (n < 0 && errno != EINTR) {
			cli_error("waiting for records: %s", strerror(errno));
			ret = -1;
			break;
		}
		ret = consume_all(st);
		/* one flush per batch: a pipe reader sees records promptly
		 * without a write per record */
		if (fflush(stdout) == EOF || ferror(stdout)) {
			st->write_failed = true;
			st->write_errno = errno;
		}
		if (ret)
			break;
	}
	/* the lines written up to the end */
	if (!ret && st->trace && !st->write_failed)
		ret = trace_relay_read(st->trace, stdout);
	close(epfd);
	return ret;
}
