// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * main.c - the bpfsdk command: find the subcommand, route messages.
 *
 * Every failure ends in exactly one "error: ..." line on stderr. The
 * library reports its own failures through the log hook with the detail
 * only it knows (the section, the relocation, the verifier's log); the CLI
 * adds a line of its own only when the library said nothing.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

/* The version: loader/loader.mk passes debian/changelog's (LIB_VERSION). */
#ifndef BPFSDK_VERSION
#error "BPFSDK_VERSION is not defined: build with the Makefile, which takes it from debian/changelog"
#endif

int cli_verbosity;

static const struct cli_cmd *const commands[] = {
	&cmd_inspect,
	&cmd_run,
	&cmd_gen,
};

static const char main_usage[] =
"NAME\n"
"    bpfsdk - look inside BPF objects and run them\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk [-v]... COMMAND [ARGS]...\n"
"    bpfsdk help COMMAND\n"
"    bpfsdk --help | --version\n"
"\n"
"DESCRIPTION\n"
"    bpfsdk works on the ELF objects clang writes for BPF (clang -O2 -g\n"
"    -target bpf): it shows what an object holds, and it loads, attaches\n"
"    and streams the records of its programs, through the bpfsdk loader\n"
"    library.\n"
"\n"
"COMMANDS\n"
"%s"
"\n"
"    'bpfsdk help COMMAND' or 'bpfsdk COMMAND --help' shows the manual of\n"
"    a command.\n"
"\n"
"OPTIONS\n"
"    -v, --verbose\n"
"        Say what the loader does; twice (-vv), every step it takes.\n"
"        Applies to the command that follows.\n"
"\n"
"    -h, --help\n"
"        Show this text and exit.\n"
"\n"
"    --version\n"
"        Show the version and exit.\n"
"\n"
"EXIT STATUS\n"
"    0   success\n"
"    1   the object, the kernel or the system refused (e.g. a missing\n"
"        file, a malformed object, a program the verifier rejects)\n"
"    2   the command line is wrong\n"
"\n"
"    Every error is one line on standard error that starts with 'error: '.\n";

static void print_main_usage(FILE *f)
{
	char list[512];
	size_t len = 0;

	list[0] = '\0';
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"    %-9s %s\n", commands[i]->name,
					commands[i]->summary);
	fprintf(f, main_usage, list);
}

void cli_print_usage(const struct cli_cmd *cmd)
{
	fputs(cmd->usage, stdout);
}

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

/* ---- dispatch ---- */

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return cli_usage_error(NULL, "'help' takes one command, got %d",
				       argc - 1);
	cmd = find_command(argv[1]);
	if (!cmd) {
		if (strcmp(argv[1], "help") == 0) {
			print_main_usage(stdout);
			return EXIT_OK;
		}
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	}
	cli_print_usage(cmd);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;
	int i;

	cli_log_init(0);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			print_main_usage(stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("bpfsdk %s\n", BPFSDK_VERSION);
			return EXIT_OK;
		} else if (strcmp(a, "--verbose") == 0) {
			cli_verbosity++;
		} else if (a[1] == 'v' && strspn(a + 1, "v") == strlen(a + 1)) {
			cli_verbosity += (int)strlen(a + 1);
		} else {
			return cli_usage_error(NULL, "unknown option '%s'", a);
		}
	}
	if (i == argc)
		return cli_usage_error(NULL, "no command given");
	if (strcmp(argv[i], "help") == 0)
		return cmd_help(argc - i, argv + i);
	cmd = find_command(argv[i]);
	if (!cmd)
		return cli_usage_error(NULL, "unknown command '%s'", argv[i]);
	return cmd->main(argc - i, argv + i);
}
