/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk_http.h - a set of maps (struct bsdk_metrics, bpfsdk.h) served to
 * Prometheus at http://ADDR:PORT/metrics.
 *
 * The server is an archive of its own, libbpfsdk-http.a, because it needs
 * libmicrohttpd (and, in a static link, the TLS library under it), which
 * programs that do not serve metrics should not carry:
 *
 *	cc prog.c -lbpfsdk-http $(pkg-config --libs bpfsdk) -lmicrohttpd
 */
#ifndef BPFSDK_HTTP_H
#define BPFSDK_HTTP_H

#include "bpfsdk.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bsdk_metrics_server;

/* Serve m at http://ADDR:PORT/metrics on listen_fd (bsdk_metrics_listen(); the server owns it
 * from here, also on failure) from a thread of its own, until bsdk_metrics_server_stop(). GET
 * and HEAD of /metrics render m, in OpenMetrics when the request's Accept asks for
 * application/openmetrics-text; other paths get 404, other methods 405, a render that fails
 * 500. At most 32 connections, 32 KiB of request line and headers each (a longer request is
 * refused), and 10 s of silence before a connection is closed. NULL with errno: EINVAL for a
 * bad m or a descriptor that is no socket, ENOMEM, what libmicrohttpd failed with. */
struct bsdk_metrics_server *bsdk_metrics_serve(struct bsdk_metrics *m, int listen_fd);

/* The port the server listens on; -EINVAL for NULL. */
int bsdk_metrics_server_port(const struct bsdk_metrics_server *s);

/* Close the listening socket and every connection, wait for a render under way to end, and
 * free s; NULL is ignored. */
void bsdk_metrics_server_stop(struct bsdk_metrics_server *s);

#ifdef __cplusplus
}
#endif
#endif /* BPFSDK_HTTP_H */
