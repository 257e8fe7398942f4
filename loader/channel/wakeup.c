// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * wakeup.c - when a consumer should be woken by the kernel for each record, and when it should
 * let records collect and drain them on a timer. Pure arithmetic on timestamps and counts, so
 * that it is unit-tested without a kernel (tests/unit/test_wakeup.c); perfbuf.c and ringbuf.c
 * turn its answer into what the kernel sees (a map slot, a published consumer_pos).
 *
 * A wakeup per record costs the producing CPU an interrupt and the consumer a context switch:
 * nothing at a thousand records a second, everything at a million. A timer costs a wakeup per
 * period whatever the rate: nothing at a million, and it leaves a quiet stream waiting up to a
 * period. So: be woken per record while records are rare (EAGER), drain on the timer while they
 * are many (STREAM), and judge "many" over windows of one period so that the number of extra
 * drains (another ring woke the consumer) does not matter. The two thresholds are apart, so a
 * rate between them keeps whichever mode it has: no flapping at a steady rate.
 */
#include "channel/channel.h"

/* Records per second above which a wakeup per record costs more than the timer (switch to
 * STREAM), and below which the timer's latency is not worth its saving (back to EAGER). At 8,000
 * records/s a wakeup per record costs the consumer a few per cent of a CPU. */
#define STREAM_ABOVE_PER_S 8000
#define EAGER_BELOW_PER_S  2000

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

bool wake_update(struct wake_policy *p, const struct wake_cfg *c, uint64_t now, uint64_t n)
{
	bool ended = now - p->window_start >= c->period_ns;

	/* Held: the ring is too small to let a period's records collect in it. */
	if (now < p->hold_until)
		return false;

	if (p->mode == WAKE_STREAM) {
		/* The records of this drain came during the window: count them first. A window
		 * that ended must have brought enough to go on streaming; a producer that
		 * stopped brings 0 and sends the consumer back to sleep on the kernel. */
		p->window_n += n;
		if (!ended)
			return false;
		p->window_start = now;
		if (p->window_n >= c->n_eager) {
			p->window_n = 0;
			return false;
		}
		p->window_n = 0;
		p->mode = WAKE_EAGER;
	} else {
		if (ended) {
			p->window_start = now;
			p->window_n = 0;
		}
		p->window_n += n;
		if (p->window_n < c->n_stream)
			return false;
		p->window_start = now;
		p->window_n = 0;
		p->mode = WAKE_STREAM;
	}
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
