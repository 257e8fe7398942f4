// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_sampling.c - `bpfsdk run`'s default event for perf_event programs: a
 * CPU-clock sampling event on every online CPU at --freq HZ, the way
 * profilers (perf record -F, libbpf-bootstrap's profile) drive them, so
 * that an object with a SEC("perf_event") program runs with no user code.
 */
#include <errno.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/run/run.h"

int sampling_hold(struct bsdk_obj *obj)
{
	struct bsdk_prog *prog = NULL;
	int n = 0;

	while ((prog = bsdk_obj_prog_next(obj, prog)))
		if (bsdk_prog_type(prog) == BPF_PROG_TYPE_PERF_EVENT && bsdk_prog_autoload(prog)) {
			bsdk_prog_set_autoload(prog, false);
			n++;
		}
	return n;
}

void sampling_release(struct bsdk_obj *obj)
{
	struct bsdk_prog *prog = NULL;

	while ((prog = bsdk_obj_prog_next(obj, prog)))
		if (bsdk_prog_type(prog) == BPF_PROG_TYPE_PERF_EVENT)
			bsdk_prog_set_autoload(prog, true);
}

/* Every loaded perf_event program on the CPU clock at freq Hz
 * (bsdk_prog_attach_sampling(): one event and link per online CPU, the
 * object owning the links); how many programs, or -1 after the error is
 * said. */
int sampling_attach(struct bsdk_obj *obj, unsigned int freq)
{
	struct bsdk_prog *prog = NULL;
	int attached = 0;

	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		int err;

		if (bsdk_prog_type(prog) != BPF_PROG_TYPE_PERF_EVENT || bsdk_prog_fd(prog) < 0)
			continue;
		err = bsdk_prog_attach_sampling(prog, freq, NULL, 0);
		if (err < 0) {
			cli_error_unless_logged("program '%s': cannot sample the CPU clock at %u Hz: %s",
						bsdk_prog_name(prog), freq, bsdk_strerror(err));
			return -1;
		}
		attached++;
	}
	return attached;
}
