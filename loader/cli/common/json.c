// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * json.c - write one JSON document (RFC 8259), indented by two spaces.
 *
 * The writer tracks only whether the current container already has an
 * item, which is all that commas need. Strings come from object files and
 * may hold anything: every byte sequence is turned into a valid JSON
 * string, by bsdk_json_string().
 */
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Before any value: the comma and the line break its container needs. */
static void value_start(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->has_items[j->depth])
		fputc(',', j->f);
	j->has_items[j->depth] = true;
	indent(j);
}

static void open_container(struct json *j, char c)
{
	value_start(j);
	fputc(c, j->f);
	/* Deeper than any document this program writes; stay valid anyway
	 * by not indenting further rather than overflowing has_items. */
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	bool had_items = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had_items)
		indent(j);
	fputc(c, j->f);
}

void json_object_begin(struct json *j) { open_container(j, '{'); }
void json_object_end(struct json *j) { close_container(j, '}'); }
void json_array_begin(struct json *j) { open_container(j, '['); }
void json_array_end(struct json *j) { close_container(j, ']'); }

/* Strings go through the library's one writer, bsdk_json_string(): its
 * policy for bytes that are not UTF-8 (\udcXX) is the one every JSON line
 * of the library, the tool and the samples follows. */
static void write_string(FILE *f, const char *s)
{
	bsdk_json_string(f, s, strlen(s));
}

void json_key(struct json *j, const char *key)
{
	value_start(j);
	write_string(j->f, key);
	fputs(": ", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	value_start(j);
	if (s)
		write_string(j->f, s);
	else
		fputs("null", j->f);
}

void json_uint(struct json *j, uint64_t v)
{
	value_start(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_bool(struct json *j, bool v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->f);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}

char *json_quote(const char *s)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	write_string(f, s);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
