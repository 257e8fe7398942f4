// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * web_auth.c - who may scrape, under a web configuration (web_config.c):
 * the client certificate its client_auth_type asks for, checked by GnuTLS
 * against client_ca_file (403 without one), then the basic auth users'
 * bcrypt hashes, checked by libxcrypt (401 with WWW-Authenticate).
 *
 * A wrong user and a wrong password cost the same bcrypt run, and hashes
 * are compared in a time that does not depend on where they differ, so an
 * answer's timing tells nothing of which part was wrong. A right password
 * costs one bcrypt run per process (then its HMAC is compared); the others
 * share a budget of bcrypt's time a second, so that a flood of wrong
 * passwords cannot keep the server's thread in bcrypt while scrapes wait.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <crypt.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "http/http_server.h"
#include "http/web_config.h"

#define REALM "bpfsdk"

int web_auth_hash_ok(const char *hash)
{
	struct crypt_data *cd;
	const char *out;
	int ret;

	if (strncmp(hash, "$2a$", 4) && strncmp(hash, "$2b$", 4) && strncmp(hash, "$2y$", 4))
		return -1;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return -1;
	/* libxcrypt hashes with it or says "*0"/NULL: a cost or salt it does not take */
	out = crypt_r("", hash, cd);
	ret = out && out[0] == '$' && strlen(out) == strlen(hash) ? 0 : -1;
	free(cd);
	return ret;
}

/* a and b equal, in a time that depends on their lengths only */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

/* The HMAC of password under wc's key; false when GnuTLS cannot say (then nothing is kept). */
static bool password_mac(const struct bsdk_web_config *wc, const char *password,
			 unsigned char mac[32])
{
	return gnutls_hmac_fast(GNUTLS_MAC_SHA256, wc->mac_key, sizeof(wc->mac_key), password,
				strlen(password), mac) == 0;
}

/* Whether u's last accepted password is this one (mac), or (remember) keep it as that. */
static bool seen(struct bsdk_web_config *wc, struct web_user *u, const unsigned char mac[32],
		 bool remember)
{
	unsigned char diff = 0;

	pthread_mutex_lock(&wc->lock);
	if (remember) {
		memcpy(u->seen, mac, 32);
		u->seen_ok = true;
	} else {
		for (size_t i = 0; i < 32; i++)
			diff |= (unsigned char)(u->seen[i] ^ mac[i]);
		diff |= !u->seen_ok;
	}
	pthread_mutex_unlock(&wc->lock);
	return remember || diff == 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether a bcrypt run may start (some of its time left, refilled at WEB_AUTH_BCRYPT_MS_PER_S
 * up to WEB_AUTH_BCRYPT_MS_SAVED); spent > 0: take that much of it, a run's time. */
static bool bcrypt_time(struct bsdk_web_config *wc, uint64_t spent)
{
	const int64_t saved = WEB_AUTH_BCRYPT_MS_SAVED * INT64_C(1000000);
	uint64_t now = now_ns();
	bool ok;

	pthread_mutex_lock(&wc->lock);
	if (!wc->bcrypt_at)
		wc->bcrypt_ns = saved;
	else
		wc->bcrypt_ns += (int64_t)((now - wc->bcrypt_at) / 1000 * WEB_AUTH_BCRYPT_MS_PER_S);
	if (wc->bcrypt_ns > saved)
		wc->bcrypt_ns = saved;
	wc->bcrypt_at = now;
	wc->bcrypt_ns -= (int64_t)spent;
	ok = wc->bcrypt_ns > 0;
	pthread_mutex_unlock(&wc->lock);
	return ok;
}

enum web_auth web_auth_password_check(const struct bsdk_web_config *cwc, const char *user,
				      const char *password)
{
	struct bsdk_web_config *wc = (struct bsdk_web_config *)cwc;
	struct web_user *u = NULL;
	unsigned char mac[32];
	struct crypt_data *cd;
	const char *out;
	bool ok, have_mac, busy;
	uint64_t t0;

	if (!wc->nusers || !user || !password)
		return WEB_AUTH_WRONG;
	for (size_t i = 0; i < wc->nusers; i++)
		if (same(wc->users[i].name, user))
			u = &wc->users[i];
	have_mac = password_mac(wc, password, mac);
	if (u && have_mac && seen(wc, u, mac, false))
		return WEB_AUTH_OK;
	/* a wrong user waits for bcrypt's time as a wrong password does: the answer tells nothing */
	busy = !bcrypt_time(wc, 0);
	cd = busy ? NULL : calloc(1, sizeof(*cd));
	if (!cd) {
		explicit_bzero(mac, sizeof(mac));
		return busy ? WEB_AUTH_BUSY : WEB_AUTH_WRONG;
	}
	/* an unknown user is hashed against a known user's hash all the same */
	t0 = now_ns();
	out = crypt_r(password, u ? u->hash : wc->users[0].hash, cd);
	bcrypt_time(wc, now_ns() - t0);
	ok = u && out && same(out, u->hash);
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	if (ok && have_mac)
		seen(wc, u, mac, true);
	explicit_bzero(mac, sizeof(mac));
	return ok ? WEB_AUTH_OK : WEB_AUTH_WRONG;
}

/* The client certificate client_auth_type asks for: NULL when fine, else why not. */
static const char *client_cert_refused(const struct bsdk_web_config *wc, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci;
	gnutls_session_t session;
	unsigned int npeers = 0, status = 0;

	if (wc->client_auth == WEB_NO_CLIENT_CERT || wc->client_auth == WEB_REQUEST_CLIENT_CERT)
		return NULL;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	session = ci ? (gnutls_session_t)ci->tls_session : NULL;
	if (!session)
		return "forbidden: no TLS session\n";
	if (!gnutls_certificate_get_peers(session, &npeers) || !npeers) {
		if (wc->client_auth == WEB_VERIFY_IF_GIVEN)
			return NULL;
		return "forbidden: a client certificate is required\n";
	}
	if (wc->client_auth == WEB_REQUIRE_ANY_CLIENT_CERT)
		return NULL;
	if (gnutls_certificate_verify_peers2(session, &status) < 0 || status)
		return "forbidden: the client certificate is not signed by the server's client CA, or has expired\n";
	return NULL;
}

bool web_config_allow(const struct bsdk_web_config *wc, struct MHD_Connection *c,
		      enum MHD_Result *ret)
{
	const char *why;
	char *user, *password = NULL;
	enum web_auth ok;

	if (!wc)
		return true;
	why = wc->tls ? client_cert_refused(wc, c) : NULL;
	if (why) {
		*ret = http_reply(c, MHD_HTTP_FORBIDDEN, why, NULL, NULL);
		return false;
	}
	if (!wc->nusers)
		return true;
	user = MHD_basic_auth_get_username_password(c, &password);
	ok = web_auth_password_check(wc, user, password);
	if (password)
		explicit_bzero(password, strlen(password));
	MHD_free(user);
	MHD_free(password);
	if (ok == WEB_AUTH_BUSY)
		*ret = http_reply(c, MHD_HTTP_TOO_MANY_REQUESTS,
				  "too many requests: more passwords to check than the server checks a second; try again\n",
				  NULL, NULL);
	else if (ok == WEB_AUTH_WRONG)
		*ret = http_reply(c, MHD_HTTP_UNAUTHORIZED,
				  "unauthorized: basic auth with a user of the web configuration\n", NULL,
				  REALM);
	return ok == WEB_AUTH_OK;
}
