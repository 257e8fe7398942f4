/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * base.h - the bottom layer, what every other file of the library uses:
 * the log, the error idiom, the system call wrappers and a few small
 * utilities. It knows nothing of objects, BTF or rings.
 */
#ifndef BPFSDK_BASE_H
#define BPFSDK_BASE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The kernel's limit on instructions in one loaded program (kernel-private
 * BPF_COMPLEXITY_LIMIT_INSNS, 1M since 5.2). */
#define BPF_COMPLEXITY_LIMIT_INSNS 1000000

/* ---- closest.c: "did you mean", for every layer (bsdk_name_closest()
 * for a list of names). The entry of directory dir closest to word into
 * out; 0, or -ENOENT when none is close. */
int name_closest_in_dir(const char *dir, const char *word, char *out, size_t size);

/* ---- log.c: the one place the library's messages go through. */
__attribute__((format(printf, 2, 3)))
void bsdk_log(enum bsdk_log_level level, const char *fmt, ...);

#define log_error(...) bsdk_log(BSDK_LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  bsdk_log(BSDK_LOG_WARN, __VA_ARGS__)
#define log_info(...)  bsdk_log(BSDK_LOG_INFO, __VA_ARGS__)
#define log_debug(...) bsdk_log(BSDK_LOG_DEBUG, __VA_ARGS__)

/* While a capture is on, error messages go into buf (the first one kept)
 * instead of to the log: for a caller that reports the failure itself, in
 * one line of its own. */
void log_capture_begin(char *buf, size_t size);
void log_capture_end(void);
/* log.c: while on, error messages are sent as warnings: the detail lines
 * of a warning (a verifier rejection that leaves a program out) */
void log_errors_as_warnings(bool on);

/* Set errno to err (positive) and return -err: the library's error idiom. */
static inline int fail(int err)
{
	errno = err;
	return -err;
}

static inline void *fail_ptr(int err)	/* for pointer-returning functions */
{
	errno = err;
	return NULL;
}

/* log_error(), then fail(err): `return log_fail(EINVAL, "...", ...);` says
 * what went wrong and returns it in one statement, as git's error() does. */
#define log_fail(err, ...) (log_error(__VA_ARGS__), fail(err))

/* ---- syscalls.c: thin syscall wrappers. Each returns the syscall's result or
 * -errno (never -1 with errno). */
int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
/* " (opening a perf event ... takes CAP_PERFMON ...)" for EPERM/EACCES, the
 * open files limit for EMFILE, "" otherwise: appended to the error. */
const char *perf_open_hint(int err);
/* What to do about EMFILE: "the open files limit, ulimit -n, is reached: raise it". */
#define FD_LIMIT_HINT "the open files limit, ulimit -n, is reached: raise it"
extern const char fd_limit_hint[];
int bpf_map_update(int map_fd, const void *key, const void *value, uint64_t flags);
int bpf_map_get_info(int map_fd, struct bpf_map_info *info);
/* The name the kernel keeps of a map or program: the first 15 characters,
 * each outside [A-Za-z0-9_.] replaced by '_'. The full name stays ours. */
void kernel_name(char dst[BPF_OBJ_NAME_LEN], const char *src);
/* Read a small file (a sysfs or procfs value) into buf, NUL-terminated: its length, or -errno. */
int read_file(const char *path, char *buf, size_t size);

/* ---- clock.c */
uint64_t now_ns(void);	/* CLOCK_MONOTONIC */

/* ---- opts.c */
/* Copy the caller's opts of src_sz bytes into dst of size bytes: an older,
 * smaller struct (down to min_sz) is fine, a newer one when the bytes this
 * library does not know are zero, so fields can be appended. */
int opts_copy(void *dst, size_t size, const void *src, size_t src_sz,
	      size_t min_sz, const char *who);

/* ---- utf8.c: the length of the valid UTF-8 sequence of 2 to 4 bytes at p
 * (end excluded), 0 if there is none (RFC 3629); ASCII is the caller's. */
size_t utf8_len(const unsigned char *p, const unsigned char *end);

/* ---- escape.c: the n bytes at s as the inside of a JSON string
 * (STR_JSON) or as printable text (STR_TEXT), handed to put in pieces;
 * the one policy for bytes that are not UTF-8 (\udcXX, \xNN) is
 * argued there. bsdk_json_string() adds the quotes and writes to a FILE. */
enum str_form { STR_JSON, STR_TEXT };
typedef void (*str_put_fn)(void *ctx, const char *b, size_t n);
void str_escape(const void *s, size_t n, enum str_form form, str_put_fn put, void *ctx);

/* true when [off, off + len) does not fit inside a region of size total,
 * overflow included: the check for offsets and sizes read from a file. */
static inline int range_outside(uint64_t off, uint64_t len, uint64_t total)
{
	uint64_t end;

	return __builtin_add_overflow(off, len, &end) || end > total;
}

/* Append the size-byte *elem to the malloc'ed array *arrp of *n elements
 * (arrp is the address of the array pointer). 0 or -ENOMEM. */
static inline int array_push(void *arrp, size_t *n, const void *elem, size_t size)
{
	void *arr, *grown;

	memcpy(&arr, arrp, sizeof(arr));
	grown = realloc(arr, (*n + 1) * size);
	if (!grown)
		return fail(ENOMEM);
	memcpy((char *)grown + *n * size, elem, size);
	memcpy(arrp, &grown, sizeof(grown));
	(*n)++;
	return 0;
}

#endif /* BPFSDK_BASE_H */
