// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * drain.c - what perfbuf.c and ringbuf.c share: the map check, and the
 * loop that waits on epoll and, while a ring is streaming (wakeup.c),
 * drains every max_latency_ms.
 */
#include <sys/epoll.h>
#include <time.h>

#include "channel/channel.h"

/* Milliseconds until t, rounded up: waking a little late is fine, early is
 * a wasted pass. 0 once t has passed. */
static int ms_until(uint64_t t)
{
	uint64_t now = now_ns();

	return now >= t ? 0 : (int)((t - now + 999999) / 1000000);
}

int map_check(int map_fd, uint32_t type, const char *type_name,
	      const char *who, struct bpf_map_info *info)
{
	int err;

	/* bsdk_map_fd() of a map the object lacks, or of one not loaded yet */
	if (map_fd < 0)
		return log_fail(EBADF, "%s: no map to read (fd %d): the object lacks it, or is not loaded",
				who, map_fd);
	err = bpf_map_get_info(map_fd, info);
	if (err < 0)
		return log_fail(-err, "%s: map fd %d: cannot get map info: %s", who, map_fd, bsdk_strerror(err));
	if (info->type != type)
		return log_fail(EINVAL, "%s: map '%s' (fd %d) has type %u, not %s",
				who, info->name, map_fd, info->type, type_name);
	return 0;
}

int drain_init(struct drain *d, const char *who, int *max_latency_ms)
{
	if (*max_latency_ms == 0)
		*max_latency_ms = DEFAULT_MAX_LATENCY_MS;
	d->who = who;
	d->period_ns = *max_latency_ms > 0 ?
		(uint64_t)*max_latency_ms * 1000000ull : 0;
	d->last_ns = now_ns();
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->epfd < 0)
		return log_fail(errno, "%s: epoll_create1 failed: %s%s", who, bsdk_strerror(errno),
				errno == EMFILE ? " (" FD_LIMIT_HINT ")" : "");
	return 0;
}

int drain_timeout_ms(const struct drain *d)
{
	if (d->streaming && d->period_ns)
		return ms_until(d->last_ns + d->period_ns);
	return d->idle_ns ? ms_until(d->last_ns + d->idle_ns) : -1;
}

int drain_poll(struct drain *d, struct epoll_event *events, int nevents,
	       int timeout_ms, int (*consume)(void *owner), void *owner)
{
	uint64_t deadline = timeout_ms > 0 ?
		now_ns() + (uint64_t)timeout_ms * 1000000ull : 0;

	for (;;) {
		int wait = timeout_ms <= 0 ? timeout_ms : ms_until(deadline);
		int drain = drain_timeout_ms(d), n, cnt;

		if (drain >= 0 && (wait < 0 || drain < wait))
			wait = drain;
		n = epoll_wait(d->epfd, events, nevents, wait);
		if (n < 0 && errno == EINTR)
			return fail(EINTR);
		if (n < 0)
			return log_fail(errno, "%s: epoll_wait failed: %s", d->who,
					bsdk_strerror(errno));
		if (n > 0)
			d->wakeups++;
		/* Whichever fd woke us, take what every ring has: one batch
		 * across CPUs instead of one wakeup per CPU. */
		cnt = consume(owner);
		if (cnt != 0 || timeout_ms == 0)
			return cnt;
		if (timeout_ms > 0 && now_ns() >= deadline)
			return 0;
	}
}
