// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * args.c - the values every tool's options take (a duration, a pid, a
 * command name) checked the same way, and the same message for a value
 * that is not one, or for an option getopt_long() could not place; and a
 * whole command line read from a table of options (bsdk_args_parse()).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tool.h"

int bsdk_arg_parse_seconds(const char *opt, const char *arg, double max, double *secs)
{
	char *end;
	double v;

	if (!opt || !arg || !secs)
		return fail(EINVAL);
	v = strtod(arg, &end);
	/* !(v > 0) also refuses NaN, which every comparison fails */
	if (*end || end == arg || !(v > 0) || v > max)
		return log_fail(EINVAL, "%s '%s' is not a number of seconds between 0 and %g",
				opt, arg, max);
	*secs = v;
	return 0;
}

int bsdk_arg_parse_pid(const char *opt, const char *arg, uint32_t *pid)
{
	char *end;
	long v;

	if (!opt || !arg || !pid)
		return fail(EINVAL);
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end || end == arg || errno || v <= 0 || v > INT_MAX)
		return log_fail(EINVAL, "%s '%s' is not a process id", opt, arg);
	*pid = (uint32_t)v;
	return 0;
}

int bsdk_arg_parse_comm(const char *opt, const char *arg, size_t size)
{
	if (!opt || !arg || size < 2)
		return fail(EINVAL);
	if (!*arg || strlen(arg) >= size)
		return log_fail(EINVAL, "%s '%s' is not a command name of 1 to %zu characters",
				opt, arg, size - 1);
	return 0;
}

int bsdk_arg_reject(const char *tool, int c, int next, char **argv)
{
	if (!tool || !argv || next < 1)
		return fail(EINVAL);
	if (c == -1)
		return log_fail(EINVAL, "unexpected argument '%s' (try '%s --help')",
				argv[next], tool);
	if (c == ':')
		return log_fail(EINVAL, "option '%s' needs a value (try '%s --help')",
				argv[next - 1], tool);
	return log_fail(EINVAL, "unknown option '%s' (try '%s --help')", argv[next - 1], tool);
}

/* A decimal integer in [o->min, o->max], for UINT and POW2. */
static int arg_parse_uint(const struct bsdk_opt *o, const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end || end == arg || errno || v < o->min || v > o->max ||
	    (o->type == BSDK_OPT_POW2 && (v & (v - 1))))
		return log_fail(EINVAL, "%s '%s' is not %s", opt, arg, o->what);
	*(unsigned int *)o->dest = (unsigned int)v;
	return 0;
}

/* Check and store one option's value (NULL for those that take none). */
static int arg_store(const struct bsdk_opt *o, const char *value)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case BSDK_OPT_FLAG:
		*(bool *)o->dest = true;
		return 0;
	case BSDK_OPT_VERBOSE:
		++*(int *)o->dest;
		return 0;
	case BSDK_OPT_STRING:
		*(const char **)o->dest = value;
		return 0;
	case BSDK_OPT_SECONDS:
		return bsdk_arg_parse_seconds(opt, value, (double)o->max, (double *)o->dest);
	case BSDK_OPT_PID:
		return bsdk_arg_parse_pid(opt, value, (uint32_t *)o->dest);
	case BSDK_OPT_COMM:
		if (bsdk_arg_parse_comm(opt, value, (size_t)o->max))
			return -EINVAL;
		*(const char **)o->dest = value;
		return 0;
	case BSDK_OPT_UINT:
	case BSDK_OPT_POW2:
		return arg_parse_uint(o, opt, value);
	case BSDK_OPT_CALL:
	case BSDK_OPT_ACTION:
		return o->parse(opt, value, o->dest);
	case BSDK_OPT_COMMON:
		break;	/* args_rows() leaves them out */
	}
	return fail(EINVAL);
}

static bool arg_takes_value(const struct bsdk_opt *o)
{
	return o->type != BSDK_OPT_FLAG && o->type != BSDK_OPT_VERBOSE &&
	       o->type != BSDK_OPT_ACTION;
}

