// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * json_string.c - one JSON string from bytes, for tools that print JSON Lines.
 *
 * What a BPF program sends - a path, a command name, an argument - is bytes,
 * not text: valid UTF-8 passes through, any other byte becomes \udcXX, the
 * "surrogateescape" form that Python's os.fsencode() turns back into the
 * byte, so nothing is lost and the line stays valid JSON.
 */
#include <stdio.h>

#include "base/base.h"

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
