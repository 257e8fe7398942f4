// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * args.c - the values every tool's options take (a duration, a pid, a
 * command name) checked the same way, and the same message for a value
 * that is not one, or for an option getopt_long() could not place.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

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

int bsdk_arg_reject(const char *tool, int c, int optind, char **argv)
{
	if (!tool || !argv || optind < 1)
		return fail(EINVAL);
	if (c == -1)
		return log_fail(EINVAL, "unexpected argument '%s' (try '%s --help')",
				argv[optind], tool);
	if (c == ':')
		return log_fail(EINVAL, "option '%s' needs a value (try '%s --help')",
				argv[optind - 1], tool);
	return log_fail(EINVAL, "unknown option '%s' (try '%s --help')", argv[optind - 1], tool);
}
