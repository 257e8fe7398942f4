// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * sampling.c - bsdk_prog_attach_sampling(): a perf_event program on a
 * CPU-clock sampling event on every online CPU, the way profilers drive
 * them (perf record -F HZ): one event per CPU, counting that CPU's time
 * whatever runs on it, firing HZ times a second (freq = 1: the kernel
 * adjusts the period to the rate). Each CPU's event has a link of its own,
 * owned by the object like any other, handed to the caller if asked for.
 */
#include <stdio.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "hooks/hooks.h"

/* kernel.perf_event_max_sample_rate, or -1 when it cannot be read. */
static long max_sample_rate(void)
{
	char buf[32];
	long max;

	if (read_file("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%ld", &max) != 1)
		return -1;
	return max;
}

/* The CPU-clock event of cpu, bound to prog in link. 0 or -errno, said. */
static int sample_cpu(struct bsdk_prog *prog, struct bsdk_link *link, int cpu, unsigned int freq)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = freq,
		.freq = 1,
	};
	int pfd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	long max;

	if (pfd >= 0)
		return bind_perf_event(prog, link, pfd);
	max = max_sample_rate();
	if (pfd == -EINVAL && max > 0 && freq > max)
		return log_fail(EINVAL, "program '%s': %u samples a second is above the kernel's limit, kernel.perf_event_max_sample_rate = %ld: sample less often, or raise the limit (sysctl kernel.perf_event_max_sample_rate=%u)",
				prog->fn.name, freq, max, freq);
	return log_fail(-pfd, "program '%s': cannot open a CPU-clock event at %u Hz on CPU %d: %s%s",
			prog->fn.name, freq, cpu, bsdk_strerror(pfd),
			pfd == -EACCES || pfd == -EPERM ? " (sampling takes CAP_PERFMON, or root)" :
			pfd == -EMFILE ? " (the open files limit, ulimit -n, is reached: raise it)" : "");
}

int bsdk_prog_attach_sampling(struct bsdk_prog *prog, unsigned int freq, struct bsdk_link **links,
			       int max)
{
	int ncpus = bsdk_cpu_possible_count(), n = 0, err = 0;
	struct bsdk_link **made;

	if (!prog || prog->kind->prog_type != BPF_PROG_TYPE_PERF_EVENT || !freq || max < 0) {
		log_error("program '%s': sampling takes a perf_event program and a rate above 0 Hz",
			  prog ? prog->fn.name : "(null)");
		return fail(EINVAL);
	}
	if (ncpus <= 0) {
		log_error("program '%s': cannot count the CPUs (/sys/devices/system/cpu/possible): %s",
			  prog->fn.name, bsdk_strerror(ncpus ? ncpus : -EINVAL));
		return fail(ncpus ? -ncpus : EINVAL);
	}
	made = calloc((size_t)ncpus, sizeof(*made));
	if (!made)
		return fail(ENOMEM);
	for (int cpu = 0; cpu < ncpus && !err; cpu++) {
		struct bsdk_link *link;

		if (!bsdk_cpu_is_online(cpu))
			continue;
		link = link_new(prog);
		if (!link) {
			err = errno;
			break;
		}
		err = -sample_cpu(prog, link, cpu, freq);
		if (err) {
			link_free(link);
			break;
		}
		link_add(prog, link);
		made[n++] = link;
	}
	if (err) {	/* all or nothing */
		for (int i = 0; i < n; i++)
			bsdk_link_destroy(made[i]);
		free(made);
		return fail(err);
	}
	for (int i = 0; links && i < max; i++)
		links[i] = i < n ? made[i] : NULL;
	free(made);
	log_info("program '%s': sampling at %u Hz on %d CPU%s (CPU clock)", prog->fn.name, freq, n,
		 n == 1 ? "" : "s");
	return n;
}
