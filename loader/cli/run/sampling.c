// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * sampling.c - `bpfsdk run`'s default event for perf_event programs: a
 * CPU-clock sampling event on every online CPU at --freq HZ, the way
 * profilers (perf record -F, libbpf-bootstrap's profile) drive them, so
 * that an object with a SEC("perf_event") program runs with no user code.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

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

/* kernel.perf_event_max_sample_rate, or -1 when it cannot be read. */
static long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	long max = -1;

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return max;
}

static int open_cpu_clock(int cpu, unsigned int freq)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = freq,
		.freq = 1,
	};

	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int sampling_attach(struct bsdk_obj *obj, unsigned int freq)
{
	int ncpus = bsdk_cpu_possible_count(), attached = 0;
	struct bsdk_prog *prog = NULL;

	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		int cpus = 0;

		if (bsdk_prog_type(prog) != BPF_PROG_TYPE_PERF_EVENT || bsdk_prog_fd(prog) < 0)
			continue;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			struct bsdk_link *link;
			int fd;

			if (!bsdk_cpu_is_online(cpu))
				continue;
			fd = open_cpu_clock(cpu, freq);
			if (fd < 0) {
				int err = errno;
				long max = max_sample_rate();

				if (err == EINVAL && max > 0 && freq > max)
					cli_error("program '%s': --freq %u is above the kernel's limit, kernel.perf_event_max_sample_rate = %ld: lower --freq, or raise the limit (sysctl kernel.perf_event_max_sample_rate=%u)",
						  bsdk_prog_name(prog), freq, max, freq);
				else
					cli_error("program '%s': cannot open a CPU-clock event at %u Hz on CPU %d: %s%s",
						  bsdk_prog_name(prog), freq, cpu, strerror(err),
						  err == EACCES || err == EPERM ?
						  " (sampling takes CAP_PERFMON, or root)" :
						  err == EMFILE ? " (the open files limit, ulimit -n, is reached: raise it)" : "");
				return -1;
			}
			/* the link keeps a copy of the fd and the object the link */
			link = bsdk_prog_attach_perf_event(prog, fd);
			close(fd);
			if (!link) {
				cli_error_unless_logged("program '%s': cannot attach to CPU %d's clock: %s",
							bsdk_prog_name(prog), cpu, bsdk_strerror(errno));
				return -1;
			}
			cpus++;
		}
		if (cli_verbosity)
			fprintf(stderr, "program '%s': sampling at %u Hz on %d CPU%s (CPU clock)\n",
				bsdk_prog_name(prog), freq, cpus, cpus == 1 ? "" : "s");
		attached++;
	}
	return attached;
}
