// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * wakeup.c - when a consumer should be woken by the kernel for each record, and when it should
 * let records collect and drain them on a timer. Pure arithmetic on timestamps and counts, so
 * that it is unit-tested without a kernel (tests/unit/test_wakeup.c); perf_wake.c and ringbuf.c
 * turn its answer into what the kernel sees (a map slot, a published consumer_pos).
 *
 * A wakeup per record costs the producing CPU an interrupt and the consumer a context switch:
 * nothing at a thousand records a second, everything at a million. A timer costs a wakeup per
 * period whatever the rate: nothing at a million, and it leaves a quiet stream waiting up to a
 * period. So: be woken per record while records are rare (EAGER), drain on the timer while they
 * are many (STREAM), and judge "many" by the rate over a window of several periods, so that
 * neither the number of extra drains (another ring woke the consumer) nor a burst matters: at a
 * low rate no record waits for the timer. The two thresholds are apart, so a
 * rate between them keeps whichever mode it has: no flapping at a steady rate.
 */
#include "rings/rings.h"

/* Records per second above which a wakeup per record costs more than the timer (switch to
 * STREAM), and below which the timer's latency is not worth its saving (back to EAGER). At 8,000
 * records/s a wakeup per record costs the consumer a few per cent of a CPU. */
#define STREAM_ABOVE_PER_S 8000
#define EAGER_BELOW_PER_S  2000
/* Periods a rate must last before the timer takes over from wakeups. */
#define STREAM_JUDGE_PERIODS 4

void wake_cfg_init(struct wake_cfg *c, uint64_t period_ns)
{
	c->period_ns = period_ns;
	c->n_stream = (STREAM_ABOVE_PER_S * period_ns + 999999999) / 1000000000;
	c->n_eager = (EAGER_BELOW_PER_S * period_ns + 999999999) / 1000000000;
	if (c->n_stream < 4)
		c->n_stream = 4;
	if (c->n_eager < 1)
		c->n_eager = 1;
	if (c->n_eager >= c->n_stream)
		c->n_eager = c->n_stream / 2;
	c->stream_window_ns = STREAM_JUDGE_PERIODS * period_ns;
}

void wake_init(struct wake_policy *p, uint64_t now)
{
	memset(p, 0, sizeof(*p));
	p->mode = WAKE_EAGER;
	p->window_start = now;
}

void wake_hold_eager(struct wake_policy *p, uint64_t now, uint64_t hold_ns)
{
	if (p->mode != WAKE_EAGER)
		p->switches++;
	p->mode = WAKE_EAGER;
	p->window_start = now;
	p->window_n = 0;
	p->hold_until = now + hold_ns;
}

/* Whether n records over elapsed ns come at least at the rate that n_per_period records in one
 * period make. */
static bool rate_at_least(uint64_t n, uint64_t elapsed, uint64_t n_per_period, uint64_t period)
{
	return (double)n * (double)period >= (double)n_per_period * (double)elapsed;
}

bool wake_update(struct wake_policy *p, const struct wake_cfg *c, uint64_t now, uint64_t n)
{
	uint64_t elapsed = now - p->window_start;

	/* Held: the ring is too small to let a period's records collect in it. */
	if (now < p->hold_until)
		return false;

	/* The records of this drain came during the window: count them first. A window is judged
	 * once it has ended, by its rate over its whole length: a drain that came late (the
	 * consumer was kept off its CPU) finds the backlog of a slow stream, which is not a fast
	 * one. */
	p->window_n += n;
	if (p->mode == WAKE_STREAM) {
		/* A window that brought too few sends the consumer back to sleep on the kernel;
		 * a producer that stopped brings 0. */
		if (elapsed < c->period_ns)
			return false;
		if (rate_at_least(p->window_n, elapsed, c->n_eager, c->period_ns)) {
			p->window_start = now;
			p->window_n = 0;
			return false;
		}
		p->mode = WAKE_EAGER;
		p->left_stream = now;
	} else {
		/* Judged over stream_window_ns, several periods: a burst (a producer that
		 * catches up, a late drain) must not leave a slow stream waiting for the timer;
		 * a fast one pays wakeups a little longer, which at that rate are batched. A
		 * stream that left the timer less than that window ago (its producer paused)
		 * goes back as soon as a period's worth of records has come within a period: no
		 * slow stream brings that many so soon. */
		bool resumed = p->left_stream && now - p->left_stream < c->stream_window_ns &&
			       p->window_n >= c->n_stream &&
			       rate_at_least(p->window_n, elapsed, c->n_stream, c->period_ns);

		if (!resumed && elapsed < c->stream_window_ns)
			return false;
		if (!resumed && !rate_at_least(p->window_n, elapsed, c->n_stream, c->period_ns)) {
			p->window_start = now;
			p->window_n = 0;
			return false;
		}
		p->mode = WAKE_STREAM;
	}
	p->window_start = now;
	p->window_n = 0;
	p->switches++;
	return true;
}

uint64_t wake_stream_period(uint64_t base, uint64_t bytes, uint64_t elapsed, uint64_t size)
{
	double fill_ns;

	if (!bytes || !elapsed)
		return base;
	/* A late drain is judged by its rate, not by the backlog its lateness let pile up. */
	fill_ns = (double)(size / 4) * (double)elapsed / (double)bytes;
	if (fill_ns >= (double)base)
		return base;
	return fill_ns < (double)WAKE_MIN_PERIOD_NS ? 0 : (uint64_t)fill_ns;
}
