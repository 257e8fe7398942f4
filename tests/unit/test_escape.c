// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_escape.c - the one string writer (base/escape.c): bsdk_json_string()
 * and its text form, byte by byte, on every kind of input that is not
 * valid UTF-8, and on the valid sequences at the edges of RFC 3629.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "check.h"

/* bsdk_json_string() of n bytes, in a malloc'ed string. */
static char *json_of(const void *s, size_t n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	bsdk_json_string(f, s, n);
	fclose(f);
	return out;
}

static void put_mem(void *ctx, const char *b, size_t n)
{
	fwrite(b, 1, n, ctx);
}

static char *text_of(const void *s, size_t n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	str_escape(s, n, STR_TEXT, put_mem, f);
	fclose(f);
	return out;
}

struct esc_case {
	const char *name;
	const char *in;
	size_t n;
	const char *json;	/* quotes included */
	const char *text;
};

#define CASE(name, in, json, text) { name, in, sizeof(in) - 1, json, text }

static const struct esc_case cases[] = {
	CASE("empty", "", "\"\"", ""),
	CASE("ascii", "abc /x", "\"abc /x\"", "abc /x"),
	CASE("quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"", "a\\\"b\\\\c"),
	CASE("newline and tab", "a\nb\tc", "\"a\\nb\\tc\"", "a\\nb\\tc"),
	CASE("other control bytes", "\r\x01\x1f\x7f", "\"\\u000d\\u0001\\u001f\\u007f\"",
	     "\\x0d\\x01\\x1f\\x7f"),
	CASE("NUL inside", "a\0b", "\"a\\u0000b\"", "a\\x00b"),
	CASE("two-byte", "\xc3\xa9", "\"\xc3\xa9\"", "\xc3\xa9"),
	CASE("three-byte", "\xe2\x82\xac", "\"\xe2\x82\xac\"", "\xe2\x82\xac"),
	CASE("four-byte, U+10FFFF", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"",
	     "\xf4\x8f\xbf\xbf"),
	CASE("0xff", "a\xff" "b", "\"a\\udcffb\"", "a\\xffb"),
	CASE("lone continuation", "\x80", "\"\\udc80\"", "\\x80"),
	CASE("truncated at the end", "\xe2\x82", "\"\\udce2\\udc82\"", "\\xe2\\x82"),
	CASE("truncated before ASCII", "\xe2\x82z", "\"\\udce2\\udc82z\"", "\\xe2\\x82z"),
	CASE("overlong slash", "\xc0\xaf", "\"\\udcc0\\udcaf\"", "\\xc0\\xaf"),
	CASE("overlong three-byte", "\xe0\x80\xaf", "\"\\udce0\\udc80\\udcaf\"",
	     "\\xe0\\x80\\xaf"),
	CASE("surrogate in UTF-8", "\xed\xa0\x80", "\"\\udced\\udca0\\udc80\"",
	     "\\xed\\xa0\\x80"),
	CASE("above U+10FFFF", "\xf4\x90\x80\x80", "\"\\udcf4\\udc90\\udc80\\udc80\"",
	     "\\xf4\\x90\\x80\\x80"),
	CASE("valid after invalid", "\xff\xc3\xa9", "\"\\udcff\xc3\xa9\"", "\\xff\xc3\xa9"),
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct esc_case *c = &cases[i];
		char *json = json_of(c->in, c->n), *text = text_of(c->in, c->n);

		check_str(json ? json : "(ENOMEM)", c->json, "json: %s", c->name);
		check_str(text ? text : "(ENOMEM)", c->text, "text: %s", c->name);
		free(json);
		free(text);
	}
	return check_done();
}
