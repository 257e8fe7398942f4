// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * escape.c - the one writer of strings that come from outside (object
 * files, BPF programs, processes) as JSON or as printable text, with one
 * policy for bytes that are not UTF-8.
 *
 * The policy: valid UTF-8 (RFC 3629) passes through; every other byte b
 * becomes \udcXX in JSON (U+DC00 + b, the "surrogateescape" of Python's
 * os.fsdecode()) and \xNN in text. A path or a command name is bytes, not
 * text, and this form loses nothing for whoever wants the bytes back
 * (Python: os.fsencode(json.loads(line)["path"])), while jq, Python's json
 * and Go's encoding/json all read the line without error - jq and Go turn
 * each such escape into U+FFFD, which is all that writing U+FFFD here
 * would have given everyone. The cost: a lone surrogate is not a Unicode
 * scalar value, so parsers that insist on one (I-JSON, RFC 7493; Rust's
 * serde_json into a String) reject the line.
 *
 * Quotes and backslashes are escaped, \n and \t by their short forms,
 * every other control byte (below 0x20, and 0x7f) as \u00XX or \xNN.
 */
#include <stdio.h>

#include "base/base.h"

static const char hex_digits[] = "0123456789abcdef";

/* The escape of the byte c in form into out (at most 6 bytes): its
 * length, or 0 when c is written as it is. invalid: c starts no valid
 * UTF-8 sequence. */
static size_t escape_byte(unsigned char c, bool invalid, enum str_form form, char *out)
{
	const char *pre;
	size_t k;

	if (c == '"' || c == '\\' || c == '\n' || c == '\t') {
		out[0] = '\\';
		out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : (char)c;
		return 2;
	}
	if (!invalid && c >= 0x20 && c != 0x7f)
		return 0;
	if (form == STR_TEXT)
		pre = "\\x";
	else
		pre = c < 0x80 ? "\\u00" : "\\udc";
	k = strlen(pre);
	memcpy(out, pre, k);
	out[k] = hex_digits[c >> 4];
	out[k + 1] = hex_digits[c & 15];
	return k + 2;
}

void str_escape(const void *s, size_t n, enum str_form form, str_put_fn put, void *ctx)
{
	const unsigned char *p = s, *end = p + n, *run = p;

	while (p < end) {
		size_t len = *p < 0x80 ? 1 : utf8_len(p, end), esc_len;
		char esc[6];

		esc_len = escape_byte(*p, len == 0, form, esc);
		if (!esc_len) {
			p += len;
			continue;
		}
		if (p > run)
			put(ctx, (const char *)run, (size_t)(p - run));
		put(ctx, esc, esc_len);
		run = ++p;
	}
	if (p > run)
		put(ctx, (const char *)run, (size_t)(p - run));
}

static void put_file(void *ctx, const char *b, size_t n)
{
	fwrite(b, 1, n, ctx);
}

void bsdk_json_string(FILE *f, const void *s, size_t len)
{
	fputc('"', f);
	str_escape(s, len, STR_JSON, put_file, f);
	fputc('"', f);
}
