// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * main.c - the bpfsdk command: its options, then the subcommand's
 * (common/messages.c routes what each says).
 */
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

/* The version: loader/loader.mk passes debian/changelog's (LIB_VERSION). */
#ifndef BPFSDK_VERSION
#error "BPFSDK_VERSION is not defined: build with the Makefile, which takes it from debian/changelog"
#endif

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
