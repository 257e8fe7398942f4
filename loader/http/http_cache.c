// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * http_cache.c - one render serves every scrape of a window: the text of
 * each format (0.0.4, OpenMetrics), and its gzip once a client asks for it,
 * kept HTTP_RENDER_LIFETIME_MS from the start of the render, so that N
 * scrapers cost one read of the maps. The answers send the cached bytes
 * themselves (struct http_buf, reference-counted, freed by the last answer
 * or the cache, whichever lets go last): a slow reader holds a reference,
 * not a copy. The renders a slow reader may hold are bounded: when a format
 * is rendered anew, the answers still sending a render more than
 * HTTP_RENDER_GENERATIONS older are closed (the guard's), so at most that
 * many renders of a format are alive, however many clients read slowly.
 *
 * Used from libmicrohttpd's one thread only, which also bounds renders to
 * one at a time; the references are atomic because the free callbacks
 * could come from another thread in another threading mode.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "http/http_server.h"

struct cached {
	struct http_buf *text, *gz;
	double at;		/* the render's start, bsdk_time_now() */
	uint64_t generation;	/* renders of this format so far */
};

struct http_cache {
	struct bsdk_metrics *m;
	struct http_guard *guard;
	struct cached fmt[2];
	uint64_t renders, gzips;
};

void http_buf_unref(void *p)
{
	struct http_buf *b = p;

	if (b && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free(b->data);
		free(b);
	}
}

static struct http_buf *buf_ref(struct http_buf *b)
{
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);
	return b;
}

static struct http_buf *buf_new(char *data, size_t len)
{
	struct http_buf *b = malloc(sizeof(*b));

	if (!b) {
		free(data);
		return NULL;
	}
	b->refs = 1;
	b->data = data;
	b->len = len;
	return b;
}

/* The set rendered in format: NULL with errno. */
static struct http_buf *render(struct bsdk_metrics *m, int format)
{
	char *text = NULL;
	size_t len = 0;
	int err = bsdk_metrics_render_text(m, format ? BSDK_METRICS_OPENMETRICS : 0, &text, &len);

	if (err) {
		errno = -err;
		return NULL;
	}
	return buf_new(text, len);
}

/* text in gzip: fast compression (level 1) - the text repeats itself, so it shrinks about
 * tenfold anyway, and the compression runs in the server's one thread. */
static struct http_buf *gzip(const struct http_buf *text)
{
	z_stream z = { 0 };
	size_t cap;
	char *out;
	int ret = Z_OK;

	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return NULL;
	}
	cap = deflateBound(&z, text->len);
	out = malloc(cap);
	if (!out) {
		deflateEnd(&z);
		errno = ENOMEM;
		return NULL;
	}
	z.next_in = (unsigned char *)text->data;
	z.avail_in = 0;
	z.next_out = (unsigned char *)out;
	z.avail_out = 0;
	/* uInt counts: a text over 4 GiB goes in parts */
	for (size_t in_left = text->len, out_left = cap;;) {
		size_t in_step = in_left < UINT32_MAX ? in_left : UINT32_MAX;
		size_t out_step = out_left < UINT32_MAX ? out_left : UINT32_MAX;

		z.avail_in = (uInt)in_step;
		z.avail_out = (uInt)out_step;
		ret = deflate(&z, in_step == in_left ? Z_FINISH : Z_NO_FLUSH);
		in_left -= in_step - z.avail_in;
		out_left -= out_step - z.avail_out;
		if (ret == Z_STREAM_END || (ret != Z_OK && ret != Z_BUF_ERROR) || !out_left)
			break;
	}
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(out);
		errno = ENOMEM;
		return NULL;
	}
	return buf_new(out, z.total_out);
}

struct http_cache *http_cache_new(struct bsdk_metrics *m, struct http_guard *g)
{
	struct http_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->m = m;
	c->guard = g;
	return c;
}

static void drop(struct cached *e)
{
	http_buf_unref(e->text);
	http_buf_unref(e->gz);
	e->text = e->gz = NULL;
}

void http_cache_free(struct http_cache *c)
{
	if (!c)
		return;
	drop(&c->fmt[0]);
	drop(&c->fmt[1]);
	free(c);
}

struct http_buf *http_cache_get(struct http_cache *c, int format, bool gz,
				uint64_t *generation)
{
	struct cached *e = &c->fmt[format ? 1 : 0];
	double now = bsdk_time_now();

	if (!e->text || now - e->at >= HTTP_RENDER_LIFETIME_MS / 1000.0 || now < e->at) {
		struct http_buf *text = render(c->m, format);

		if (!text)
			return NULL;
		drop(e);
		e->text = text;
		e->at = now;
		e->generation++;
		__atomic_add_fetch(&c->renders, 1, __ATOMIC_RELAXED);
		if (e->generation > HTTP_RENDER_GENERATIONS)
			http_guard_drop_older(c->guard, format ? 1 : 0,
					      e->generation - HTTP_RENDER_GENERATIONS + 1);
	}
	if (gz && !e->gz) {
		e->gz = gzip(e->text);
		if (!e->gz)
			return NULL;
		__atomic_add_fetch(&c->gzips, 1, __ATOMIC_RELAXED);
	}
	*generation = e->generation;
	return buf_ref(gz ? e->gz : e->text);
}

void http_cache_counts(const struct http_cache *c, uint64_t *renders, uint64_t *gzips)
{
	/* read from another thread than the one that counts */
	*renders = __atomic_load_n(&c->renders, __ATOMIC_RELAXED);
	*gzips = __atomic_load_n(&c->gzips, __ATOMIC_RELAXED);
}
