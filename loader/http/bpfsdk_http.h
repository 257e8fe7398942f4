/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk_http.h - a set of maps (struct bsdk_metrics, bpfsdk.h) served to
 * Prometheus at http://ADDR:PORT/metrics.
 *
 * The server is an archive of its own, libbpfsdk-http.a, because it needs
 * libmicrohttpd (and, in a static link, the TLS library under it), which
 * programs that do not serve metrics should not carry:
 *
 *	cc prog.c -lbpfsdk-http $(pkg-config --libs bpfsdk) -lmicrohttpd -lgnutls -lyaml -lcrypt
 */
#ifndef BPFSDK_HTTP_H
#define BPFSDK_HTTP_H

#include "bpfsdk.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bsdk_metrics_server;
struct bsdk_web_config;

/* Serve m at http://ADDR:PORT/metrics on listen_fd (bsdk_metrics_listen(); the server owns it
 * from here, also on failure) from a thread of its own, until bsdk_metrics_server_stop(). GET
 * and HEAD of /metrics render m, in OpenMetrics when the request's Accept asks for
 * application/openmetrics-text; other paths get 404, other methods 405, a render that fails
 * 500. At most 32 connections, 32 KiB of request line and headers each (a longer request is
 * refused), and 10 s of silence before a connection is closed. NULL with errno: EINVAL for a
 * bad m or a descriptor that is no socket, ENOMEM, what libmicrohttpd failed with. */
struct bsdk_metrics_server *bsdk_metrics_serve(struct bsdk_metrics *m, int listen_fd);

/* Read a web configuration file, the YAML of Prometheus exporters (exporter-toolkit's, as
 * node_exporter's --web.config.file): tls_server_config (cert_file, key_file, client_ca_file,
 * client_auth_type, min_version, max_version) and basic_auth_users (USER: bcrypt hash). Every
 * file it names is read and checked now (GnuTLS parses the certificate, key and CA; libxcrypt
 * takes each hash), relative names from the file's directory. NULL with errno EINVAL (ENOMEM)
 * and one line in err, "FILE:LINE: KEY: what is wrong", for a file that cannot be read, is no
 * YAML, has a key it does not know or a value that does not do. An empty file is no TLS and
 * no auth. */
struct bsdk_web_config *bsdk_web_config_load(const char *path, char *err, size_t errsize);
/* Whether wc serves over TLS (https). */
bool bsdk_web_config_tls(const struct bsdk_web_config *wc);
void bsdk_web_config_free(struct bsdk_web_config *wc);

/* bsdk_metrics_serve() under web (NULL: none, plain HTTP for everyone): TLS with its
 * certificate; a client certificate as client_auth_type asks (else 403); basic auth for
 * every request when it names users (else 401 with WWW-Authenticate: Basic realm="bpfsdk").
 * web must outlive the server. */
struct bsdk_metrics_server *bsdk_metrics_serve_web(struct bsdk_metrics *m, int listen_fd,
						   const struct bsdk_web_config *web);

/* The port the server listens on; -EINVAL for NULL. */
int bsdk_metrics_server_port(const struct bsdk_metrics_server *s);

/* Close the listening socket and every connection, wait for a render under way to end, and
 * free s; NULL is ignored. */
void bsdk_metrics_server_stop(struct bsdk_metrics_server *s);

#ifdef __cplusplus
}
#endif
#endif /* BPFSDK_HTTP_H */
