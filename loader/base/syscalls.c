// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * syscalls.c - the bpf() and perf_event_open() system calls, which glibc
 * does not wrap, returning -errno so callers need no errno dance; the few
 * bpf() commands every layer needs, and small reads of procfs and sysfs.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/base.h"

int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags)
{
	long ret = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);

	return ret < 0 ? -errno : (int)ret;
}

const char fd_limit_hint[] = FD_LIMIT_HINT;

/* What to add to a perf_event_open() error that a user can fix. */
const char *perf_open_hint(int err)
{
	if (err == -EACCES || err == -EPERM)
		return " (opening a perf event for a BPF program takes CAP_PERFMON, or root)";
	if (err == -EMFILE)
		return " (" FD_LIMIT_HINT ")";
	return "";
}

int bpf_map_update(int map_fd, const void *key, const void *value, uint64_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.value = (uint64_t)(uintptr_t)value;
	attr.flags = flags;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

int bpf_map_get_info(int map_fd, struct bpf_map_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)map_fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uint64_t)(uintptr_t)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

void kernel_name(char dst[BPF_OBJ_NAME_LEN], const char *src)
{
	size_t n = 0;

	for (; *src && n < BPF_OBJ_NAME_LEN - 1; src++) {
		char c = *src;

		dst[n++] = (c == '_' || c == '.' || (c >= '0' && c <= '9') ||
			    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ? c : '_';
	}
	dst[n] = '\0';
}

int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}
