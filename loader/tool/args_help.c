// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * args_help.c - a tool's --help made from its table of options
 * (bsdk_args.usage_end set): its own usage text, then a line per option
 * from the rows the parser reads, so that the two cannot drift:
 *
 *   options:
 *     -p, --pid PID        only the process PID (filtered in the kernel)
 *         --metrics ADDR:PORT  serve the histogram to Prometheus while
 *                          tracing
 *
 * The names from column 3 (a long option alone from column 7, under the
 * others' long names), the help from column 24, or two spaces after
 * names too long for that; the help's lines continue at column 24.
 */
#include <string.h>

#include "tool/tool.h"

#define HELP_COLUMN 23	/* 0-based: where the help starts */

static void print_row(FILE *f, const struct bsdk_opt *names, const char *arg, const char *help)
{
	/* "  -p, --" or "      --", the name, " ARG" */
	size_t len = 8 + strlen(names->name) + (arg ? 1 + strlen(arg) : 0);

	if (names->short_name)
		fprintf(f, "  -%c, --%s", names->short_name, names->name);
	else
		fprintf(f, "      --%s", names->name);
	if (arg)
		fprintf(f, " %s", arg);
	if (!help || !*help) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "%*s", len + 2 <= HELP_COLUMN ? (int)(HELP_COLUMN - len) : 2, "");
	for (const char *line = help; *line;) {
		size_t n = strcspn(line, "\n");

		if (line != help)
			fprintf(f, "%*s", HELP_COLUMN, "");
		fprintf(f, "%.*s\n", (int)n, line);
		line += n + (line[n] == '\n');
	}
}

/* A shared option's help in the library's words: its row's, or for --object one that
 * names the tool's object. */
static const char *library_help(const struct bsdk_opt *row, const char *tool, char *buf,
				size_t size)
{
	if (row->help)
		return row->help;
	snprintf(buf, size, "load the BPF object at PATH instead of the one built\n"
		 "into the program (another build of %s.bpf.c)", tool);
	return buf;
}

void args_help_print(FILE *f, const struct bsdk_args *args)
{
	struct bsdk_opt common[ARGS_COMMON];
	struct bsdk_args_common none;
	bool placed[ARGS_COMMON] = { false };
	char buf[256];

	args_common_rows(args->common ? args->common : &none, common);
	fputs(args->usage ? args->usage : "", f);
	fputs("options:\n", f);
	for (const struct bsdk_opt *o = args->opts; o && o->name; o++) {
		int i = o->type == BSDK_OPT_COMMON ? args_common_chosen(args, common, o->name) : -1;

		if (o->type != BSDK_OPT_COMMON) {
			print_row(f, o, o->arg, o->help);
		} else if (i >= 0) {
			placed[i] = true;
			print_row(f, &common[i], o->arg ? o->arg : common[i].arg,
				  o->help ? o->help : library_help(&common[i], args->tool, buf,
								   sizeof(buf)));
		}
	}
	for (int i = 0; i < ARGS_COMMON; i++)
		if ((args->common_opts & (1u << i)) && !placed[i])
			print_row(f, &common[i], common[i].arg,
				  library_help(&common[i], args->tool, buf, sizeof(buf)));
	print_row(f, &(struct bsdk_opt){ .name = "help", .short_name = 'h' }, NULL, "this text");
	fputs(args->usage_end, f);
}
