// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * options.c - command-line options and numbers: a command's options are
 * rows of the library's struct bsdk_opt (the samples' bsdk_args_parse()
 * reads the same format), read here by a parser that returns each row's id,
 * and printed as its manual's OPTIONS section (cli_print_usage(): a
 * command's whole manual).
 *
 * getopt_long() prints its own messages in its own words and cannot name
 * an unknown option inside a "-abc" group reliably; this parser is small
 * enough to own and says every usage error the same way:
 * error: unknown option '--cuont' (try 'bpfsdk run --help').
 *
 * Accepted: --name, --name=VALUE, --name VALUE, -x, -xVALUE, -x VALUE,
 * grouped short flags (-vv), "--" to end the options, and arguments mixed
 * with options in any order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

void cli_opts_init(struct cli_opts *o, const char *cmd,
		   const struct bsdk_opt *options, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->options = options;
	o->argc = argc;
	o->argv = argv;
	o->next = 1;
}

static const struct bsdk_opt *find_long(const struct cli_opts *o,
					  const char *name, size_t len)
{
	for (const struct bsdk_opt *opt = o->options; opt->name; opt++)
		if (strlen(opt->name) == len && strncmp(opt->name, name, len) == 0)
			return opt;
	return NULL;
}

static const struct bsdk_opt *find_short(const struct cli_opts *o, char c)
{
	for (const struct bsdk_opt *opt = o->options; opt->name; opt++)
		if (opt->short_name && opt->short_name == c)
			return opt;
	return NULL;
}

/* Whether the row takes a value: every type but a flag, a -v count and an action. */
static bool takes_value(const struct bsdk_opt *opt)
{
	return opt->type != BSDK_OPT_FLAG && opt->type != BSDK_OPT_VERBOSE &&
	       opt->type != BSDK_OPT_ACTION;
}

static int parse_long(struct cli_opts *o, const char *arg, const char **value)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct bsdk_opt *opt = find_long(o, name, len);

	if (!opt) {
		cli_usage_error(o->cmd, "unknown option '--%.*s'", (int)len, name);
		return OPT_ERROR;
	}
	if (!takes_value(opt)) {
		if (eq) {
			cli_usage_error(o->cmd, "option '--%s' takes no value",
					opt->name);
			return OPT_ERROR;
		}
		*value = NULL;
		return opt->id;
	}
	if (eq) {
		*value = eq + 1;
	} else if (o->next < o->argc) {
		*value = o->argv[o->next++];
	} else {
		cli_usage_error(o->cmd, "option '--%s' needs a value", opt->name);
		return OPT_ERROR;
	}
	return opt->id;
}

/* One letter of a "-abc" group; the rest stays in o->shorts. */
static int parse_short(struct cli_opts *o, const char **value)
{
	const char c = *o->shorts++;
	const struct bsdk_opt *opt = find_short(o, c);

	if (!opt) {
		/* print a control byte as a number, not raw to the terminal */
		if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			cli_usage_error(o->cmd, "unknown option byte 0x%02x",
					(unsigned char)c);
		else
			cli_usage_error(o->cmd, "unknown option '-%c'", c);
		return OPT_ERROR;
	}
	if (!takes_value(opt)) {
		if (!*o->shorts)
			o->shorts = NULL;
		*value = NULL;
		return opt->id;
	}
	if (*o->shorts) {
		*value = o->shorts;
	} else if (o->next < o->argc) {
		*value = o->argv[o->next++];
	} else {
		cli_usage_error(o->cmd, "option '-%c' (--%s) needs a value", c,
				opt->name);
		return OPT_ERROR;
	}
	o->shorts = NULL;
	return opt->id;
}

int cli_opt_next(struct cli_opts *o, const char **value)
{
	const char *arg;

	if (o->shorts)
		return parse_short(o, value);
	if (o->next >= o->argc)
		return OPT_DONE;
	arg = o->argv[o->next++];
	if (o->only_args || arg[0] != '-' || arg[1] == '\0') {
		*value = arg;	/* "-" alone is an argument (stdin by custom) */
		return OPT_ARG;
	}
	if (arg[1] == '-') {
		if (arg[2] == '\0') {
			o->only_args = true;
			return cli_opt_next(o, value);
		}
		return parse_long(o, arg, value);
	}
	o->shorts = arg + 1;
	return parse_short(o, value);
}

/* "-s, --set NAME=VALUE" or "--durations". */
static void print_names(FILE *f, const struct bsdk_opt *opt)
{
	if (opt->short_name)
		fprintf(f, "-%c, ", opt->short_name);
	fprintf(f, "--%s", opt->name);
	if (opt->arg)
		fprintf(f, " %s", opt->arg);
}

void cli_print_options(FILE *f, const struct bsdk_opt *options)
{
	bool joined = false;	/* the line names a row without help already */

	fputs("OPTIONS\n", f);
	for (const struct bsdk_opt *opt = options; opt->name; opt++) {
		fputs(joined ? ", " : "    ", f);
		print_names(f, opt);
		joined = !opt->help;
		if (joined)
			continue;
		fputc('\n', f);
		for (const char *line = opt->help; *line;) {
			size_t len = strcspn(line, "\n");

			fprintf(f, len ? "        %.*s\n" : "\n", (int)len, line);
			line += len + (line[len] == '\n');
		}
		fputc('\n', f);
	}
	if (joined)
		fputc('\n', f);
}

void cli_print_usage(const struct cli_cmd *cmd)
{
	fputs(cmd->usage, stdout);
	if (!cmd->options)
		return;
	cli_print_options(stdout, cmd->options);
	fputs(cmd->usage_end, stdout);
}

bool cli_parse_u64(const char *s, uint64_t *value)
{
	unsigned long long v;
	char *end;
	int base = 10;

	/* strtoull would accept leading blanks, a sign and "0x" alone */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!(s[0] >= '0' && s[0] <= '9') &&
	    !(base == 16 && ((s[0] >= 'a' && s[0] <= 'f') ||
			     (s[0] >= 'A' && s[0] <= 'F'))))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*value = v;
	return true;
}
