// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_http.c - GET /metrics over HTTP, with libmicrohttpd: a set of
 * maps (readers/metrics/metrics_set.c) served to Prometheus, on a socket that
 * bsdk_metrics_listen() opened.
 *
 * This file, http_guard.c, http_cache.c, http_reply.c and web_*.c are
 * libbpfsdk-http.a, built on the library's public API only: libmicrohttpd and zlib (and, linked
 * statically, the TLS library under libmicrohttpd) are brought in by the
 * programs that serve metrics - the bpfsdk tool and runqlat - and never by
 * the library itself.
 *
 * libmicrohttpd parses the requests and runs its own thread, which answers
 * them; the program's thread, which reads records, never waits for it. A
 * render serves every scrape of its window (http_cache.c), so renders are
 * at most one per window and format, one at a time. Connections are
 * bounded in count, per client, in memory (which bounds the request line
 * and headers) and in time, and a new client is let in when the slots are
 * held (http_guard.c). An answer is queued once its request is complete,
 * so that keep-alive and pipelining work; an HTTP/1.1 request without
 * Host: is refused by libmicrohttpd (400), as its strict mode does.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

#include "http/bpfsdk_http.h"
#include "http/http_server.h"
#include "http/web_config.h"

struct bsdk_metrics_server {
	struct bsdk_metrics *metrics;
	struct MHD_Daemon *daemon;
	struct http_guard *guard;
	struct http_cache *cache;
	int port;
	const struct bsdk_web_config *web;	/* TLS, basic auth: NULL without */
};

/* What a connection knows of its request between libmicrohttpd's calls. */
struct conn_state {
	struct http_conn *guard;
	bool path_ok;		/* the path, decoded, is exactly /metrics */
	bool headers_in;	/* the handler saw the headers: the next call answers */
};

static struct conn_state *state_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct bsdk_metrics_server *s = cls;
	struct conn_state *cs = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *addr =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		const struct sockaddr *sa = addr ? addr->client_addr : NULL;
		/* libmicrohttpd holds the address in as many bytes as its family needs */
		socklen_t len = !sa ? 0 : sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
				sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
				sizeof(sa->sa_family);

		cs = calloc(1, sizeof(*cs));
		if (cs && fd)
			cs->guard = http_guard_open(s->guard, fd->connect_fd, sa, len);
		else if (fd)
			shutdown(fd->connect_fd, SHUT_RDWR);	/* out of memory: not served */
		*socket_context = cs;
		return;
	}
	if (cs) {
		http_guard_close(cs->guard);
		free(cs);
	}
	*socket_context = NULL;
}

/* The request line is in: its path checked before libmicrohttpd decodes it in place, where
 * a %00 would end the string early. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct conn_state *cs = state_of(c);
	size_t n = strcspn(uri, "?");
	char path[64];

	if (!cs)
		return NULL;
	cs->headers_in = false;
	cs->path_ok = false;
	if (n < sizeof(path)) {
		memcpy(path, uri, n);
		path[n] = '\0';
		/* MHD_http_unescape() returns the decoded length, a NUL included */
		cs->path_ok = MHD_http_unescape(path) == 8 && !memcmp(path, "/metrics", 8);
	}
	return cs;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req,
			 enum MHD_RequestTerminationCode code)
{
	struct conn_state *cs = state_of(c);

	if (cs)
		http_guard_answered(cs->guard);
}

/* Whether an Accept-Encoding value takes gzip: the token, without q=0. */
static bool takes_gzip(const char *ae)
{
	for (const char *p = ae; p && (p = strcasestr(p, "gzip")); p += 4) {
		const char *end = p + 4, *q;

		if ((p != ae && !strchr(" ,\t", p[-1])) || (*end && !strchr(" ,;\t", *end)))
			continue;
		q = end + strspn(end, " \t");
		if (*q != ';')
			return true;
		q = strcasestr(q, "q=");
		return !q || strtod(q + 2, NULL) > 0;
	}
	return false;
}

