/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * internal.h - what the library's .c files share and users never see.
 */
#ifndef BPFSDK_INTERNAL_H
#define BPFSDK_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- log.c: the one place the library's messages go through. */
__attribute__((format(printf, 2, 3)))
void bsdk_log(enum bsdk_log_level level, const char *fmt, ...);

#define log_error(...) bsdk_log(BSDK_LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  bsdk_log(BSDK_LOG_WARN, __VA_ARGS__)
#define log_info(...)  bsdk_log(BSDK_LOG_INFO, __VA_ARGS__)
#define log_debug(...) bsdk_log(BSDK_LOG_DEBUG, __VA_ARGS__)

/* Set errno to err (positive) and return -err: the library's error idiom. */
static inline int fail(int err)
{
	errno = err;
	return -err;
}

/* Same for pointer-returning functions. */
static inline void *fail_ptr(int err)
{
	errno = err;
	return NULL;
}

/* ---- sys.c: thin syscall wrappers. Each returns the syscall's result or
 * -errno (never -1 with errno). */
int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
int bpf_map_update(int map_fd, const void *key, const void *value,
		   uint64_t flags);
int bpf_map_lookup(int map_fd, const void *key, void *value);

/* Checked arithmetic for sizes read from files: true on overflow. */
static inline int add_overflows(uint64_t a, uint64_t b, uint64_t *sum)
{
	return __builtin_add_overflow(a, b, sum);
}

/* true when [off, off + len) does not fit inside a region of size total. */
static inline int range_outside(uint64_t off, uint64_t len, uint64_t total)
{
	uint64_t end;

	return add_overflows(off, len, &end) || end > total;
}

#endif /* BPFSDK_INTERNAL_H */
