// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * table.c - text output: tables with a header line, then rows, columns
 * as wide as their widest cell (cells are formatted when added and printed
 * at the end, since a column's width is known only after its last row);
 * and strings from object files made safe for a terminal.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common/cli.h"

struct table {
	const char *const *headers;
	const char *align;
	size_t ncols;
	char **cells;		/* row-major, ncols per row */
	size_t ncells, cap;
	bool failed;		/* a cell could not be added: printing refuses */
};

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

void text_clean(char *s)
{
	for (; *s; s++)
		if (is_control((unsigned char)*s))
			*s = '?';
}

const char *text_printable(const char *s, char *buf, size_t size)
{
	const char *p = s;

	while (*p && !is_control((unsigned char)*p))
		p++;
	if (!*p || size == 0)
		return s;
	snprintf(buf, size, "%s", s);
	text_clean(buf);
	return buf;
}

struct table *table_new(const char *const *headers, size_t ncols,
			const char *align)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->headers = headers;
	t->ncols = ncols;
	t->align = align;
	return t;
}

bool table_cell(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *cell;
	int n;

	if (t->ncells == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16 * t->ncols;
		char **cells = realloc(t->cells, cap * sizeof(*cells));

		if (!cells) {
			t->failed = true;
			return false;
		}
		t->cells = cells;
		t->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&cell, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->failed = true;
		return false;
	}
	text_clean(cell);
	t->cells[t->ncells++] = cell;
	return true;
}

size_t table_rows(const struct table *t)
{
	return t->ncells / t->ncols;
}

static void print_row(const struct table *t, FILE *f, int indent,
		      const char *const *row, const size_t *width)
{
	fprintf(f, "%*s", indent, "");
	for (size_t c = 0; c < t->ncols; c++) {
		bool last = c + 1 == t->ncols;
		int w = (int)width[c];

		if (t->align[c] == 'r')
			fprintf(f, "%*s", w, row[c]);
		else if (last)	/* no trailing blanks */
			fputs(row[c], f);
		else
			fprintf(f, "%-*s", w, row[c]);
		fputs(last ? "\n" : "  ", f);
	}
}

int table_print(const struct table *t, FILE *f, int indent)
{
	size_t *width = t->failed ? NULL : calloc(t->ncols, sizeof(*width));
	size_t nrows = table_rows(t);

	/* a table with a cell missing would shift every cell after it */
	if (!width)
		return -ENOMEM;
	for (size_t c = 0; c < t->ncols; c++)
		width[c] = strlen(t->headers[c]);
	for (size_t i = 0; i < nrows * t->ncols; i++) {
		size_t len = strlen(t->cells[i]);

		if (len > width[i % t->ncols])
			width[i % t->ncols] = len;
	}
	print_row(t, f, indent, t->headers, width);
	for (size_t r = 0; r < nrows; r++)
		print_row(t, f, indent, (const char *const *)&t->cells[r * t->ncols],
			  width);
	free(width);
	return 0;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}
