// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * log.c - the library's single exit for messages, and error names.
 *
 * Threads: the log function and level are the process's, set by the caller
 * (before its threads start, bpfsdk.h asks); a capture (log_capture_begin())
 * and the default logger's memory of an error line are each thread's own,
 * so that one thread's messages never land in another's capture.
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/base.h"

static void log_to_stderr(enum bsdk_log_level level, const char *msg, void *ctx)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "" };
	/* an error's or a warning's detail lines follow it at its level */
	static __thread int headline = -1;
	bool detail = level <= BSDK_LOG_WARN && (int)level == headline && msg[0] == ' ';

	(void)ctx;
	if (level <= BSDK_LOG_WARN && !detail)
		headline = (int)level;
	fprintf(stderr, "%s%s\n", detail || level > BSDK_LOG_DEBUG ? "" : prefix[level], msg);
}

static bsdk_log_fn log_fn = log_to_stderr;
static void *log_ctx;
static enum bsdk_log_level log_max = BSDK_LOG_WARN;
static __thread bool errors_as_warnings;	/* log_errors_as_warnings() */
static __thread char *capture_buf;	/* log_capture_begin()'s buffer, or NULL */
static __thread size_t capture_size;

void bsdk_set_log(bsdk_log_fn fn, void *ctx)
{
	__atomic_store_n(&log_ctx, fn ? ctx : NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&log_fn, fn ? fn : log_to_stderr, __ATOMIC_RELEASE);
}

enum bsdk_log_level bsdk_set_log_level(enum bsdk_log_level level)
{
	return __atomic_exchange_n(&log_max, level, __ATOMIC_RELAXED);
}

void bsdk_log(enum bsdk_log_level level, const char *fmt, ...)
{
	/* Messages are single lines; a verifier log is sent line by line by
	 * its caller, so this bound only truncates absurd input. */
	char buf[1024];
	int saved_errno = errno;
	va_list ap;

	if (errors_as_warnings && level == BSDK_LOG_ERROR)
		level = BSDK_LOG_WARN;
	if (capture_buf && level == BSDK_LOG_ERROR) {
		if (!capture_buf[0]) {	/* the first error is the cause */
			va_start(ap, fmt);
			vsnprintf(capture_buf, capture_size, fmt, ap);
			va_end(ap);
		}
		errno = saved_errno;
		return;
	}
	if (level > __atomic_load_n(&log_max, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	__atomic_load_n(&log_fn, __ATOMIC_ACQUIRE)(level, buf, __atomic_load_n(&log_ctx, __ATOMIC_RELAXED));
	errno = saved_errno;	/* logging must not clobber the caller's errno */
}

void log_capture_begin(char *buf, size_t size)
{
	capture_buf = size ? buf : NULL;
	capture_size = size;
	if (capture_buf)
		capture_buf[0] = '\0';
}

void log_errors_as_warnings(bool on)
{
	errors_as_warnings = on;
}

void log_capture_end(void)
{
	capture_buf = NULL;
	capture_size = 0;
}

static const char *const project_errors[] = {
	[BSDK_EFORMAT - BSDK_EFORMAT] = "invalid BPF object format",
	[BSDK_ESECTION - BSDK_EFORMAT] = "unknown section name",
	[BSDK_ERELO - BSDK_EFORMAT] = "relocation cannot be applied",
	[BSDK_EBTF - BSDK_EFORMAT] = "malformed BTF",
	[BSDK_EVERIFIER - BSDK_EFORMAT] = "program rejected by the verifier",
	[BSDK_ENOPROBE - BSDK_EFORMAT] = "probe point not found",
	[BSDK_ENOTSUPP - BSDK_EFORMAT] = "not supported by the running kernel",
};

const char *bsdk_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= BSDK_EFORMAT && err < BSDK_ERROR_MAX)
		return project_errors[err - BSDK_EFORMAT];
	/* The kernel's own ENOTSUPP, which libc's table lacks ("Unknown error
	 * 524"): e.g. an arm64 kernel before 6.4 has no BPF trampoline. */
	if (err == 524)
		return "Operation not supported by this kernel (its ENOTSUPP, 524)";
	return strerror(err);
}
