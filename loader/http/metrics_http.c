// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_http.c - GET /metrics over HTTP, with libmicrohttpd: a set of
 * maps (readers/metrics/metrics_set.c) served to Prometheus, on a socket that
 * bsdk_metrics_listen() opened.
 *
 * This file alone is libbpfsdk-http.a, built on the library's public API
 * only: libmicrohttpd (and, linked statically, the TLS library under it)
 * is brought in by the programs that serve metrics - the bpfsdk tool and
 * runqlat - and never by the library itself.
 *
 * libmicrohttpd parses the requests and runs its own thread, which renders
 * each scrape; the program's thread, which reads records, never waits for
 * it. Connections are bounded (count, memory per connection, which bounds
 * the request line and headers, and an idle timeout, which ends a client
 * that connects and sends nothing).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

#include "http/bpfsdk_http.h"

#define MAX_CONNECTIONS 32
#define IDLE_TIMEOUT_S 10
#define CONNECTION_MEMORY (32 * 1024)	/* request line and headers must fit */

struct bsdk_metrics_server {
	struct bsdk_metrics *metrics;
	struct MHD_Daemon *daemon;
	int port;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *text,
			     const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								  MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **state)
{
	struct bsdk_metrics_server *s = cls;
	const char *accept;
	struct MHD_Response *r;
	enum MHD_Result ret;
	unsigned int flags = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics is served\n",
			     "GET, HEAD");
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "not found: metrics are at /metrics\n", NULL);
	/* OpenMetrics only for a scraper that asks for it */
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	if (accept && strstr(accept, "application/openmetrics-text"))
		flags |= BSDK_METRICS_OPENMETRICS;
	f = open_memstream(&text, &len);
	if (!f)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	if (bsdk_metrics_render(s->metrics, flags, f)) {
		fclose(f);
		free(text);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "cannot read the maps: see the exporter's log\n", NULL);
	}
	if (fclose(f)) {
		free(text);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	}
	r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				flags ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				      : "text/plain; version=0.0.4; charset=utf-8");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

struct bsdk_metrics_server *bsdk_metrics_serve(struct bsdk_metrics *m, int listen_fd)
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
	if (!s) {
		close(listen_fd);
		errno = ENOMEM;
		return NULL;
	}
	s->metrics = m;
	s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						 : ((struct sockaddr_in *)&ss)->sin_port);
	errno = 0;
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
				     (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				     0, NULL, NULL, on_request, s,
				     MHD_OPTION_LISTEN_SOCKET, listen_fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_TIMEOUT_S,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
				     MHD_OPTION_END);
	if (!s->daemon) {
		err = errno ? errno : ENOMEM;
		/* the socket is ours again when the daemon did not start */
		if (fcntl(listen_fd, F_GETFD) != -1)
			close(listen_fd);
		free(s);
		errno = err;
		return NULL;
	}
	return s;
}

int bsdk_metrics_server_port(const struct bsdk_metrics_server *s)
{
	return s ? s->port : -EINVAL;
}

void bsdk_metrics_server_stop(struct bsdk_metrics_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->daemon);
	free(s);
}
