// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_args.c - the option values of bsdk_arg_parse_*(): what each takes, what it refuses
 * and the one line it logs, and bsdk_arg_reject()'s lines for what getopt_long() could not
 * place; bsdk_args_parse(), a command line read from a table: every kind of row, the shared
 * options (and BSDK_ARGS_TRACER, the set a tracer takes), operands, --help (and the options
 * it lists from the rows) and the errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "object/object.h"
#include "channel/channel.h"
#include "check.h"

static char logged[256];

static void capture(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	snprintf(logged, sizeof(logged), "%s%s", level == BSDK_LOG_ERROR ? "error: " : "", msg);
}

struct cmdline {
	struct bsdk_args_common common;
	bool flag;
	const char *str;
	unsigned int num, pages;
	double every;
	const char *mode;
	int actions, nops;
};

static struct cmdline cl;

static int parse_mode(const char *name, const char *value, void *dest)
{
	if (strcmp(value, "fast") && strcmp(value, "slow")) {
		snprintf(logged, sizeof(logged), "error: %s '%s' is not fast or slow", name, value);
		return -EINVAL;
	}
	*(const char **)dest = value;
	return 0;
}

static int count_action(const char *name, const char *value, void *dest)
{
	(void)name;
	check(value == NULL, "an action gets no value");
	return ++*(int *)dest == 2 ? BSDK_ARGS_EXIT : 0;
}

/* At most one operand, a number of seconds. */
static int operands(int n, char **args, void *ctx)
{
	struct cmdline *c = ctx;

	c->nops = n;
	if (n > 0 && bsdk_arg_parse_seconds("EVERY", args[0], 60, &c->every))
		return -EINVAL;
	return n > 0;
}

static const struct bsdk_opt rows[] = {
	{ "flag", 'f', BSDK_OPT_FLAG, .dest = &cl.flag },
	{ "str", 0, BSDK_OPT_STRING, .dest = &cl.str },
	{ "num", 'n', BSDK_OPT_UINT, .dest = &cl.num, .min = 2, .max = 9, .what = "from 2 to 9" },
	{ "pages", 'P', BSDK_OPT_POW2, .dest = &cl.pages, .min = 1, .max = 64,
	  .what = "a power of two up to 64" },
	{ "mode", 'm', BSDK_OPT_CALL, .dest = &cl.mode, .parse = parse_mode },
	{ "act", 'a', BSDK_OPT_ACTION, .dest = &cl.actions, .parse = count_action },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "tool", .usage = "usage: tool\n", .opts = rows, .common = &cl.common,
	.common_opts = BSDK_ARGS_PID | BSDK_ARGS_COMM | BSDK_ARGS_DURATION | BSDK_ARGS_JSON |
		       BSDK_ARGS_VERBOSE,
	.operands = operands, .ctx = &cl,
};

/* Parse a NULL-terminated list of arguments after "tool"; logged is cleared first. */
static int parse(const char *first, ...)
{
	char *argv[32] = { "tool" };
	int argc = 1;
	va_list ap;

	memset(&cl, 0, sizeof(cl));
	logged[0] = 0;
	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	return bsdk_args_parse(&args, argc, argv);
}

