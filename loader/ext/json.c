// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * json.c - one JSON string from bytes, for tools that print JSON Lines.
 *
 * What a BPF program sends - a path, a command name, an argument - is bytes,
 * not text: valid UTF-8 passes through, any other byte becomes \udcXX, the
 * "surrogateescape" form that Python's os.fsencode() turns back into the
 * byte, so nothing is lost and the line stays valid JSON.
 */
#include <stdio.h>

#include "ext/ext.h"

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

void bsdk_json_string(FILE *f, const void *s, size_t len)
{
	const unsigned char *p = s, *end = p + len;

	fputc('"', f);
	while (p < end) {
		unsigned char c = *p;
		size_t n;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			fputc(c, f);
			p++;
		} else if ((n = utf8_len(p, end))) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\udc%02x", c);
			p++;
		}
	}
	fputc('"', f);
}
