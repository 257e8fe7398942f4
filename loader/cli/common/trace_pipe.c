// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * trace_pipe.c - where bpf_printk() writes, and which programs call it:
 * `inspect` says so, `run` relays the lines (run/run_trace.c).
 */
#include <stdbool.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

/* Where tracefs is: its own mount, or under debugfs on older systems. */
static const char *const trace_pipes[] = {
	"/sys/kernel/tracing/trace_pipe",
	"/sys/kernel/debug/tracing/trace_pipe",
};

bool cli_prog_prints(const struct bsdk_prog *prog)
{
	size_t n = bsdk_prog_helper_count(prog);

	for (size_t i = 0; i < n; i++) {
		int id = bsdk_prog_helper_id(prog, i);

		if (id == BPF_FUNC_trace_printk || id == BPF_FUNC_trace_vprintk)
			return true;
	}
	return false;
}

const char *cli_trace_pipe_path(void)
{
	for (size_t i = 0; i < sizeof(trace_pipes) / sizeof(trace_pipes[0]); i++)
		if (access(trace_pipes[i], F_OK) == 0)
			return trace_pipes[i];
	return trace_pipes[0];
}
