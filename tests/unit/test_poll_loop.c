// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_poll_loop.c - the poll loop of bsdk_perfbuf_run()/bsdk_ringbuf_run() over a fake poll
 * function: each way a run ends (duration, signal, a closed output, a failed poll), EINTR
 * that is not a stop, and the drain's flush; bsdk_tally_report()'s lines and status, and
 * what bsdk_perfbuf_run_detach() and bsdk_perfbuf_run_report() refuse, bsdk_tally_check() and
 * bsdk_tally_bad(), and the exit status after a signal. No kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <signal.h>
#include <unistd.h>

#include "object/object.h"
#include "channel/channel.h"
#include "check.h"

struct fake {
	int calls;
	int max_wait;         /* the largest timeout the loop asked for */
	int fail_at;          /* return fail_err on this call (0: never) */
	int fail_err;
	int raise_at;         /* raise(SIGINT) on this call (0: never) */
	int eintr_at;         /* return -EINTR on this call, as a stray signal would */
	FILE *out;            /* printed to on every call */
};

static int fake_poll(void *buf, int timeout_ms)
{
	struct fake *f = buf;

	f->calls++;
	if (timeout_ms > f->max_wait)
		f->max_wait = timeout_ms;
	if (f->out)
		fprintf(f->out, "record %d\n", f->calls);
	if (f->calls == f->raise_at)
		raise(SIGINT);
	if (f->calls == f->eintr_at)
		return -EINTR;
	if (f->calls == f->fail_at)
		return f->fail_err;
	usleep(1000);
	return 1;
}

static char logged[256];

static void capture(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	snprintf(logged, sizeof(logged), "%s", msg);
}

