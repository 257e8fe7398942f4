// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * web_config.c - the web configuration file of Prometheus exporters
 * (exporter-toolkit's YAML, node_exporter's --web.config.file): TLS
 * (tls_server_config) and basic auth (basic_auth_users), read with libyaml
 * and checked whole - certificates and keys parsed by GnuTLS, hashes by
 * libxcrypt - before the program that asked loads anything. Every fault is
 * one line naming the file, the line and the key.
 *
 * The files are read here, once: a server that dropped its privileges
 * after it started needs none to serve.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <yaml.h>

#include "http/web_config.h"

#define MAX_PEM (1024 * 1024)	/* a certificate chain, a key, a CA bundle */

/* What a parse carries: the file, where to say what is wrong. */
struct parse {
	struct bsdk_web_config *wc;
	yaml_document_t *doc;
	char *err;
	size_t errsize;
};

/* "FILE:LINE: KEY: what" into the caller's buffer; -1. */
__attribute__((format(printf, 4, 5)))
static int fail(struct parse *p, const yaml_node_t *at, const char *key, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(p->err, p->errsize, "%s:%zu: %s%s", p->wc->path,
			     at ? at->start_mark.line + 1 : 1, key ? key : "", key ? ": " : "");
	if (n < p->errsize) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errsize - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A file named in the configuration, relative to the configuration's directory as
 * exporter-toolkit has it, read whole into *out. */
static int read_file(struct parse *p, const yaml_node_t *at, const char *key, char **out)
{
	const char *name = scalar(at), *slash = strrchr(p->wc->path, '/');
	char path[4096];
	size_t len = 0, got;
	char *buf;
	FILE *f;

	if (!name || !*name)
		return fail(p, at, key, "needs a file name");
	if (name[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - p->wc->path), p->wc->path, name);
	f = fopen(path, "re");
	if (!f)
		return fail(p, at, key, "cannot read '%s': %s", path, strerror(errno));
	buf = malloc(MAX_PEM + 1);
	while (buf && len < MAX_PEM && (got = fread(buf + len, 1, MAX_PEM - len, f)) > 0)
		len += got;
	if (!buf || ferror(f) || len == MAX_PEM || !len) {
		int err = !buf ? ENOMEM : ferror(f) ? EIO : 0;

		fclose(f);
		free(buf);
		return fail(p, at, key, "cannot read '%s': %s", path,
			    err ? strerror(err) : len ? "larger than 1 MiB" : "the file is empty");
	}
	fclose(f);
	buf[len] = '\0';
	free(*out);
	*out = buf;
	return 0;
}

/* A key the mapping named before pr: strict, as exporter-toolkit's YAML reader. */
static bool named_before(yaml_document_t *doc, const yaml_node_t *map, const yaml_node_pair_t *pr)
{
	const char *key = scalar(yaml_document_get_node(doc, pr->key));

	for (const yaml_node_pair_t *q = map->data.mapping.pairs.start; key && q < pr; q++) {
		const char *prev = scalar(yaml_document_get_node(doc, q->key));

		if (prev && !strcmp(prev, key))
			return true;
	}
	return false;
}

static const char *const auth_types[] = {
	[WEB_NO_CLIENT_CERT] = "NoClientCert",
	[WEB_REQUEST_CLIENT_CERT] = "RequestClientCert",
	[WEB_REQUIRE_ANY_CLIENT_CERT] = "RequireAnyClientCert",
	[WEB_VERIFY_IF_GIVEN] = "VerifyClientCertIfGiven",
	[WEB_REQUIRE_AND_VERIFY] = "RequireAndVerifyClientCert",
};

/* TLS12 -> 2, TLS13 -> 3; -1 for what GnuTLS is not offered here (TLS10, TLS11) or no
 * version at all. */
static int tls_version(struct parse *p, const yaml_node_t *at, const char *key)
{
	const char *v = scalar(at);

	if (v && !strcmp(v, "TLS12"))
		return 2;
	if (v && !strcmp(v, "TLS13"))
		return 3;
	if (v && (!strcmp(v, "TLS10") || !strcmp(v, "TLS11")))
		return fail(p, at, key, "'%s' is not offered: TLS12 or TLS13", v);
	return fail(p, at, key, "'%s' is not a TLS version: TLS12 or TLS13", v ? v : "(not a scalar)");
}

/* One key of tls_server_config; min and max the versions named (0: not named). */
static int tls_key(struct parse *p, const char *k, const yaml_node_t *v, int *min, int *max)
{
	struct bsdk_web_config *wc = p->wc;
	char key[64];

	snprintf(key, sizeof(key), "tls_server_config.%s", k);
	if (!strcmp(k, "cert_file"))
		return read_file(p, v, key, &wc->cert);
	if (!strcmp(k, "key_file"))
		return read_file(p, v, key, &wc->key);
	if (!strcmp(k, "client_ca_file"))
		return read_file(p, v, key, &wc->ca);
	if (!strcmp(k, "min_version"))
		return (*min = tls_version(p, v, key)) < 0 ? -1 : 0;
	if (!strcmp(k, "max_version"))
		return (*max = tls_version(p, v, key)) < 0 ? -1 : 0;
	if (!strcmp(k, "client_auth_type")) {
		for (size_t i = 0; i < sizeof(auth_types) / sizeof(auth_types[0]); i++)
			if (scalar(v) && !strcmp(scalar(v), auth_types[i])) {
				wc->client_auth = (enum web_client_auth)i;
				return 0;
			}
		return fail(p, v, key, "'%s' is none of NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert",
			    scalar(v) ? scalar(v) : "(not a scalar)");
	}
	if (!strcmp(k, "cert") || !strcmp(k, "key") || !strcmp(k, "client_ca") ||
	    !strcmp(k, "cipher_suites") || !strcmp(k, "curve_preferences") ||
	    !strcmp(k, "prefer_server_cipher_suites") || !strcmp(k, "client_allowed_sans"))
		return fail(p, v, key, "not supported here: cert_file, key_file, client_ca_file, client_auth_type, min_version, max_version are");
	return fail(p, v, key, "unknown field");
}

/* The certificate and key go together, the CA holds certificates: GnuTLS says so now, not at
 * the first connection. */
static int tls_check(struct parse *p, const yaml_node_t *at)
{
	struct bsdk_web_config *wc = p->wc;
	gnutls_certificate_credentials_t cred;
	gnutls_datum_t cert = { (unsigned char *)wc->cert, (unsigned int)strlen(wc->cert) };
	gnutls_datum_t key = { (unsigned char *)wc->key, (unsigned int)strlen(wc->key) };
	int err;

	if (!MHD_is_feature_supported(MHD_FEATURE_TLS))
		return fail(p, at, "tls_server_config", "this libmicrohttpd was built without TLS");
	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return fail(p, at, "tls_server_config", "out of memory");
	err = gnutls_certificate_set_x509_key_mem(cred, &cert, &key, GNUTLS_X509_FMT_PEM);
	if (err < 0) {
		gnutls_certificate_free_credentials(cred);
		return fail(p, at, "tls_server_config.cert_file, key_file", "%s", gnutls_strerror(err));
	}
	if (wc->ca) {
		gnutls_datum_t ca = { (unsigned char *)wc->ca, (unsigned int)strlen(wc->ca) };

		err = gnutls_certificate_set_x509_trust_mem(cred, &ca, GNUTLS_X509_FMT_PEM);
		if (err <= 0) {
			gnutls_certificate_free_credentials(cred);
			return fail(p, at, "tls_server_config.client_ca_file", "%s",
				    err ? gnutls_strerror(err) : "no PEM certificate in it");
		}
	}
	gnutls_certificate_free_credentials(cred);
	return 0;
}

/* What the keys do not say alone: the pairs that go together. */
static int tls_finish(struct parse *p, const yaml_node_t *at, int min, int max)
{
	struct bsdk_web_config *wc = p->wc;
	const char *what = !wc->cert ? "cert_file" : !wc->key ? "key_file" : NULL;

	if (what)
		return fail(p, at, "tls_server_config", "%s is missing: TLS needs cert_file and key_file",
			    what);
	if (wc->ca && wc->client_auth == WEB_NO_CLIENT_CERT)
		return fail(p, at, "tls_server_config.client_ca_file",
			    "is ignored with client_auth_type NoClientCert: name a client_auth_type");
	if (!wc->ca && wc->client_auth != WEB_NO_CLIENT_CERT)
		return fail(p, at, "tls_server_config.client_auth_type",
			    "%s needs client_ca_file (the server asks for a client certificate only with one)",
			    auth_types[wc->client_auth]);
	if (max && max < (min ? min : 2))
		return fail(p, at, "tls_server_config.max_version", "is below min_version");
	/* GnuTLS's NORMAL, with the versions the file allows */
	snprintf(wc->priorities, sizeof(wc->priorities), "NORMAL:-VERS-ALL%s%s",
		 max != 2 ? ":+VERS-TLS1.3" : "", min != 3 ? ":+VERS-TLS1.2" : "");
	wc->tls = true;
	return tls_check(p, at);
}

static int parse_tls(struct parse *p, const yaml_node_t *map)
{
	int min = 0, max = 0;

	if (map->type != YAML_MAPPING_NODE)
		return fail(p, map, "tls_server_config", "is not a mapping of keys");
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		const yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);

		if (!scalar(k))
			return fail(p, k, "tls_server_config", "a key that is not a scalar");
		if (named_before(p->doc, map, pr))
			return fail(p, k, "tls_server_config", "%s is given twice", scalar(k));
		if (tls_key(p, scalar(k), v, &min, &max))
			return -1;
	}
	return tls_finish(p, map, min, max);
}