static void test_table(void)
{
	check_i64(parse("-f", "--str=x", "-n5", "--pages", "8", "-m", "slow", "-p", "42",
			"--comm", "bash", "-d", "1.5", "-jvv", "--", "2", NULL), 0, "every kind of row");
	check(cl.flag && cl.str && strcmp(cl.str, "x") == 0, "flag and string (%d, %s)", cl.flag,
	      cl.str ? cl.str : "NULL");
	check_u64(cl.num, 5, "-n5");
	check_u64(cl.pages, 8, "--pages 8");
	check_str(cl.mode ? cl.mode : "NULL", "slow", "the CALL row stored its value");
	check_u64(cl.common.pid, 42, "the shared --pid");
	check_str(cl.common.comm ? cl.common.comm : "NULL", "bash", "the shared --comm");
	check(cl.common.duration == 1.5 && cl.common.json, "the shared -d and -j");
	check_i64(cl.common.verbose, 2, "-vv counted");
	check(cl.every == 2 && cl.nops == 1, "the operand after -- (%g, %d)", cl.every, cl.nops);
	check_str(logged, "", "nothing logged for a good command line");
	bsdk_set_log_level(BSDK_LOG_WARN);	/* -vv raised it */

	check_i64(parse("--num", "10", NULL), -EINVAL, "UINT above its range");
	check_str(logged, "error: --num '10' is not from 2 to 9", "the UINT line names the long option");
	check_i64(parse("-P", "12", NULL), -EINVAL, "POW2 not a power of two");
	check_str(logged, "error: --pages '12' is not a power of two up to 64", "the POW2 line");
	check_i64(parse("--mode", "medium", NULL), -EINVAL, "CALL refuses");
	check_str(logged, "error: --mode 'medium' is not fast or slow", "the CALL's own line");
	check_i64(parse("--pid", "0", NULL), -EINVAL, "the shared --pid checks");
	check_str(logged, "error: --pid '0' is not a process id", "its line");
	check_i64(parse("--object", "x.o", NULL), -EINVAL, "a shared option not chosen is unknown");
	check_str(logged, "error: unknown option '--object' (try 'tool --help')", "its line");
	check_i64(parse("-n", NULL), -EINVAL, "a missing value");
	check_str(logged, "error: option '-n' needs a value (try 'tool --help')", "its line");
	check_i64(parse("1", "2", NULL), -EINVAL, "an operand too many");
	check_str(logged, "error: unexpected argument '2' (try 'tool --help')", "its line");
	check_i64(parse("0", NULL), -EINVAL, "an operand refused");
	check_str(logged, "error: EVERY '0' is not a number of seconds between 0 and 60", "its line");
	check_i64(parse("-a", "-f", NULL), 0, "an action that goes on");
	check(cl.actions == 1 && cl.flag, "the action ran once, then -f");
	check_i64(parse("-a", "--act", "--bogus", NULL), BSDK_ARGS_EXIT, "an action that ends it");
	check_str(logged, "", "and what follows is not read");
	check_i64(bsdk_args_parse(NULL, 1, (char *[]){ "tool", NULL }), -EINVAL, "NULL args");
	check_i64(bsdk_args_parse(&(struct bsdk_args){ .tool = "tool", .opts = (struct bsdk_opt[]){
			{ "big", 'b', BSDK_OPT_UINT, .dest = &cl.num, .max = 1L << 40, .what = "x" },
			{ 0 } } }, 1, (char *[]){ "tool", NULL }), -EINVAL,
		  "a UINT row whose range an unsigned int cannot hold");
}

/* BSDK_ARGS_TRACER: the five shared options a tracer takes, and not --comm. */
static void test_tracer_set(void)
{
	struct bsdk_args_common c = { 0 };
	const struct bsdk_args tracer = { .tool = "tracer", .usage = "usage: tracer\n",
		.opts = (struct bsdk_opt[]){ { 0 } }, .common = &c, .common_opts = BSDK_ARGS_TRACER };
	char *ok[] = { "tracer", "-p", "9", "-d", "2", "-j", "-o", "x.o", "-v", NULL };
	char *comm[] = { "tracer", "-c", "bash", NULL };

	logged[0] = 0;
	check_i64(bsdk_args_parse(&tracer, 9, ok), 0, "BSDK_ARGS_TRACER: -p -d -j -o -v");
	check(c.pid == 9 && c.duration == 2 && c.json && c.object && c.verbose == 1,
	      "each landed in the common values");
	bsdk_set_log_level(BSDK_LOG_WARN);	/* -v raised it */
	check_i64(bsdk_args_parse(&tracer, 3, comm), -EINVAL, "--comm is not in the set");
	check_str(logged, "error: unknown option '-c' (try 'tracer --help')", "its line");
}

/* --help with usage_end: the options listed from the rows, in the table's order; the shared
 * ones placed by BSDK_OPT_COMMON rows with their own words, the rest after them with the
 * library's. */
