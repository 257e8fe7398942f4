// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_strings.c - the BTF printer's char arrays that hold several strings,
 * as programs pack a command line.
 */
#include <string.h>

#include "readers/print/btf_print_out.h"

/* Whether a string piece is text: no control byte but the blanks a real argument holds (an
 * awk or sh -c program has tabs and newlines); binary leftovers have others. */
static bool is_text(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((s[i] < 0x20 && !(s[i] >= '\t' && s[i] <= '\r')) || s[i] == 0x7f)
			return false;
	return true;
}

/*
 * A command line as programs pack it - execsnoop copies each argument, NUL
 * and all, one after the other into a char array and sends only the bytes
 * it filled: each string, JSON as an array of strings (["ls","-l"]), text
 * as quoted strings separated by blanks in brackets (["ls" "-l"]), a column
 * bare (ls -l). Always a list, of one string or none too, so that a reader
 * never meets a string where a list was. What follows the last NUL is left
 * out (no program ends a string without one; a perf ring pads records with
 * up to 7 bytes of what it held before), and so are trailing pieces that
 * are empty or not text.
 */
void pr_out_strings(struct pr *p, const unsigned char *s, size_t n)
{
	size_t end = n;
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
}

static bool is_count(const struct btf *btf, const struct btf_member *m, const char *name,
		     const char *suffix)
{
	const char *mn = btf_name(btf, (const void *)m);
	const struct btf_type *t = btf_skip_mods(btf, m->type, NULL);
	size_t n = strlen(name);

	return t && btf_kind(t) == BTF_KIND_INT && strncmp(mn, name, n) == 0 &&
	       strcmp(mn + n, suffix) == 0;
}

bool pr_argv_member(const struct btf *btf, const struct btf_type *parent, const char *name,
		    uint32_t type)
{
	const struct btf_member *m = btf_members(parent);
	const struct btf_type *t = btf_skip_mods(btf, type, NULL);
	int kind = t ? btf_kind(t) : 0;

	/* only what value() prints as an aggregate reads p->argv: an integer member, most of a
	 * record's, is no command line whatever its name, and costs no scan of the others */
	if (kind != BTF_KIND_ARRAY && kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION &&
	    kind != BTF_KIND_DATASEC)
		return false;
	if (strcmp(name, "args") == 0 || strcmp(name, "argv") == 0)
		return true;
	for (uint16_t i = 0; i < btf_vlen(parent); i++)
		if (is_count(btf, &m[i], name, "_count") || is_count(btf, &m[i], name, "_cnt"))
			return true;
	return false;
}