static void test_report(void)
{
	struct bsdk_link *links[1] = { NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	check(f != NULL, "a memory stream");
	if (!f)
		return;
	struct { struct bsdk_tally r; int after; } ctx = { { 12, 10, 0, 0 }, 7 };

	bsdk_set_log_level(BSDK_LOG_INFO);	/* a tool's -v */
	bsdk_tally_lost(&ctx, 1, 2);
	bsdk_set_log_level(BSDK_LOG_WARN);
	check_u64(ctx.r.lost, 2, "on_lost counted");
	check_str(logged, "lost: cpu 1 dropped 2 records", "and said, for -v");
	check_i64(ctx.after, 7, "nothing past the counts touched");
	check_i64(bsdk_tally_report(f, &ctx.r), 0, "no bad records: status 0");
	check_i64(bsdk_tally_report(f, &(struct bsdk_tally){ 5, 4, 0, 3 }), 1,
		  "bad records: status 1");
	fclose(f);
	check_str(text, "received 12, shown 10, lost 2\n"
		  "received 5, shown 4, lost 0\nerror: 3 malformed records\n", "the lines");
	free(text);
	check_i64(bsdk_perfbuf_run_detach(NULL, NULL, links, 1), -EINVAL, "run_detach: NULL pb");

	struct bsdk_tally c = { 0 };

	check(bsdk_tally_check(&c, 0, 16, 16), "a record as long as the head");
	logged[0] = 0;
	for (int i = 0; i < 7; i++)
		check(!bsdk_tally_check(&c, 3, 7, 16), "a record shorter than the head (%d)", i);
	check_u64(c.received, 8, "every record counted as received");
	check_u64(c.bad, 7, "the short ones as bad");
	check_str(logged, "cpu 3: record of 7 bytes, shorter than the 16-byte head", "the warning");

	/* A record whole but inconsistent: counted, and said while fewer than five were. */
	struct bsdk_tally t = { .bad = 3 };

	logged[0] = 0;
	bsdk_tally_bad(&t, 2, "len %u does not fit a %u-byte record", 9000u, 64u);
	check_str(logged, "cpu 2: len 9000 does not fit a 64-byte record", "the fourth is said");
	bsdk_tally_bad(&t, 1, "kind %d", 7);
	check_str(logged, "cpu 1: kind 7", "so is the fifth");
	logged[0] = 0;
	bsdk_tally_bad(&t, 1, "kind %d", 8);
	check_str(logged, "", "the sixth is not");
	check_u64(t.bad, 6, "each counted as bad");

	/* The end in one call refuses what it cannot run, and reports nothing then. */
	errno = 0;
	check_i64(bsdk_perfbuf_run_report(NULL, 1, NULL, 0, &t), 1, "run_report: NULL pb is status 1");
	check_i64(errno, EINVAL, "with EINVAL");
	errno = 0;
	check_i64(bsdk_perfbuf_run_report(NULL, 1, NULL, 0, NULL), 1, "NULL counts too");
	check_i64(errno, EINVAL, "with EINVAL");
}

int main(void)
{
	struct bsdk_run_opts o = { .sz = sizeof(o) };
	struct fake f;
	int fds[2], ret;
	FILE *w;

	bsdk_set_log(capture, NULL);

	/* A duration ends the run; no wait asks for more than poll_ms. The
	 * first call is the stray EINTR, and returns at once: a second call
	 * comes unless EINTR ended the run (the 0.2 s allow for a loaded
	 * machine or an emulated one). */
	f = (struct fake){ .eintr_at = 1 };
	o.duration = 0.2;
	o.poll_ms = 5;
	ret = run_loop(fake_poll, &f, "fake", &o);
	check_i64(ret, BSDK_RUN_DURATION, "a duration ends the run");
	check(f.calls >= 2, "it polled past a stray EINTR (%d calls)", f.calls);
	check(f.max_wait <= 5, "no wait longer than poll_ms (%d)", f.max_wait);

	/* A failed poll is an error, logged with what was read. */
	f = (struct fake){ .fail_at = 3, .fail_err = -EBADF };
	o.duration = 0;
	ret = run_loop(fake_poll, &f, "fake buffer", &o);
	check_i64(ret, -EBADF, "a failed poll is returned");
	check_i64(f.calls, 3, "the run ended at the failed poll");
	check_str(logged, "reading the fake buffer: Bad file descriptor", "the failure is logged");

	/* The reader of the output goes away: EPIPE ends the run quietly. */
	if (pipe(fds))
		return check(0, "pipe: %s", strerror(errno)), check_done();
	w = fdopen(fds[1], "w");
	close(fds[0]);
	check_i64(bsdk_signals_catch(), 0, "signals caught");	/* SIGPIPE ignored too */
	logged[0] = 0;
	f = (struct fake){ .out = w };
	o.out = w;
	ret = run_loop(fake_poll, &f, "fake", &o);
	check_i64(ret, BSDK_RUN_CLOSED, "a closed output ends the run");
	check_i64(f.calls, 1, "at the first flush after it closed");
	check_str(logged, "", "nothing is logged for a closed output");
	check_i64(run_flush(w), 0, "nothing left to flush: 0");
	fprintf(w, "more\n");
	check_i64(run_flush(w), BSDK_RUN_CLOSED, "a drain's flush says closed too");
	fclose(w);
	check_i64(run_flush(NULL), 0, "no output: nothing to flush");
	o.out = NULL;

	/* A signal ends the run and is remembered. */
	check_i64(bsdk_signals_caught(), 0, "no signal yet");
	check_i64(bsdk_signals_exit_status(1), 1, "a failure without a signal keeps its status");
	f = (struct fake){ .raise_at = 2 };
	ret = run_loop(fake_poll, &f, "fake", &o);
	check_i64(ret, BSDK_RUN_SIGNAL, "SIGINT ends the run");
	check_i64(f.calls, 2, "right after the poll it came in");
	check_i64(bsdk_signals_caught(), SIGINT, "the signal is SIGINT");
	check_i64(bsdk_signals_exit_status(1), 130, "a failure after SIGINT: 130");
	check_i64(bsdk_signals_exit_status(0), 0, "success stays success");
	f = (struct fake){ 0 };
	check_i64(run_loop(fake_poll, &f, "fake", NULL), BSDK_RUN_SIGNAL,
		  "a later run ends at once");
	check_i64(f.calls, 0, "without polling");

	/* Bad arguments. */
	check_i64(bsdk_perfbuf_run(NULL, &o), -EINVAL, "NULL perf buffer");
	check_i64(bsdk_ringbuf_run(NULL, &o), -EINVAL, "NULL ring buffer");
	check_i64(bsdk_perfbuf_drain(NULL, NULL), -EINVAL, "NULL perf buffer to drain");
	o.sz = 4;
	check_i64(run_loop(fake_poll, &f, "fake", &o), -EINVAL, "opts.sz too small");
	test_report();
	return check_done();
}
