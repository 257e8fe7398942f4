/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * web_config.h - what the metrics server (metrics_http.c) asks of a web
 * configuration (web_config.c, web_auth.c): the daemon's TLS flag and
 * options, and the check of every request against client certificates and
 * basic auth.
 */
#ifndef BPFSDK_HTTP_WEB_CONFIG_H
#define BPFSDK_HTTP_WEB_CONFIG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <microhttpd.h>

#include "http/bpfsdk_http.h"

enum web_client_auth {
	WEB_NO_CLIENT_CERT,		/* NoClientCert */
	WEB_REQUEST_CLIENT_CERT,	/* RequestClientCert: asked for, not checked */
	WEB_REQUIRE_ANY_CLIENT_CERT,	/* RequireAnyClientCert: one must come, not verified */
	WEB_VERIFY_IF_GIVEN,		/* VerifyClientCertIfGiven */
	WEB_REQUIRE_AND_VERIFY,		/* RequireAndVerifyClientCert */
};

struct web_user {
	char *name;
	char *hash;		/* bcrypt: $2a$, $2b$ or $2y$ */
	unsigned char seen[32];	/* HMAC-SHA-256 of the last password bcrypt accepted */
	bool seen_ok;
};

struct bsdk_web_config {
	char *path;
	bool tls;
	char *cert, *key, *ca;	/* PEM, read whole; ca NULL without client_ca_file */
	enum web_client_auth client_auth;
	char priorities[96];	/* GnuTLS's, from min_version and max_version */
	struct MHD_OptionItem mhd[5];
	struct web_user *users;	/* basic_auth_users; none: no basic auth */
	size_t nusers;
	unsigned char mac_key[32];	/* random, for the users' seen[] */
	pthread_mutex_t lock;	/* over seen[] and the checks' budget: the server may run threads */
	int64_t bcrypt_ns;	/* the time bcrypt runs may still take (WEB_AUTH_BCRYPT_*) */
	uint64_t bcrypt_at;	/* when bcrypt_ns was last refilled (CLOCK_MONOTONIC), 0: never */
};

/* The server's time bcrypt runs (tens of milliseconds each, in its one thread) may take for
 * passwords not seen before: this many ms a second, this many ms saved at most; a request
 * that finds none left is 429, unchecked (docs/metrics.md, "Limits"). */
#define WEB_AUTH_BCRYPT_MS_PER_S 250
#define WEB_AUTH_BCRYPT_MS_SAVED 500

enum web_auth {
	WEB_AUTH_OK,		/* a user's password */
	WEB_AUTH_WRONG,		/* none, or not a user's: 401 */
	WEB_AUTH_BUSY,		/* not seen before, and bcrypt's time is spent: 429 */
};

/* MHD_USE_TLS with TLS, else 0; NULL is no configuration. */
unsigned int web_config_mhd_flags(const struct bsdk_web_config *wc);
/* The daemon's options for MHD_OPTION_ARRAY: the key, certificate, trust and priorities;
 * only MHD_OPTION_END for NULL or without TLS. */
const struct MHD_OptionItem *web_config_mhd_options(const struct bsdk_web_config *wc);

/* At the top of the access handler: true when the request may go on (wc NULL, or every check
 * passed); else false with *ret what the handler returns, a 403 (client certificate) or 401
 * (basic auth, with WWW-Authenticate) queued. */
bool web_config_allow(const struct bsdk_web_config *wc, struct MHD_Connection *c,
		      enum MHD_Result *ret);

/* web_auth.c: whether user and password match one of wc's users, in a time that does not
 * depend on which part was wrong (an unknown user costs a bcrypt run too). A password bcrypt
 * accepted is remembered as its HMAC under a random key, so that the next scrape with it costs
 * a hash, not a bcrypt run (as exporter-toolkit caches); any other is checked while the time
 * WEB_AUTH_BCRYPT_* allow is left, else WEB_AUTH_BUSY: wc is const to the server, but its
 * users' seen[] and that time change, under wc->lock. */
enum web_auth web_auth_password_check(const struct bsdk_web_config *wc, const char *user,
				      const char *password);
/* web_auth.c: 0 when hash is a bcrypt hash libxcrypt takes, else -1. */
int web_auth_hash_ok(const char *hash);

#endif /* BPFSDK_HTTP_WEB_CONFIG_H */
