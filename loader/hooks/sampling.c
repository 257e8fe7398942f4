// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * sampling.c - bsdk_prog_attach_sampling(): a perf_event program on a
 * CPU-clock sampling event on every online CPU, the way profilers drive
 * them (perf record -F HZ): one event per CPU, counting that CPU's time
 * whatever runs on it, firing HZ times a second (freq = 1: the kernel
 * adjusts the period to the rate). One link holds every CPU's event, the
 * others hanging off the first (link->more), as a USDT probe's sites do.
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

struct bsdk_link *bsdk_prog_attach_sampling(struct bsdk_prog *prog, unsigned int freq)
{
	int ncpus = bsdk_cpu_possible_count(), cpus = 0, err = 0;
	struct bsdk_link *link, *cur;

	if (!prog || prog->kind->prog_type != BPF_PROG_TYPE_PERF_EVENT || !freq) {
		log_error("program '%s': sampling takes a perf_event program and a rate above 0 Hz",
			  prog ? prog->fn.name : "(null)");
		return fail_ptr(EINVAL);
	}
	if (ncpus <= 0) {
		log_error("program '%s': cannot count the CPUs (/sys/devices/system/cpu/possible): %s",
			  prog->fn.name, bsdk_strerror(ncpus ? ncpus : -EINVAL));
		return fail_ptr(ncpus ? -ncpus : EINVAL);
	}
	link = cur = link_new(prog);
	if (!link)
		return NULL;
	for (int cpu = 0; cpu < ncpus && !err; cpu++) {
		if (!bsdk_cpu_is_online(cpu))
			continue;
		if (cpus++) {
			cur->more = link_new(prog);
			if (!cur->more) {
				err = ENOMEM;
				break;
			}
			cur = cur->more;
		}
		err = -sample_cpu(prog, cur, cpu, freq);
	}
	if (err) {
		link_free(link);
		return fail_ptr(err);
	}
	log_info("program '%s': sampling at %u Hz on %d CPU%s (CPU clock)", prog->fn.name, freq,
		 cpus, cpus == 1 ? "" : "s");
	link_add(prog, link);
	return link;
}
