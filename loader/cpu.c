// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * cpu.c - what the loader asks of the system besides bpf(): CPU lists,
 * the tracing and BPF file systems, the memlock limit.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"

/* Parse a kernel CPU list such as "0-3,5,7-8" and call fn for each CPU.
 * Returns the highest CPU + 1, or negative errno. */
static int cpulist_read(const char *path, void (*fn)(int cpu, void *ctx),
			void *ctx)
{
	char buf[4096], *p = buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC), top = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
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
		for (long c = lo; c <= hi; c++)
			if (fn)
				fn((int)c, ctx);
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
	int n;

	if (cached > 0)
		return cached;
	n = cpulist_read("/sys/devices/system/cpu/possible", NULL, NULL);
	if (n <= 0)
		return log_fail(n ? -n : EINVAL, "cannot read /sys/devices/system/cpu/possible: %s",
				bsdk_strerror(n ? n : -EINVAL));
	cached = n;
	return n;
}

struct cpu_query {
	int cpu;
	bool found;
};

static void cpu_match(int cpu, void *ctx)
{
	struct cpu_query *q = ctx;

	if (cpu == q->cpu)
		q->found = true;
}

bool bsdk_cpu_is_online(int cpu)
{
	struct cpu_query q = { cpu, false };

	if (cpulist_read("/sys/devices/system/cpu/online", cpu_match, &q) < 0)
		return cpu == 0;
	return q.found;
}

static int mount_if_missing(const char *dir, const char *fstype,
			    unsigned long magic)
{
	struct statfs st;

	if (statfs(dir, &st) == 0 && (unsigned long)st.f_type == magic)
		return 0;
	if (mount(fstype, dir, fstype, 0, NULL) < 0)
		return log_fail(errno, "cannot mount %s on '%s': %s", fstype, dir,
				bsdk_strerror(errno));
	log_info("mounted %s on '%s'", fstype, dir);
	return 0;
}

int bsdk_mount_fs(void)
{
	/* magic numbers from linux/magic.h */
	int err = mount_if_missing("/sys/kernel/tracing", "tracefs", 0x74726163);

	return mount_if_missing("/sys/fs/bpf", "bpf", 0xcafe4a11) ?: err;
}

void bsdk_bump_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	/* Since 5.11 BPF memory is charged to the memory cgroup, and this
	 * limit no longer matters; in containers it often cannot be
	 * raised. Neither is worth more than a debug line. */
	if (setrlimit(RLIMIT_MEMLOCK, &r) < 0)
		log_debug("could not raise RLIMIT_MEMLOCK (%s); fine on kernels that account BPF memory to cgroups",
			  bsdk_strerror(errno));
}
