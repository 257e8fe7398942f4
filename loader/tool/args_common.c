// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * args_common.c - the options most tools take (BSDK_ARGS_*): their rows,
 * which the parser (args.c) reads and --help (args_help.c) lists.
 */
#include <string.h>

#include "tool/tool.h"

void args_common_rows(struct bsdk_args_common *c, struct bsdk_opt *rows)
{
	const struct bsdk_opt common[ARGS_COMMON] = {
		{ "pid", 'p', BSDK_OPT_PID, .dest = &c->pid, .arg = "PID",
		  .help = "only the process PID (filtered in the kernel)" },
		{ "comm", 'c', BSDK_OPT_COMM, .dest = &c->comm, .max = 16, .arg = "COMM",
		  .help = "only processes whose command name is COMM" },
		{ "duration", 'd', BSDK_OPT_SECONDS, .dest = &c->duration, .max = 86400,
		  .arg = "SEC", .help = "stop after SEC seconds (default: until Ctrl-C)" },
		{ "json", 'j', BSDK_OPT_FLAG, .dest = &c->json,
		  .help = "one JSON object per line instead of columns" },
		{ "object", 'o', BSDK_OPT_STRING, .dest = &c->object, .arg = "PATH",
		  .help = NULL /* args_help.c's: it names the tool's object */ },
		{ "verbose", 'v', BSDK_OPT_VERBOSE, .dest = &c->verbose,
		  .help = "what the loader does; twice for debug messages" },
	};

	memcpy(rows, common, sizeof(common));
}

int args_common_chosen(const struct bsdk_args *args, const struct bsdk_opt *common,
		       const char *name)
{
	for (int i = 0; i < ARGS_COMMON; i++)
		if ((args->common_opts & (1u << i)) && strcmp(common[i].name, name) == 0)
			return i;
	return -1;
}
