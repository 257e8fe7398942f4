// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_poll.c - `bpfsdk run`'s poll loop: every reader's epoll fd in one
 * set, the records printed as they come, the views every --interval.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "cli.h"
#include "run.h"

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

void run_on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sample_ctx *c = ctx;
	struct run_state *st = c->st;

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

volatile sig_atomic_t run_stop_signal;

void run_on_signal(int sig)
{
	run_stop_signal = sig;
}

int64_t run_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		cli_error("cannot create an epoll set: %s", strerror(errno));
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

	while (!run_stop_signal && !st->done && !st->write_failed && !st->failed) {
		int timeout = -1, n;

		for (size_t i = 0; i < st->nstreams; i++) {
			int t = stream_timeout_ms(&st->streams[i]);

			if (t >= 0 && (timeout < 0 || t < timeout))
				timeout = t;
		}
		if (st->interval_ms) {
			int64_t left = st->next_view - run_now_ms();

			if (left <= 0) {
				if (mapviews_print(st->views, stdout)) {
					ret = -1;
					break;
				}
				st->next_view += st->interval_ms;
				left = st->next_view - run_now_ms();
				if (left < 0)
					left = 0;
			}
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
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
		for (size_t i = 0; i < st->nstreams && !st->done; i++) {
			n = stream_consume(&st->streams[i]);
			if (n < 0) {
				cli_error_unless_logged("map '%s': cannot read its rings: %s",
							st->streams[i].map, bsdk_strerror(n));
				ret = -1;
				break;
			}
		}
		/* one flush per batch: a pipe reader sees records promptly
		 * without a write per record */
		if (fflush(stdout) == EOF || ferror(stdout)) {
			st->write_failed = true;
			st->write_errno = errno;
		}
		if (ret)
			break;
	}
	close(epfd);
	return ret;
}