static int parse_users(struct parse *p, const yaml_node_t *map)
{
	struct bsdk_web_config *wc = p->wc;
	size_t n;

	if (map->type == YAML_SCALAR_NODE && !*scalar(map))
		return 0;	/* "basic_auth_users:" with nothing: none */
	if (map->type != YAML_MAPPING_NODE)
		return fail(p, map, "basic_auth_users", "is not a mapping of USER: BCRYPT_HASH");
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	wc->users = calloc(n ? n : 1, sizeof(*wc->users));
	if (!wc->users)
		return fail(p, map, "basic_auth_users", "out of memory");
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
	     pr < map->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		const yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		const char *user = scalar(k), *hash = scalar(v);

		if (!user || !*user || strchr(user, ':'))
			return fail(p, k, "basic_auth_users", "'%s' is not a user name (no ':', not empty)",
				    user ? user : "(not a scalar)");
		for (size_t i = 0; i < wc->nusers; i++)
			if (!strcmp(wc->users[i].name, user))
				return fail(p, k, "basic_auth_users", "'%s' is named twice", user);
		if (!hash || web_auth_hash_ok(hash))
			return fail(p, v, "basic_auth_users", "%s: the password is not a bcrypt hash ($2y$..., as htpasswd -nBC 10 USER prints)",
				    user);
		wc->users[wc->nusers].name = strdup(user);
		wc->users[wc->nusers].hash = strdup(hash);
		if (!wc->users[wc->nusers].name || !wc->users[wc->nusers++].hash)
			return fail(p, v, "basic_auth_users", "out of memory");
	}
	return 0;
}