static enum MHD_Result answer(struct bsdk_metrics_server *s, struct MHD_Connection *c,
			      struct conn_state *cs)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	const char *ae = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						     MHD_HTTP_HEADER_ACCEPT_ENCODING);
	/* OpenMetrics only for a scraper that asks for it */
	int om = accept && strstr(accept, "application/openmetrics-text");
	bool gz = takes_gzip(ae);
	struct MHD_Response *r;
	struct http_buf *b;
	uint64_t generation = 0;
	enum MHD_Result ret;

	b = http_cache_get(s->cache, om, gz, &generation);
	if (!b)
		return http_reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  errno == ENOMEM ? "out of memory\n"
						  : "cannot read the maps: see the exporter's log\n",
				  NULL, NULL);
	http_guard_answering(cs ? cs->guard : NULL, om, generation);
	r = MHD_create_response_from_buffer_with_free_callback_cls(b->len, b->data,
								   http_buf_unref, b);
	if (!r) {
		http_buf_unref(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				   : "text/plain; version=0.0.4; charset=utf-8");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **req)
{
	struct bsdk_metrics_server *s = cls;
	struct conn_state *cs = *req;
	enum MHD_Result ret;

	/* the headers are in: answer once the request is (a body is read and ignored) */
	if (cs && !cs->headers_in) {
		cs->headers_in = true;
		http_guard_answering(cs->guard, -1, 0);
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (!web_config_allow(s->web, c, &ret))
		return ret;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return http_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics is served\n",
				  "GET, HEAD", NULL);
	if (!cs || !cs->path_ok)
		return http_reply(c, MHD_HTTP_NOT_FOUND, "not found: metrics are at /metrics\n",
				  NULL, NULL);
	return answer(s, c, cs);
}

static void server_free(struct bsdk_metrics_server *s)
{
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	http_cache_free(s->cache);
	http_guard_free(s->guard);
	free(s);
}

static struct MHD_Daemon *start_daemon(struct bsdk_metrics_server *s, int listen_fd, int family)
{
	return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
				(family == AF_INET6 ? MHD_USE_IPv6 : 0) |
				web_config_mhd_flags(s->web),
				0, NULL, NULL, on_request, s,
				MHD_OPTION_LISTEN_SOCKET, listen_fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTP_HARD_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTP_KEEPALIVE_IDLE_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONNECTION_MEMORY,
				MHD_OPTION_STRICT_FOR_CLIENT, 1,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
				MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				MHD_OPTION_ARRAY, web_config_mhd_options(s->web),
				MHD_OPTION_END);
}

struct bsdk_metrics_server *bsdk_metrics_serve(struct bsdk_metrics *m, int listen_fd)
{
	return bsdk_metrics_serve_web(m, listen_fd, NULL);
}

static struct bsdk_metrics_server *serve_web(struct bsdk_metrics *m, int listen_fd,
					     const struct bsdk_web_config *web)
{
	struct bsdk_metrics_server *s;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int err;

	if (!m || listen_fd < 0 || getsockname(listen_fd, (struct sockaddr *)&ss, &len)) {
		if (listen_fd >= 0)
			close(listen_fd);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->guard = http_guard_new()) || !(s->cache = http_cache_new(m, s->guard))) {
		err = errno ? errno : ENOMEM;
		if (s)
			server_free(s);
		close(listen_fd);
		errno = err;
		return NULL;
	}
	s->metrics = m;
	s->web = web;
	s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						 : ((struct sockaddr_in *)&ss)->sin_port);
	errno = 0;
	s->daemon = start_daemon(s, listen_fd, ss.ss_family);
	if (!s->daemon) {
		err = errno ? errno : ENOMEM;
		/* the socket is ours again when the daemon did not start */
		if (fcntl(listen_fd, F_GETFD) != -1)
			close(listen_fd);
		server_free(s);
		errno = err;
		return NULL;
	}
	return s;
}

struct bsdk_metrics_server *bsdk_metrics_serve_web(struct bsdk_metrics *m, int listen_fd,
						   const struct bsdk_web_config *web)
{
	struct bsdk_metrics_server *s;
	sigset_t all, old;
	int err;

	/* The server's threads (libmicrohttpd's, the guard's) are started with every signal
	 * blocked, and keep them so: a SIGTERM that one of them took would run the program's
	 * handler there and leave the program's thread asleep in its wait for records, which
	 * the signal was to end (a run under an idle flood did not stop in ten minutes). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	s = serve_web(m, listen_fd, web);
	err = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return s;
}

int bsdk_metrics_server_port(const struct bsdk_metrics_server *s)
{
	return s ? s->port : -EINVAL;
}

int bsdk_metrics_server_renders(const struct bsdk_metrics_server *s, uint64_t *renders,
				uint64_t *gzips)
{
	if (!s || !renders || !gzips)
		return -EINVAL;
	http_cache_counts(s->cache, renders, gzips);
	return 0;
}

void bsdk_metrics_server_stop(struct bsdk_metrics_server *s)
{
	if (!s)
		return;
	server_free(s);
}
