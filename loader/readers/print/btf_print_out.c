// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_print_out.c - what the BTF printer (btf_print.c) writes: bytes,
 * numbers, escaped strings and names, into its buffer, flushed to the
 * FILE * or copied to bsdk_btf_snprint()'s buffer.
 */
#include <stdio.h>
#include <string.h>

#include "readers/print/btf_print_out.h"

static void pr_emit(struct pr *p, const char *s, size_t n)
{
	if (p->f) {
		fwrite(s, 1, n, p->f);
		return;
	}
	if (p->total < p->mem_size)	/* snprintf's rule: what fits, then count */
		memcpy(p->mem + p->total, s, n < p->mem_size - p->total ? n : p->mem_size - p->total);
	p->total += n;
}

void pr_flush(struct pr *p)
{
	if (p->len)
		pr_emit(p, p->buf, p->len);
	p->len = 0;
}

void pr_out(struct pr *p, const char *s, size_t n)
{
	if (p->len + n > sizeof(p->buf)) {
		pr_flush(p);
		if (n > sizeof(p->buf)) {
			pr_emit(p, s, n);
			return;
		}
	}
	memcpy(p->buf + p->len, s, n);
	p->len += n;
}

void pr_outc(struct pr *p, char c)
{
	if (p->len == sizeof(p->buf))
		pr_flush(p);
	p->buf[p->len++] = c;
}

void pr_outs(struct pr *p, const char *s) { pr_out(p, s, strlen(s)); }

void pr_out_u64(struct pr *p, uint64_t v)
{
	/* two digits per division: the division is most of the cost */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char b[20];
	int i = sizeof(b);

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		b[--i] = pairs[2 * r + 1];
		b[--i] = pairs[2 * r];
	}
	if (v >= 10) {
		b[--i] = pairs[2 * v + 1];
		b[--i] = pairs[2 * v];
	} else {
		b[--i] = (char)('0' + v);
	}
	pr_out(p, b + i, sizeof(b) - (size_t)i);
}

void pr_out_u128(struct pr *p, unsigned __int128 v, bool negative)
{
	char b[41];
	int i = sizeof(b);

	if (negative)
		pr_outc(p, '-');
	if (v <= UINT64_MAX) {
		pr_out_u64(p, (uint64_t)v);
		return;
	}
	do
		b[--i] = (char)('0' + (int)(v % 10));
	while ((v /= 10));
	pr_out(p, b + i, sizeof(b) - (size_t)i);
}

void pr_out_hex(struct pr *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[18];
	int i = sizeof(b);

	do
		b[--i] = digits[v & 15];
	while ((v >>= 4));
	b[--i] = 'x';
	b[--i] = '0';
	pr_out(p, b + i, sizeof(b) - (size_t)i);
}

void pr_out_null(struct pr *p)
{
	pr_outs(p, p->fmt == BSDK_BTF_JSON ? "null" : "?");
}

static void put_pr(void *ctx, const char *b, size_t n)
{
	pr_out(ctx, b, n);
}

/* n bytes as a string, in quotes when quote: escaped by the library's one
 * policy (base/escape.c), \udcXX in JSON and \xNN in text for each byte
 * that is not UTF-8. */
void pr_out_str(struct pr *p, const unsigned char *s, size_t n, bool quote)
{
	if (quote)
		pr_outc(p, '"');
	str_escape(s, n, p->fmt == BSDK_BTF_JSON ? STR_JSON : STR_TEXT, put_pr, p);
	if (quote)
		pr_outc(p, '"');
}

void pr_out_name(struct pr *p, const char *name)
{
	if (p->fmt == BSDK_BTF_JSON) {
		pr_out_str(p, (const unsigned char *)name, strlen(name), true);
		pr_outc(p, ':');
	} else {
		pr_out_str(p, (const unsigned char *)name, strlen(name), false);
		pr_outc(p, '=');
	}
}

/* What was written since start, padded with blanks to width: on the left
 * when right-aligned. */
void pr_pad(struct pr *p, size_t start, int width, bool right)
{
	size_t len = p->len - start;
	size_t fill;

	if (len >= (size_t)width)
		return;
	fill = (size_t)width - len;
	if (p->len + fill > sizeof(p->buf))
		return;		/* a value too long to align: it is wider anyway */
	if (right)
		memmove(p->buf + start + fill, p->buf + start, len);
	memset(p->buf + (right ? start : p->len), ' ', fill);
	p->len += fill;
}

void pr_out_duration(struct pr *p, uint64_t ns)
{
	char b[32];
	int n;

	if (ns < 1000)
		n = snprintf(b, sizeof(b), "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		n = snprintf(b, sizeof(b), "%.3fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		n = snprintf(b, sizeof(b), "%.3fms", (double)ns / 1e6);
	else
		n = snprintf(b, sizeof(b), "%.3fs", (double)ns / 1e9);
	pr_out(p, b, (size_t)n);
}
