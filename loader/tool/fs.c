// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fs.c - what a tool asks of the file systems before it loads anything:
 * tracefs and the BPF file system mounted where the kernel's tools look
 * for them (bsdk_mount_fs()), and the path of a file installed beside its
 * own binary (bsdk_path_beside_exe()).
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "tool/tool.h"

static int mount_if_missing(const char *dir, const char *fstype, unsigned long magic)
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

int bsdk_path_beside_exe(char *buf, size_t size, const char *relative)
{
	ssize_t n = readlink("/proc/self/exe", buf, size);
	char *slash;
	size_t room;

	if (n < 0)
		return log_fail(errno, "cannot read '/proc/self/exe': %s", bsdk_strerror(errno));
	/* readlink() truncates silently: a full buffer may be cut short. The
	 * link is an absolute path, so it has a slash. */
	slash = (size_t)n < size ? memrchr(buf, '/', (size_t)n) : NULL;
	if (slash) {
		room = size - (size_t)(slash - buf);
		if ((size_t)snprintf(slash, room, "/%s", relative) < room)
			return 0;
	}
	return log_fail(ENAMETOOLONG, "the path of '%s' beside the running program does not fit in %zu bytes", relative, size);
}
