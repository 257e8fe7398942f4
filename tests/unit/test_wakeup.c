// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_wakeup.c - the policy that chooses between a wakeup per record (EAGER) and drains on a
 * timer (STREAM), driven with synthetic clocks and counts: no kernel, no sleeping.
 */
#include "object/object.h"
#include "rings/rings.h"
#include "check.h"

#define MS 1000000ull

/* Feed a steady stream of rate records/s for secs seconds: one drain per record in EAGER (the
 * kernel wakes us per record), one per period in STREAM. Returns the time reached. */
static uint64_t stream(struct wake_policy *p, const struct wake_cfg *c, uint64_t t, double rate,
		       double secs, uint64_t *drains)
{
	uint64_t end = t + (uint64_t)(secs * 1e9), gap = (uint64_t)(1e9 / rate);
	uint64_t carry = 0;

	while (t < end) {
		if (p->mode == WAKE_EAGER) {
			t += gap;
			wake_update(p, c, t, 1);
		} else {
			uint64_t n = (c->period_ns + carry) / gap;

			carry = (c->period_ns + carry) % gap;
			t += c->period_ns;
			wake_update(p, c, t, n);
		}
		(*drains)++;
	}
	return t;
}

int main(void)
{
	struct wake_cfg c;
	struct wake_policy p;
	uint64_t t = 1000 * MS, drains = 0;

	wake_cfg_init(&c, 2 * MS);
	check_u64(c.n_stream, 16, "2 ms period: 16 records in a window switch to STREAM (8,000/s)");
	check_u64(c.n_eager, 4, "2 ms period: fewer than 4 switch back (2,000/s)");
	wake_init(&p, t);
	check_i64(p.mode, WAKE_EAGER, "a new ring starts woken per record");

	/* 1,000 records/s stays EAGER: every record at once, 1,000 wakeups a second. */
	t = stream(&p, &c, t, 1000, 1, &drains);
	check_i64(p.mode, WAKE_EAGER, "1,000 records/s: still EAGER");
	check_u64(p.switches, 0, "1,000 records/s: never switched");

	/* A million a second: STREAM once EAGER's window (4 periods) has ended, not before. */
	check_u64(c.stream_window_ns, 8 * MS, "2 ms period: EAGER judged over 8 ms");
	{
		uint64_t t0 = p.window_start;

		check(!wake_update(&p, &c, t0 + 7 * MS, 1000), "1,000 records before the window ends: not yet");
		check_i64(p.mode, WAKE_EAGER, "still EAGER within the window");
		check(wake_update(&p, &c, t0 + 8 * MS, 1000), "the window ended at 250,000/s: switched");
		check_i64(p.mode, WAKE_STREAM, "now STREAM");
		t = t0 + 8 * MS;
	}
	drains = 0;
	t = stream(&p, &c, t, 1e6, 1, &drains);
	check_i64(p.mode, WAKE_STREAM, "1M records/s: stays STREAM");
	check(drains <= 501, "1M records/s: a drain per period, %llu drains in 1 s", (unsigned long long)drains);

	/* Extra drains within a window (another ring woke the consumer) do not count as a
	 * window: a few records each, yet the window as a whole is busy. */
	for (int i = 0; i < 10; i++)
		wake_update(&p, &c, t + (uint64_t)i * 100000, 2);
	check_i64(p.mode, WAKE_STREAM, "ten drains inside one window, 20 records: still STREAM");

	/* The producer stops: the first drain of an empty window sends us back to sleep. */
	t += 2 * MS;
	wake_update(&p, &c, t, 0);
	t += 2 * MS;
	check(wake_update(&p, &c, t, 0), "an empty window: switched back");
	check_i64(p.mode, WAKE_EAGER, "idle: EAGER, the kernel's wakeup will start the next drain");

	/* Between the thresholds (5,000/s) each mode keeps itself: no flapping. */
	{
		uint64_t sw = p.switches;

		t = stream(&p, &c, t, 5000, 1, &drains);
		check_i64(p.mode, WAKE_EAGER, "5,000/s from EAGER: stays EAGER");
		/* 100,000/s for one window: STREAM */
		t = stream(&p, &c, t, 100000, 0.02, &drains);
		check_i64(p.mode, WAKE_STREAM, "100,000/s for 20 ms: STREAM");
		t = stream(&p, &c, t, 5000, 1, &drains);
		check_i64(p.mode, WAKE_STREAM, "5,000/s from STREAM: stays STREAM");
		check_u64(p.switches - sw, 1, "one switch in two seconds at 5,000/s");
	}

	/* A late drain at a low rate: the consumer was kept off its CPU for 50 ms and finds the
	 * 50 records of a 1,000/s stream. That is a slow stream's backlog, not a fast stream:
	 * it stays woken per record, and a stream that was on the timer goes back to wakeups. */
	{
		uint64_t sw;

		t = stream(&p, &c, t, 100, 0.1, &drains);	/* 100/s: back to EAGER */
		check_i64(p.mode, WAKE_EAGER, "100/s: EAGER");
		sw = p.switches;
		check(!wake_update(&p, &c, t + 50 * MS, 50), "50 records in a drain 50 ms late: no switch");
		t = stream(&p, &c, t + 50 * MS, 1000, 0.5, &drains);
		check_i64(p.mode, WAKE_EAGER, "1,000/s with a late drain: still EAGER");
		check_u64(p.switches - sw, 0, "1,000/s with a late drain: never switched");
		/* A producer that catches up: 40 records at once after a stall, then 1,000/s. */
		wake_update(&p, &c, t + 40 * MS, 1);
		wake_update(&p, &c, t + 40 * MS + 1000, 39);
		t = stream(&p, &c, t + 40 * MS + 1000, 1000, 0.5, &drains);
		check_i64(p.mode, WAKE_EAGER, "a burst of 40 in a 1,000/s stream: still EAGER");
		check_u64(p.switches - sw, 0, "a burst of 40 in a 1,000/s stream: never switched");

		/* On the timer, a drain 20 ms late finds the 20 records of a stream that fell to
		 * 1,000/s: back to wakeups at once. */
		t = stream(&p, &c, t, 1e6, 0.02, &drains);
		check_i64(p.mode, WAKE_STREAM, "1M/s: STREAM");
		check(wake_update(&p, &c, t + 20 * MS, 20), "STREAM, a late drain of a 1,000/s stream: switched back");
		check_i64(p.mode, WAKE_EAGER, "EAGER again");
		t += 20 * MS;
	}

	/* A fast stream whose producer paused for a window goes back to the timer as soon as a
	 * period's worth of records has come, not after EAGER's whole window; the 40-record
	 * burst of a slow stream long after does not. */
	{
		t = stream(&p, &c, t, 1e6, 0.02, &drains);
		check_i64(p.mode, WAKE_STREAM, "1M/s again: STREAM");
		t += 2 * MS;
		check(wake_update(&p, &c, t, 0), "the producer paused for a window: EAGER");
		check(!wake_update(&p, &c, t + 100000, 10), "10 records: not yet");
		check(wake_update(&p, &c, t + 200000, 10), "a period's worth 0.2 ms after the pause: STREAM at once");
		check_i64(p.mode, WAKE_STREAM, "resumed: STREAM");
		t += 3 * MS;
		wake_update(&p, &c, t, 0);
		check_i64(p.mode, WAKE_EAGER, "paused again: EAGER");
		t = stream(&p, &c, t, 100, 0.1, &drains);
		wake_update(&p, &c, t + 1000, 1);
		check(!wake_update(&p, &c, t + 2000, 39), "a burst of 40, 100 ms after the pause: no switch");
		t = stream(&p, &c, t + 2000, 1000, 0.1, &drains);
		check_i64(p.mode, WAKE_EAGER, "the burst then 1,000/s: EAGER");
	}

	/* A ring too small for the timer: held EAGER for the hold time, whatever comes. */
	t += 8 * MS;
	wake_update(&p, &c, t + 1, 1000);
	check_i64(p.mode, WAKE_STREAM, "before the hold: 1,000 records in a window stream");
	wake_hold_eager(&p, t + 2, 1000 * MS);
	check_i64(p.mode, WAKE_EAGER, "held: EAGER at once");
	check(!wake_update(&p, &c, t + 500 * MS, 100000), "held: a flood does not switch");
	check_i64(p.mode, WAKE_EAGER, "held: still EAGER half-way");
	check(wake_update(&p, &c, t + 1001 * MS, 100000), "after the hold: the rate decides again");
	check_i64(p.mode, WAKE_STREAM, "after the hold: STREAM");
	t += 1001 * MS;

	/* The period a ring needs: a quarter of 2 MiB at 24 MB/s fills in ~22 ms, more
	 * than 5 ms: the base period. A quarter of 256 KiB fills in ~2.7 ms: that. A
	 * quarter of 16 KiB fills in 0.7 ms: no timer will do (0). */
	check_u64(wake_stream_period(5 * MS, 120000, 5 * MS, 2 << 20), 5 * MS,
		  "2 MiB at 24 MB/s: the base period");
	check_u64(wake_stream_period(5 * MS, 120000, 5 * MS, 256 << 10), 65536ull * 5 * MS / 120000,
		  "256 KiB at 24 MB/s: a quarter's fill time");
	check_u64(wake_stream_period(5 * MS, 120000, 5 * MS, 16 << 10), 0,
		  "16 KiB at 24 MB/s: too small for the timer");
	/* A drain 20 ms late found 4x the bytes: the same rate, the same answer. */
	check_u64(wake_stream_period(5 * MS, 480000, 20 * MS, 256 << 10), 65536ull * 5 * MS / 120000,
		  "a late drain judged by its rate");
	check_u64(wake_stream_period(5 * MS, 0, 5 * MS, 4096), 5 * MS, "nothing drained: the base period");

	/* A long period scales the thresholds; a tiny one keeps sane minimums. */
	wake_cfg_init(&c, 10 * MS);
	check_u64(c.n_stream, 80, "10 ms: 80 records");
	check_u64(c.n_eager, 20, "10 ms: 20 records");
	wake_cfg_init(&c, 100000);
	check_u64(c.n_stream, 4, "0.1 ms: at least 4 records");
	check_u64(c.n_eager, 1, "0.1 ms: at least 1 record");
	check(c.n_eager < c.n_stream, "thresholds stay apart");
	return check_done();
}
