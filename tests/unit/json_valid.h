/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * json_valid.h - a strict RFC 8259 checker for one JSON value, used by the
 * printer's unit test and fuzz target to hold it to "valid for every
 * input". Strings must be valid UTF-8 with legal escapes; depth is capped.
 */
#ifndef BPFSDK_TESTS_JSON_VALID_H
#define BPFSDK_TESTS_JSON_VALID_H

#include <stdbool.h>
#include <string.h>

struct jv { const unsigned char *s, *end; int depth; };

static void jv_ws(struct jv *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

static bool jv_lit(struct jv *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->s) < n || memcmp(j->s, lit, n))
		return false;
	j->s += n;
	return true;
}

static bool jv_digits(struct jv *j)
{
	const unsigned char *start = j->s;

	while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
		j->s++;
	return j->s > start;
}

static bool jv_number(struct jv *j)
{
	if (j->s < j->end && *j->s == '-')
		j->s++;
	if (j->s < j->end && *j->s == '0')
		j->s++;
	else if (!jv_digits(j))
		return false;
	if (j->s < j->end && *j->s == '.' && (j->s++, !jv_digits(j)))
		return false;
	if (j->s < j->end && (*j->s == 'e' || *j->s == 'E')) {
		j->s++;
		if (j->s < j->end && (*j->s == '+' || *j->s == '-'))
			j->s++;
		if (!jv_digits(j))
			return false;
	}
	return true;
}

static bool jv_string(struct jv *j)
{
	if (j->s >= j->end || *j->s++ != '"')
		return false;
	while (j->s < j->end && *j->s != '"') {
		unsigned char c = *j->s;

		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (++j->s >= j->end)
				return false;
			if (*j->s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (j->s + i >= j->end || !strchr("0123456789abcdefABCDEF", j->s[i]) ||
					    !j->s[i])
						return false;
				j->s += 5;
			} else if (strchr("\"\\/bfnrt", *j->s) && *j->s) {
				j->s++;
			} else {
				return false;
			}
			continue;
		}
		if (c >= 0x80) {	/* UTF-8: lead byte and continuations */
			int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c <= 0xdf ? 1 : -1;

			if (n < 0 || c > 0xf4 || j->end - j->s <= n)
				return false;
			for (int i = 1; i <= n; i++)
				if ((j->s[i] & 0xc0) != 0x80)
					return false;
			j->s += n + 1;
			continue;
		}
		j->s++;
	}
	return j->s < j->end && *j->s++ == '"';
}

static bool jv_value(struct jv *j)
{
	bool obj;

	jv_ws(j);
	if (j->s >= j->end)
		return false;
	switch (*j->s) {
	case '"': return jv_string(j);
	case 't': return jv_lit(j, "true");
	case 'f': return jv_lit(j, "false");
	case 'n': return jv_lit(j, "null");
	case '{': case '[':
		obj = *j->s++ == '{';
		if (++j->depth > 512)
			return false;
		jv_ws(j);
		if (j->s < j->end && *j->s == (obj ? '}' : ']')) {
			j->s++;
			j->depth--;
			return true;
		}
		for (;;) {
			if (obj) {
				jv_ws(j);
				if (!jv_string(j))
					return false;
				jv_ws(j);
				if (j->s >= j->end || *j->s++ != ':')
					return false;
			}
			if (!jv_value(j))
				return false;
			jv_ws(j);
			if (j->s < j->end && *j->s == ',') {
				j->s++;
				continue;
			}
			if (j->s < j->end && *j->s == (obj ? '}' : ']')) {
				j->s++;
				j->depth--;
				return true;
			}
			return false;
		}
	default:
		return jv_number(j);
	}
}

/* Whether s[0..n) is exactly one JSON value (blanks around allowed). */
static inline bool json_valid(const char *s, size_t n)
{
	struct jv j = { (const unsigned char *)s, (const unsigned char *)s + n, 0 };

	if (!jv_value(&j))
		return false;
	jv_ws(&j);
	return j.s == j.end;
}

#endif /* BPFSDK_TESTS_JSON_VALID_H */
