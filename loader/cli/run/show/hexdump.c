// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * hexdump.c - print a record as one line of hex for `bpfsdk run`.
 *
 * A record can be as large as a perf ring allows, so the bytes go out
 * through a small chunk buffer rather than one line-sized allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/run/show/show.h"

char *record_map_label(const char *name)
{
	char *label = strdup(name);

	for (char *c = label; c && *c; c++)
		if ((unsigned char)*c <= 0x20 || *c == 0x7f)
			*c = '?';
	return label;
}

void record_hex_bytes(FILE *f, const void *data, uint32_t size)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	char chunk[512];
	size_t n = 0;

	for (uint32_t i = 0; i < size; i++) {
		chunk[n++] = digits[p[i] >> 4];
		chunk[n++] = digits[p[i] & 0xf];
		if (n == sizeof(chunk)) {
			fwrite(chunk, 1, n, f);
			n = 0;
		}
	}
	fwrite(chunk, 1, n, f);
}

void record_print_hex(FILE *f, const char *map, int cpu, const void *data,
		      uint32_t size)
{
	fprintf(f, "%s %d %u ", map, cpu, size);
	record_hex_bytes(f, data, size);
	fputc('\n', f);
}
