// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_strings.c - the BTF printer's char arrays that hold several strings,
 * as programs pack a command line.
 */
#include <string.h>

#include "ext/btf_print_out.h"

/* Whether a string piece is text: no control byte (binary leftovers are). */
static bool is_text(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/*
 * A char array the record stops inside - the program sent only the bytes it
 * filled, as execsnoop sends argv - holding several NUL-terminated strings:
 * each of them, JSON as an array of strings (["ls","-l"]), text as quoted
 * strings separated by blanks in brackets (["ls" "-l"]), a column bare
 * (ls -l). What follows the last NUL is left out (no program ends a string
 * without one; a perf ring pads records with up to 7 bytes of what it held
 * before), and so are trailing pieces that are empty or not text. False,
 * printing nothing, when there is only one string: a plain C string.
 */
bool pr_out_packed(struct pr *p, const unsigned char *s, size_t n)
{
	size_t end = n, count = 0;
	const unsigned char *last = NULL;

	while (end && s[end - 1] != 0)	/* the unterminated tail */
		end--;
	/* drop trailing empty or binary pieces */
	while (end) {
		size_t start = end - 1;

		while (start && s[start - 1] != 0)
			start--;
		if (end - 1 > start && is_text(s + start, end - 1 - start))
			break;
		end = start;
	}
	for (size_t i = 0; i < end; i++)
		if (s[i] == 0)
			count++;
	if (count < 2)
		return false;
	if (p->fmt != BSDK_BTF_COLUMNS)	/* a column holds them bare */
		pr_outc(p, '[');
	for (size_t i = 0; i < end;) {
		const unsigned char *nul = memchr(s + i, 0, end - i);
		size_t len = (size_t)(nul - (s + i));

		if (last)
			pr_outc(p, p->fmt == BSDK_BTF_JSON ? ',' : ' ');
		pr_out_str(p, s + i, len, p->fmt != BSDK_BTF_COLUMNS);
		last = nul;
		i += len + 1;
		if (!p->budget)
			break;
	}
	if (p->fmt != BSDK_BTF_COLUMNS)
		pr_outc(p, ']');
	return true;
}