/* The top level: a mapping of the two sections, or nothing (an empty file serves as
 * without one, as exporter-toolkit does). */
static int parse_root(struct parse *p, const yaml_node_t *root)
{
	if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root)))
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return fail(p, root, NULL, "the file is not a mapping of tls_server_config, basic_auth_users");
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		const yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		const char *key = scalar(k);
		bool tls = key && !strcmp(key, "tls_server_config");
		bool users = key && !strcmp(key, "basic_auth_users");

		if (named_before(p->doc, root, pr))
			return fail(p, k, key, "is given twice");
		if (tls || users) {
			if (tls ? parse_tls(p, v) : parse_users(p, v))
				return -1;
		} else if (key && !strcmp(key, "http_server_config")) {
			return fail(p, k, key, "not supported here: tls_server_config, basic_auth_users are");
		} else {
			return fail(p, k, key ? key : "(not a scalar)", "unknown field");
		}
	}
	return 0;
}

/* libyaml's document of the file; -1 after the message, at the line the parser stopped. */
static int load_document(struct parse *p, FILE *f)
{
	yaml_parser_t parser;
	int ret = 0;

	if (!yaml_parser_initialize(&parser))
		return fail(p, NULL, NULL, "out of memory");
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, p->doc)) {
		yaml_node_t at = { .start_mark = parser.problem_mark };

		ret = fail(p, &at, NULL, "not YAML: %s%s%s",
			   parser.problem ? parser.problem : "cannot be read",
			   parser.context ? " " : "", parser.context ? parser.context : "");
	}
	yaml_parser_delete(&parser);
	return ret;
}

