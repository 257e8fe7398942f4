// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * poll_loop.c - the poll loop every tracing tool writes: poll a perf buffer (or,
 * from the rings layer, a ring buffer) until Ctrl-C (or SIGTERM), a
 * duration, or a reader of the output that went away (| head), flushing the
 * output after each poll; and the one flag the signals set.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "channel/channel.h"

#define DEFAULT_POLL_MS 100

double bsdk_time_now(void)
{
	return (double)now_ns() / 1e9;
}

int run_flush(FILE *out)
{
	if (!out || !fflush(out))
		return 0;
	if (errno == EPIPE)
		return BSDK_RUN_CLOSED;
	return log_fail(errno, "writing the output: %s", bsdk_strerror(errno));
}

int run_loop(int (*poll)(void *buf, int timeout_ms), void *buf, const char *what,
	     const struct bsdk_run_opts *opts)
{
	int poll_ms = DEFAULT_POLL_MS, err;
	double duration = 0, start = bsdk_time_now(), left;
	FILE *out = NULL;

	if (!poll || !buf)
		return log_fail(EINVAL, "%s: nothing to poll", what);
	if (opts) {
		if (opts->sz < sizeof(*opts))
			return log_fail(EINVAL, "%s: opts.sz is %zu, not sizeof(struct bsdk_run_opts)",
					what, opts->sz);
		duration = opts->duration;
		out = opts->out;
		if (opts->poll_ms > 0)
			poll_ms = opts->poll_ms;
	}
	for (;;) {
		int wait = poll_ms;

		if (bsdk_signals_caught())
			return BSDK_RUN_SIGNAL;
		if (duration > 0) {
			left = duration - (bsdk_time_now() - start);
			if (left <= 0)
				return BSDK_RUN_DURATION;
			/* never sleep past the end */
			if (left * 1000 < wait)
				wait = (int)(left * 1000) + 1;
		}
		err = poll(buf, wait);
		if (err < 0 && err != -EINTR)
			return log_fail(-err, "reading the %s: %s", what, bsdk_strerror(err));
		err = run_flush(out);
		if (err)
			return err;
	}
}

static int perfbuf_poll_fn(void *buf, int timeout_ms)
{
	return bsdk_perfbuf_poll(buf, timeout_ms);
}

int bsdk_perfbuf_run(struct bsdk_perfbuf *pb, const struct bsdk_run_opts *opts)
{
	return run_loop(perfbuf_poll_fn, pb, "perf buffer", opts);
}

int bsdk_perfbuf_drain(struct bsdk_perfbuf *pb, FILE *out)
{
	if (!pb)
		return log_fail(EINVAL, "perf buffer: nothing to drain");
	bsdk_perfbuf_consume(pb);
	return run_flush(out);
}
