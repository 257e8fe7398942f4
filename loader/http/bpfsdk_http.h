/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk_http.h - a set of maps (struct bsdk_metrics, bpfsdk.h) served to
 * Prometheus at http://ADDR:PORT/metrics.
 *
 * The server is an archive of its own, libbpfsdk-http.a, because it needs
 * libmicrohttpd and zlib (and, in a static link, the TLS library under it), which
 * programs that do not serve metrics should not carry:
 *
 *	cc prog.c -lbpfsdk-http $(pkg-config --libs bpfsdk) -lmicrohttpd -lz
 */
#ifndef BPFSDK_HTTP_H
#define BPFSDK_HTTP_H

#include "bpfsdk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Built with -fvisibility=hidden, as the library: what this header declares is the archive's
 * API, the rest stays inside it. */
#pragma GCC visibility push(default)

struct bsdk_metrics_server;

/* Serve m at http://ADDR:PORT/metrics on listen_fd (bsdk_metrics_listen(); the server owns it
 * from here, also on failure) from a thread of its own, until bsdk_metrics_server_stop(). GET
 * and HEAD of exactly /metrics render m, in OpenMetrics when the request's Accept asks for
 * application/openmetrics-text, gzipped when its Accept-Encoding takes gzip; other paths get
 * 404, other methods 405, HTTP/1.1 without Host: 400, a render that fails 500. A render serves
 * every scrape for 1 s (one read of the maps however many scrape). Connections are kept alive
 * between requests; at most 32 are served, 16 per client address, and a new client past either
 * closes the idle one whose request comes slowest (after its first second); a request has 5 s from its first byte to its last header (32 KiB
 * at most, a longer one is refused), a new connection 10 s to send one, an answer 60 s to go
 * out, and a kept connection 90 s of silence. docs/metrics.md has the details. NULL with
 * errno: EINVAL for a bad m or a descriptor that is no socket, ENOMEM, what libmicrohttpd or
 * pthread_create() failed with. */
struct bsdk_metrics_server *bsdk_metrics_serve(struct bsdk_metrics *m, int listen_fd);

/* The port the server listens on; -EINVAL for NULL. */
int bsdk_metrics_server_port(const struct bsdk_metrics_server *s);

/* The renders of m the server made since it started, and their gzip compressions: 0, or
 * -EINVAL for NULL. */
int bsdk_metrics_server_renders(const struct bsdk_metrics_server *s, uint64_t *renders,
				uint64_t *gzips);

/* Close the listening socket and every connection, wait for a render under way to end, and
 * free s; NULL is ignored. */
void bsdk_metrics_server_stop(struct bsdk_metrics_server *s);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* BPFSDK_HTTP_H */
