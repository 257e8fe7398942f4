// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * http_guard.c - the metrics server's connections, kept from starving a
 * scrape: what libmicrohttpd (0.9.75) does not do by itself.
 *
 * Its timeout restarts on every byte, so a client that trickles a header
 * byte every few seconds is never closed; and a server whose slots are all
 * held stops accepting, so idle clients lock a scrape out. The guard knows
 * every connection (libmicrohttpd's connection notifications) and:
 *
 *   - gives a request HTTP_HEADER_DEADLINE_MS from its first byte (seen in
 *     the kernel's count of bytes received, TCP_INFO) to its last header,
 *     a new connection HTTP_FIRST_IDLE_MS to send anything, and an answer
 *     HTTP_ANSWER_DEADLINE_MS to go out: a thread of its own checks them;
 *   - lets a new client in when the server is full: of the client
 *     (address) that holds the most connections, the one not being
 *     answered whose request comes slowest (bytes a second: none for an
 *     idle one; the oldest of equals) is closed; and a client past
 *     HTTP_PER_CLIENT connections loses its own slowest (its oldest answer
 *     when all are answered), so one address cannot hold the slots of the
 *     others. A connection is left HTTP_GRACE_MS to send its request
 *     first, as long as HTTP_SPARE_CONNECTIONS more can be held; and a
 *     scraper's request, sent at once, comes faster than an attacker's:
 *     a scraper that connects is answered, whoever holds the slots.
 *
 * A connection is closed with shutdown(2): libmicrohttpd sees the end of
 * the stream, closes it and frees it as it does any other, in its thread.
 * The socket stays open until the guard has let the connection go (the
 * closed notification comes first), so the guard never touches a closed
 * descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "http/http_server.h"

struct http_conn {
	struct http_conn *prev, *next;
	struct http_guard *g;
	int fd;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	int64_t opened;		/* ms: connected */
	int64_t since;		/* ms: connected, or the previous answer out */
	int64_t first_byte;	/* ms: a byte of the next request seen; 0: none yet */
	uint64_t bytes_mark;	/* bytes received when the wait began */
	bool answering, closing, answered_once;
	int format;		/* the render the answer sends */
	uint64_t generation;
};

struct http_guard {
	pthread_mutex_t lock;
	struct http_conn *head;
	pthread_t thread;
	int stop[2];		/* a pipe: written to stop the thread */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The bytes the kernel received on fd; UINT64_MAX when it does not say (not TCP). */
static uint64_t bytes_received(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(ti.tcpi_bytes_received))
		return UINT64_MAX;
	return ti.tcpi_bytes_received;
}

static void conn_end(struct http_conn *c)
{
	if (c->closing)
		return;
	c->closing = true;
	shutdown(c->fd, SHUT_RDWR);
}

static bool same_client(const struct http_conn *a, const struct http_conn *b)
{
	if (a->addr.ss_family != b->addr.ss_family)
		return false;
	if (a->addr.ss_family == AF_INET)
		return ((const struct sockaddr_in *)&a->addr)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)&b->addr)->sin_addr.s_addr;
	if (a->addr.ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)&a->addr)->sin6_addr,
			       &((const struct sockaddr_in6 *)&b->addr)->sin6_addr,
			       sizeof(struct in6_addr));
	return true;	/* no address (a UNIX socket): one client */
}

/* The live connections of c's client. */
static size_t client_count(const struct http_guard *g, const struct http_conn *c)
{
	size_t n = 0;

	for (const struct http_conn *o = g->head; o; o = o->next)
		n += !o->closing && same_client(o, c);
	return n;
}

/* How fast a connection's request has come: bytes a second since it began to wait (0: it
 * sent nothing). A scraper sends its request at once; an idle or trickling client hardly. */
static uint64_t request_rate(const struct http_conn *o, int64_t now)
{
	uint64_t bytes = bytes_received(o->fd);

	if (bytes == UINT64_MAX || bytes < o->bytes_mark)
		return 0;
	return (bytes - o->bytes_mark) * 1000 / (uint64_t)(now - o->since + 1);
}

/* The connection of client (any when NULL) to close for newest, of those min_age ms old or
 * more: of those not being answered, the one whose request comes slowest, the oldest of
 * equals; when every one is being answered and answering is allowed, the oldest answer. */
static struct http_conn *victim(struct http_guard *g, const struct http_conn *client,
				const struct http_conn *newest, int64_t min_age, bool answering)
{
	struct http_conn *best = NULL;
	uint64_t best_rate = 0;
	int64_t now = now_ms();

	for (struct http_conn *o = g->head; o; o = o->next) {
		uint64_t rate;

		if (o == newest || o->closing || o->answering || now - o->opened < min_age ||
		    (client && !same_client(o, client)))
			continue;
		rate = request_rate(o, now);
		if (!best || rate < best_rate || (rate == best_rate && o->since < best->since))
			best = o, best_rate = rate;
	}
	for (struct http_conn *o = g->head; !best && answering && o; o = o->next)
		if (o != newest && !o->closing && now - o->opened >= min_age &&
		    same_client(o, client) && (!best || o->since < best->since))
			best = o;
	return best;
}

/* Room for newest: a slot of the server, and its client within its share. A connection
 * younger than HTTP_GRACE_MS has had no time to send its request, and is left alone while
 * there is room to spare below libmicrohttpd's own limit; past that, the slowest goes,
 * however young. */
