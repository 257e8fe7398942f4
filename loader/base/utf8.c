// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * utf8.c - whether bytes are valid UTF-8, for the writers that keep valid
 * text as it is and escape every other byte (JSON strings, metric labels,
 * printed records).
 */
#include "base/base.h"

/* The length of the valid UTF-8 sequence at p (end excluded), 0 if none.
 * RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. */
size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		   c >= 0xf0 && c <= 0xf4 ? 4 : 0;

	if (!n || (size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}
