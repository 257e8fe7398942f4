/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * http_server.h - what the metrics server's files share (libbpfsdk-http
 * only, never installed): the connection guard (http_guard.c), which keeps
 * hostile clients from holding the server's slots, and the render cache
 * (http_cache.c), which lets every scrape of a window share one render.
 * Both are used from libmicrohttpd's one thread; the guard has a thread of
 * its own besides, for its deadlines.
 */
#ifndef BPFSDK_HTTP_SERVER_H
#define BPFSDK_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "bpfsdk.h"

/* The limits, documented in docs/metrics.md ("Limits"). */
#define HTTP_MAX_CONNECTIONS 32		/* a new client past it closes the oldest idle one */
#define HTTP_SPARE_CONNECTIONS 64	/* held past it while the newest are in their grace */
#define HTTP_GRACE_MS 1000		/* a new connection's time to send its request */
#define HTTP_HARD_CONNECTIONS 128	/* libmicrohttpd's own: room for those being closed */
#define HTTP_PER_CLIENT 16		/* connections of one address before its oldest goes */
#define HTTP_HEADER_DEADLINE_MS 5000	/* first byte of a request to its last header */
#define HTTP_FIRST_IDLE_MS 10000	/* a new connection that sends nothing */
#define HTTP_KEEPALIVE_IDLE_S 90	/* silence between requests of a kept connection */
#define HTTP_ANSWER_DEADLINE_MS 60000	/* headers in to the last byte of the answer out */
#define HTTP_CONNECTION_MEMORY (32 * 1024)	/* request line and headers must fit */
#define HTTP_RENDER_LIFETIME_MS 1000	/* a render serves every scrape this long */
#define HTTP_RENDER_GENERATIONS 3	/* renders of a format kept for slow readers */

/* ---- answers */

/* Queue a plain-text answer of status to c: text is static (not copied); allow, when given,
 * the Allow header of a 405; realm, for a 401, the basic-auth challenge's realm. */
enum MHD_Result http_reply(struct MHD_Connection *c, unsigned int status, const char *text,
			   const char *allow, const char *realm);

/* ---- the connection guard */

struct http_guard;
struct http_conn;

/* The guard and its deadline thread: NULL with errno. */
struct http_guard *http_guard_new(void);
/* Stop the thread and free the guard; every connection must be gone (after MHD_stop_daemon). */
void http_guard_free(struct http_guard *g);

/* A connection accepted on fd from addr: tracked from now on, and, when the server or this
 * client holds too many, the oldest idle one of the client with the most closed. NULL (and
 * the connection is closed) when out of memory. */
struct http_conn *http_guard_open(struct http_guard *g, int fd, const struct sockaddr *addr,
				  socklen_t addrlen);
void http_guard_close(struct http_conn *c);
/* The request's headers are in: no header deadline until the answer is out. */
void http_guard_answering(struct http_conn *c, int format, uint64_t generation);
/* The answer is out: the connection waits for its next request. */
void http_guard_answered(struct http_conn *c);
/* Close the connections still sending a render of format older than generation. */
void http_guard_drop_older(struct http_guard *g, int format, uint64_t generation);

/* ---- the render cache */

/* One render's bytes, shared by every answer that sends them. */
struct http_buf {
	int refs;		/* atomic: the cache's and each answer's */
	size_t len;
	char *data;
};

void http_buf_unref(void *buf);	/* an MHD_ContentReaderFreeCallback */

struct http_cache;

struct http_cache *http_cache_new(struct bsdk_metrics *m, struct http_guard *g);
void http_cache_free(struct http_cache *c);

/* The text of format (0: 0.0.4, 1: OpenMetrics), gzipped when gz, from the render of this
 * window (made now when there is none), with a reference for the caller, and its generation;
 * NULL with errno when the render or the compression failed. */
struct http_buf *http_cache_get(struct http_cache *c, int format, bool gz,
				uint64_t *generation);

/* Renders and compressions made since the start, for the bench. */
void http_cache_counts(const struct http_cache *c, uint64_t *renders, uint64_t *gzips);

#endif /* BPFSDK_HTTP_SERVER_H */