struct bsdk_web_config *bsdk_web_config_load(const char *path, char *err, size_t errsize)
{
	struct bsdk_web_config *wc = calloc(1, sizeof(*wc));
	yaml_document_t doc;
	struct parse p = { .wc = wc, .doc = &doc, .err = err, .errsize = errsize };
	FILE *f;
	int ret;

	if (!wc || !(wc->path = strdup(path)) || pthread_mutex_init(&wc->lock, NULL) ||
	    gnutls_rnd(GNUTLS_RND_KEY, wc->mac_key, sizeof(wc->mac_key))) {
		if (wc)
			free(wc->path);
		free(wc);
		snprintf(err, errsize, "%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errsize, "%s: cannot read: %s", path, strerror(errno));
		bsdk_web_config_free(wc);
		errno = EINVAL;
		return NULL;
	}
	ret = load_document(&p, f);
	fclose(f);
	if (!ret) {
		ret = parse_root(&p, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	if (ret) {
		bsdk_web_config_free(wc);
		errno = EINVAL;
		return NULL;
	}
	return wc;
}

void bsdk_web_config_free(struct bsdk_web_config *wc)
{
	if (!wc)
		return;
	for (size_t i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		if (wc->users[i].hash)
			explicit_bzero(wc->users[i].hash, strlen(wc->users[i].hash));
		free(wc->users[i].hash);
	}
	free(wc->users);
	if (wc->key)
		explicit_bzero(wc->key, strlen(wc->key));
	free(wc->key);
	free(wc->cert);
	free(wc->ca);
	free(wc->path);
	pthread_mutex_destroy(&wc->lock);
	explicit_bzero(wc->mac_key, sizeof(wc->mac_key));
	free(wc);
}

bool bsdk_web_config_tls(const struct bsdk_web_config *wc)
{
	return wc && wc->tls;
}

unsigned int web_config_mhd_flags(const struct bsdk_web_config *wc)
{
	return wc && wc->tls ? MHD_USE_TLS : 0;
}

const struct MHD_OptionItem *web_config_mhd_options(const struct bsdk_web_config *wc)
{
	static const struct MHD_OptionItem none[] = { { MHD_OPTION_END, 0, NULL } };
	struct MHD_OptionItem *o;
	size_t n = 0;

	if (!wc || !wc->tls)
		return none;
	/* the daemon keeps pointers into wc, which outlives it */
	o = ((struct bsdk_web_config *)wc)->mhd;
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, wc->key };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, wc->cert };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)wc->priorities };
	if (wc->ca)	/* libmicrohttpd asks clients for a certificate when it has a trust list */
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0, wc->ca };
	o[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	return o;
}