static void make_room(struct http_guard *g, struct http_conn *newest)
{
	struct http_conn *v = NULL, *heavy = NULL;
	size_t live = 0, most = 0;

	/* a client past its share loses its own connection, even one being answered */
	if (client_count(g, newest) > HTTP_PER_CLIENT)
		v = victim(g, newest, newest, HTTP_GRACE_MS, true);
	for (struct http_conn *o = g->head; o && !v; o = o->next)
		live += !o->closing;
	if (!v && live > HTTP_MAX_CONNECTIONS) {
		/* the client holding the most loses its slowest idle connection */
		for (struct http_conn *o = g->head; o; o = o->next) {
			size_t n = o->closing || o->answering || o == newest ? 0 : client_count(g, o);

			if (n > most)
				most = n, heavy = o;
		}
		v = heavy ? victim(g, heavy, newest, HTTP_GRACE_MS, false) : NULL;
		if (!v)
			v = victim(g, NULL, newest, HTTP_GRACE_MS, false);
		if (!v && live > HTTP_MAX_CONNECTIONS + HTTP_SPARE_CONNECTIONS)
			v = victim(g, NULL, newest, 0, false);
	}
	if (v)
		conn_end(v);
}

struct http_conn *http_guard_open(struct http_guard *g, int fd, const struct sockaddr *addr,
				  socklen_t addrlen)
{
	struct http_conn *c = calloc(1, sizeof(*c));

	if (!c) {
		shutdown(fd, SHUT_RDWR);
		return NULL;
	}
	c->g = g;
	c->fd = fd;
	if (addr && addrlen <= sizeof(c->addr)) {
		memcpy(&c->addr, addr, addrlen);
		c->addrlen = addrlen;
	}
	c->opened = c->since = now_ms();
	c->bytes_mark = 0;
	pthread_mutex_lock(&g->lock);
	c->next = g->head;
	if (g->head)
		g->head->prev = c;
	g->head = c;
	make_room(g, c);
	pthread_mutex_unlock(&g->lock);
	return c;
}

void http_guard_close(struct http_conn *c)
{
	struct http_guard *g;

	if (!c)
		return;
	g = c->g;
	pthread_mutex_lock(&g->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		g->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&g->lock);
	free(c);
}

void http_guard_answering(struct http_conn *c, int format, uint64_t generation)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->g->lock);
	c->answering = true;
	c->format = format;
	c->generation = generation;
	c->since = now_ms();
	pthread_mutex_unlock(&c->g->lock);
}

void http_guard_answered(struct http_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->g->lock);
	c->answering = false;
	c->answered_once = true;
	c->since = now_ms();
	c->first_byte = 0;
	c->bytes_mark = bytes_received(c->fd);
	pthread_mutex_unlock(&c->g->lock);
}

void http_guard_drop_older(struct http_guard *g, int format, uint64_t generation)
{
	pthread_mutex_lock(&g->lock);
	for (struct http_conn *o = g->head; o; o = o->next)
		if (o->answering && o->format == format && o->generation < generation)
			conn_end(o);
	pthread_mutex_unlock(&g->lock);
}

/* One look at every connection's deadlines. */
static void check_deadlines(struct http_guard *g)
{
	int64_t now = now_ms();

	pthread_mutex_lock(&g->lock);
	for (struct http_conn *o = g->head; o; o = o->next) {
		uint64_t bytes;

		if (o->closing)
			continue;
		if (o->answering) {
			if (now - o->since > HTTP_ANSWER_DEADLINE_MS)
				conn_end(o);
			continue;
		}
		bytes = bytes_received(o->fd);
		if (!o->first_byte && bytes != o->bytes_mark)
			o->first_byte = now;
		if (o->first_byte && now - o->first_byte > HTTP_HEADER_DEADLINE_MS)
			conn_end(o);
		else if (!o->first_byte && !o->answered_once && now - o->since > HTTP_FIRST_IDLE_MS)
			conn_end(o);
	}
	pthread_mutex_unlock(&g->lock);
}

static void *guard_thread(void *arg)
{
	struct http_guard *g = arg;
	struct pollfd p = { .fd = g->stop[0], .events = POLLIN };

	/* a tenth of a second: a deadline is kept to within that */
	while (poll(&p, 1, 100) == 0 || (p.revents == 0))
		check_deadlines(g);
	return NULL;
}

struct http_guard *http_guard_new(void)
{
	struct http_guard *g = calloc(1, sizeof(*g));
	int err;

	if (!g)
		return NULL;
	if (pipe2(g->stop, O_CLOEXEC)) {
		err = errno;
		free(g);
		errno = err;
		return NULL;
	}
	pthread_mutex_init(&g->lock, NULL);
	err = pthread_create(&g->thread, NULL, guard_thread, g);
	if (err) {
		close(g->stop[0]);
		close(g->stop[1]);
		pthread_mutex_destroy(&g->lock);
		free(g);
		errno = err;
		return NULL;
	}
	return g;
}

void http_guard_free(struct http_guard *g)
{
	if (!g)
		return;
	if (write(g->stop[1], "x", 1) != 1)
		pthread_cancel(g->thread);
	pthread_join(g->thread, NULL);
	close(g->stop[0]);
	close(g->stop[1]);
	pthread_mutex_destroy(&g->lock);
	free(g);
}
