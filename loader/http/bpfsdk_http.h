/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk_http.h - a set of maps (struct bsdk_metrics, bpfsdk.h) served to
 * Prometheus at http://ADDR:PORT/metrics.
 *
 * The server is an archive of its own, libbpfsdk-http.a, because it needs
 * libmicrohttpd and zlib (and, in a static link, the TLS library under it), which
 * programs that do not serve metrics should not carry:
 *
 *	cc prog.c -lbpfsdk-http $(pkg-config --libs bpfsdk) -lmicrohttpd -lgnutls -lyaml -lcrypt -lz
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
struct bsdk_web_config;

/* Serve m at http://ADDR:PORT/metrics on listen_fd (bsdk_metrics_listen(); the server owns it
 * from here, also on failure) from threads of its own, which take no signal (they block every
 * one: SIGTERM reaches the caller's threads), until bsdk_metrics_server_stop(). GET
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
