// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_args.c - the option values of bsdk_arg_parse_*(): what each takes, what it refuses
 * and the one line it logs, and bsdk_arg_reject()'s lines for what getopt_long() could not
 * place.
 */
#include <errno.h>

#include "ext/ext.h"
#include "channel/channel.h"
#include "check.h"

static char logged[256];

static void capture(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	snprintf(logged, sizeof(logged), "%s%s", level == BSDK_LOG_ERROR ? "error: " : "", msg);
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
	return check_done();
}
