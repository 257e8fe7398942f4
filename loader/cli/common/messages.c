// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * messages.c - what every subcommand says and how: its errors, and the
 * library's messages routed through the same lines.
 *
 * Every failure ends in exactly one "error: ..." line on stderr. The
 * library reports its own failures through the log hook with the detail
 * only it knows (the section, the relocation, the verifier's log); the CLI
 * adds a line of its own only when the library said nothing.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

int cli_verbosity;

/* ---- messages ---- */

static unsigned int lib_errors;
static bool demote_errors;
static bool warned;	/* the last headline was a warning: its detail follows */

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_error_unless_logged(const char *fmt, ...)
{
	va_list ap;

	if (lib_errors)
		return;
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_lib_errors_reset(void)
{
	lib_errors = 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (try 'bpfsdk %s --help')\n", cmd);
	else
		fputs(" (try 'bpfsdk --help')\n", stderr);
	return EXIT_USAGE;
}

/*
 * The library sends a multi-line report (the verifier's log) as a first
 * line followed by lines indented with spaces, all at error level: only
 * the first is an error of its own, the rest are its detail. A warning's
 * detail lines (a rejected program left out) follow it the same way.
 */
static void cli_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	char clean[1100];	/* the library's messages are at most 1023 */

	(void)ctx;
	/* messages quote names from the object file */
	msg = text_printable(msg, clean, sizeof(clean));
	if (level == BSDK_LOG_ERROR && demote_errors)
		level = BSDK_LOG_WARN;
	if (level == BSDK_LOG_ERROR && msg[0] != ' ')
		warned = false;
	else if (level == BSDK_LOG_WARN && msg[0] != ' ')
		warned = true;
	switch (level) {
	case BSDK_LOG_ERROR:
		if (msg[0] == ' ' && lib_errors) {
			fprintf(stderr, "%s\n", msg);
		} else {
			fprintf(stderr, "error: %s\n", msg);
			lib_errors++;
		}
		break;
	case BSDK_LOG_WARN:
		/* a warning's detail lines, as an error's */
		if (msg[0] == ' ' && warned)
			fprintf(stderr, "%s\n", msg);
		else
			fprintf(stderr, "warning: %s\n", msg);
		break;
	default:
		fprintf(stderr, "%s\n", msg);
		break;
	}
}

void cli_log_demote_errors(bool on)
{
	demote_errors = on;
}

void cli_log_init(int verbosity)
{
	bsdk_set_log(cli_log, NULL);
	bsdk_set_log_level(verbosity >= 2 ? BSDK_LOG_DEBUG :
			   verbosity == 1 ? BSDK_LOG_INFO : BSDK_LOG_WARN);
}
