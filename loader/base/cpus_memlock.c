// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * cpus_memlock.c - what the loader asks of the system besides bpf(): CPU lists
 * and the memlock limit.
 */
#include <sys/resource.h>

#include "base/base.h"

/* Parse a kernel CPU list such as "0-3,5,7-8"; *found (may be NULL) says
 * whether cpu is in it. Returns the highest CPU + 1, or negative errno. */
static int cpulist_read(const char *path, int cpu, bool *found)
{
	char buf[4096], *p = buf;
	int n = read_file(path, buf, sizeof(buf)), top = 0;

	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 1 << 20)
				return -EINVAL;
			p = end;
		}
		if (found && cpu >= lo && cpu <= hi)
			*found = true;
		if (hi + 1 > top)
			top = (int)(hi + 1);
		if (*p == ',')
			p++;
	}
	return top;
}

int bsdk_cpu_possible_count(void)
{
	static int cached;
	int n = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (n > 0)
		return n;
	n = cpulist_read("/sys/devices/system/cpu/possible", -1, NULL);
	if (n <= 0)
		return log_fail(n ? -n : EINVAL, "cannot read /sys/devices/system/cpu/possible: %s%s",
				bsdk_strerror(n ? n : -EINVAL), n == -EMFILE ? " (" FD_LIMIT_HINT ")" : "");
	__atomic_store_n(&cached, n, __ATOMIC_RELAXED);
	return n;
}

bool bsdk_cpu_is_online(int cpu)
{
	bool found = false;

	/* Unreadable, the list cannot say a CPU is offline: a caller that skipped
	 * it would silently lose what runs there, one that tries it gets ENODEV. */
	if (cpulist_read("/sys/devices/system/cpu/online", cpu, &found) < 0)
		return true;
	return found;
}

void bsdk_bump_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	/* Since 5.11 BPF memory is charged to the memory cgroup, and this
	 * limit no longer matters; in containers it often cannot be
	 * raised. Neither is worth more than a debug line. */
	if (setrlimit(RLIMIT_MEMLOCK, &r) < 0)
		log_debug("could not raise RLIMIT_MEMLOCK (%s); fine on kernels that account BPF memory to cgroups", bsdk_strerror(errno));
}