/* Every row the tool takes: the chosen shared ones, then its own. Their number, or -1 for
 * more than ARGS_MAX, a row that lacks its dest or its parse, an integer row whose range
 * an unsigned int cannot hold or that has no words for its error line, or a BSDK_OPT_COMMON
 * row naming no shared option the tool chose. */
static int args_rows(const struct bsdk_args *args, struct bsdk_opt *rows)
{
	struct bsdk_opt common[ARGS_COMMON];
	struct bsdk_args_common none;
	int n = 0;

	if (args->common_opts && !args->common)
		return -1;
	args_common_rows(args->common ? args->common : &none, common);
	for (int i = 0; i < ARGS_COMMON; i++)
		if (args->common_opts & (1u << i))
			rows[n++] = common[i];
	for (const struct bsdk_opt *o = args->opts; o && o->name; o++) {
		if (o->type == BSDK_OPT_COMMON) {
			if (args_common_chosen(args, common, o->name) < 0)
				return -1;
			continue;
		}
		if (n == ARGS_MAX || (!o->dest && o->type < BSDK_OPT_CALL) ||
		    (o->type >= BSDK_OPT_CALL && !o->parse) ||
		    ((o->type == BSDK_OPT_UINT || o->type == BSDK_OPT_POW2) &&
		     (o->min < 0 || o->max > UINT_MAX || !o->what)))
			return -1;
		rows[n++] = *o;
	}
	return n;
}

/* getopt_long()'s tables from the rows: an option's val is its short name, or 256 + its row;
 * 'h' and "help" last. */
static void args_tables(const struct bsdk_opt *rows, int n, struct option *longopts,
			char *shorts)
{
	*shorts++ = ':';	/* a missing value is ':', not '?' */
	for (int i = 0; i < n; i++) {
		const struct bsdk_opt *o = &rows[i];

		longopts[i] = (struct option){ o->name, arg_takes_value(o) ? required_argument :
					       no_argument, NULL, o->short_name ? o->short_name :
					       256 + i };
		if (o->short_name) {
			*shorts++ = o->short_name;
			if (arg_takes_value(o))
				*shorts++ = ':';
		}
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ 0 };
	strcpy(shorts, "h");
}

/* The arguments after the options: the tool's operands, then nothing. */
static int args_operands(const struct bsdk_args *args, int argc, char **argv)
{
	int used;

	if (args->operands) {
		used = args->operands(argc - optind, argv + optind, args->ctx);
		if (used < 0)
			return used;
		optind += used < argc - optind ? used : argc - optind;
	}
	if (optind < argc)
		return bsdk_arg_reject(args->tool, -1, optind, argv);
	return 0;
}

int bsdk_args_parse(const struct bsdk_args *args, int argc, char **argv)
{
	struct option longopts[ARGS_MAX + 2];
	char shorts[3 * ARGS_MAX + 3];
	struct bsdk_opt rows[ARGS_MAX];
	int c, n, err, verbose = 0;

	if (!args || !args->tool || argc < 1 || !argv)
		return fail(EINVAL);
	n = args_rows(args, rows);
	if (n < 0)
		return fail(EINVAL);
	args_tables(rows, n, longopts, shorts);
	opterr = 0;
	optind = 0;	/* getopt_long() starts afresh: a second command line is read whole */
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct bsdk_opt *o = NULL;

		if (c == 'h') {
			if (args->usage_end)
				args_help_print(stdout, args);
			else
				fputs(args->usage ? args->usage : "", stdout);
			return BSDK_ARGS_EXIT;
		}
		for (int i = 0; i < n && !o; i++)
			if (c == (rows[i].short_name ? rows[i].short_name : 256 + i))
				o = &rows[i];
		if (!o)		/* ':' a value missing, '?' an unknown option */
			return bsdk_arg_reject(args->tool, c, optind, argv);
		err = arg_store(o, optarg);
		if (err)
			return err > 0 ? BSDK_ARGS_EXIT : err;
		if (o->type == BSDK_OPT_VERBOSE)
			verbose = *(int *)o->dest;
	}
	err = args_operands(args, argc, argv);
	if (err)
		return err;
	if (verbose)
		bsdk_set_log_level(verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	return 0;
}