static void test_help(void)
{
	struct bsdk_args_common c = { 0 };
	unsigned int n = 0;
	const struct bsdk_opt opts[] = {
		{ "number", 'n', BSDK_OPT_UINT, .dest = &n, .max = 9, .what = "a digit",
		  .arg = "N", .help = "how many\nof them" },
		{ .name = "pid", .type = BSDK_OPT_COMMON, .help = "only process PID's children" },
		{ "listen-address", 0, BSDK_OPT_STRING, .dest = &c.object, .arg = "ADDR:PORT",
		  .help = "a long name" },
		{ 0 },
	};
	const struct bsdk_args help = { .tool = "tool", .usage = "usage: tool\n\n", .opts = opts,
		.common = &c, .common_opts = BSDK_ARGS_PID | BSDK_ARGS_DURATION,
		.usage_end = "\nthe end\n" };
	const char *want =
		"usage: tool\n"
		"\n"
		"options:\n"
		"  -n, --number N       how many\n"
		"                       of them\n"
		"  -p, --pid PID        only process PID's children\n"
		"      --listen-address ADDR:PORT  a long name\n"
		"  -d, --duration SEC   stop after SEC seconds (default: until Ctrl-C)\n"
		"  -h, --help           this text\n"
		"\n"
		"the end\n";
	char *argv[] = { "tool", "--help", NULL }, out[1024] = "";
	FILE *f = tmpfile();
	int saved = dup(1);
	size_t len;
	int ret;

	check(f && saved >= 0, "a file for stdout");
	fflush(stdout);
	dup2(fileno(f), 1);
	ret = bsdk_args_parse(&help, 2, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	check_i64(ret, BSDK_ARGS_EXIT, "--help exits");
	rewind(f);
	len = fread(out, 1, sizeof(out) - 1, f);
	out[len] = 0;
	fclose(f);
	check_str(out, want, "the options made from the rows");

	const struct bsdk_opt stray[] = { { .name = "comm", .type = BSDK_OPT_COMMON }, { 0 } };
	const struct bsdk_args bad = { .tool = "tool", .opts = stray, .common = &c,
		.common_opts = BSDK_ARGS_PID };
	check_i64(bsdk_args_parse(&bad, 1, argv), -EINVAL,
		  "a BSDK_OPT_COMMON row naming a shared option the tool did not choose");
}

int main(void)
{
	static const char *const bad_secs[] = { "", "0", "-1", "abc", "5s", "nan", "86401", "1e9" };
	static const char *const bad_pids[] = { "", "0", "-3", "12x", "2147483648", "99999999999999999999" };
	char *argv[] = { "tool", "-d", "--frob", "extra", NULL };
	double secs = -1;
	uint32_t pid = 7;

	bsdk_set_log(capture, NULL);

	check_i64(bsdk_arg_parse_seconds("--duration", "2.5", 86400, &secs), 0, "2.5 seconds");
	check(secs == 2.5, "2.5 read (%g)", secs);
	check_i64(bsdk_arg_parse_seconds("--duration", "86400", 86400, &secs), 0, "the maximum");
	for (size_t i = 0; i < sizeof(bad_secs) / sizeof(bad_secs[0]); i++) {
		secs = 3;
		logged[0] = 0;
		check_i64(bsdk_arg_parse_seconds("--duration", bad_secs[i], 86400, &secs), -EINVAL,
			  "seconds '%s' refused", bad_secs[i]);
		check(secs == 3, "seconds '%s' leaves the value alone", bad_secs[i]);
	}
	check_str(logged, "error: --duration '1e9' is not a number of seconds between 0 and 86400",
		  "the seconds message");
	bsdk_arg_parse_seconds("INTERVAL", "0", 3600, &secs);
	check_str(logged, "error: INTERVAL '0' is not a number of seconds between 0 and 3600",
		  "the message names the maximum given");

	check_i64(bsdk_arg_parse_pid("--pid", "4242", &pid), 0, "pid 4242");
	check_u64(pid, 4242, "pid read");
	check_i64(bsdk_arg_parse_pid("--pid", "2147483647", &pid), 0, "INT_MAX");
	for (size_t i = 0; i < sizeof(bad_pids) / sizeof(bad_pids[0]); i++) {
		pid = 7;
		check_i64(bsdk_arg_parse_pid("--pid", bad_pids[i], &pid), -EINVAL,
			  "pid '%s' refused", bad_pids[i]);
		check_u64(pid, 7, "pid '%s' leaves the value alone", bad_pids[i]);
	}
	check_str(logged, "error: --pid '99999999999999999999' is not a process id", "the pid message");

	check_i64(bsdk_arg_parse_comm("--comm", "bash", 16), 0, "comm bash");
	check_i64(bsdk_arg_parse_comm("--comm", "fifteen_chars_x", 16), 0, "15 characters fit");
	check_i64(bsdk_arg_parse_comm("--comm", "sixteen_chars_xx", 16), -EINVAL, "16 do not");
	check_str(logged, "error: --comm 'sixteen_chars_xx' is not a command name of 1 to 15 characters",
		  "the comm message");
	check_i64(bsdk_arg_parse_comm("--name", "", 16), -EINVAL, "an empty name");

	/* getopt_long() left optind after the option it could not place. */
	check_i64(bsdk_arg_reject("tool", ':', 2, argv), -EINVAL, "a missing value");
	check_str(logged, "error: option '-d' needs a value (try 'tool --help')", "the missing-value line");
	bsdk_arg_reject("tool", '?', 3, argv);
	check_str(logged, "error: unknown option '--frob' (try 'tool --help')", "the unknown-option line");
	bsdk_arg_reject("tool", -1, 3, argv);
	check_str(logged, "error: unexpected argument 'extra' (try 'tool --help')", "the extra-argument line");

	logged[0] = 0;
	check_i64(bsdk_arg_parse_pid("--pid", NULL, &pid), -EINVAL, "NULL value");
	check_i64(bsdk_arg_reject(NULL, ':', 2, argv), -EINVAL, "NULL tool");
	check_str(logged, "", "NULL arguments log nothing");

	test_table();
	test_tracer_set();
	test_help();
	return check_done();
}
