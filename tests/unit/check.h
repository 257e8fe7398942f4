/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * check.h - a tiny TAP producer for the C unit tests.
 *
 *   check(cond, "name %d", i);             ok / not ok, nothing else
 *   check_u64(actual, expected, "name");   prints both when they differ
 *   check_i64(actual, expected, "name");
 *   check_str(actual, expected, "name");
 *   check_mem(actual, expected, len, "name");  first differing byte
 *   return check_done();                   the plan line, exit status
 *
 * Output is TAP: "ok N - name" / "not ok N - name", diagnostics as "# "
 * lines, and the plan "1..N" at the end (a trailing plan is valid TAP, and
 * lets a test loop over data without counting it first). A test binary
 * exits 1 when any check failed, so a runner that only looks at the status
 * sees the failure too.
 */
#ifndef BPFSDK_TESTS_CHECK_H
#define BPFSDK_TESTS_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int check_count;
static int check_failures;

/* Print "ok N - name" or "not ok N - name"; returns cond as 0/1 so a test
 * can skip what depends on a failed check. */
__attribute__((format(printf, 2, 0), unused))
static int check_vreport(int cond, const char *fmt, va_list ap)
{
	check_count++;
	if (!cond)
		check_failures++;
	printf("%sok %d - ", cond ? "" : "not ", check_count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	return cond != 0;
}

__attribute__((format(printf, 2, 3), unused))
static int check(int cond, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = check_vreport(cond, fmt, ap);
	va_end(ap);
	return r;
}

/* A diagnostic line, shown by TAP consumers and ignored in the counts. */
__attribute__((format(printf, 1, 2), unused))
static void check_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

__attribute__((format(printf, 3, 4), unused))
static int check_u64(uint64_t actual, uint64_t expected, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = check_vreport(actual == expected, fmt, ap);
	va_end(ap);
	if (!r)
		check_diag("  actual:   %" PRIu64 " (0x%" PRIx64 ")\n#   expected: %" PRIu64 " (0x%" PRIx64 ")",
			   actual, actual, expected, expected);
	return r;
}

__attribute__((format(printf, 3, 4), unused))
static int check_i64(int64_t actual, int64_t expected, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = check_vreport(actual == expected, fmt, ap);
	va_end(ap);
	if (!r)
		check_diag("  actual:   %" PRId64 "\n#   expected: %" PRId64,
			   actual, expected);
	return r;
}

__attribute__((format(printf, 3, 4), unused))
static int check_str(const char *actual, const char *expected,
		     const char *fmt, ...)
{
	int same = actual && expected ? !strcmp(actual, expected) :
		   actual == expected;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = check_vreport(same, fmt, ap);
	va_end(ap);
	if (!r)
		check_diag("  actual:   %s%s%s\n#   expected: %s%s%s",
			   actual ? "\"" : "", actual ? actual : "(null)",
			   actual ? "\"" : "", expected ? "\"" : "",
			   expected ? expected : "(null)", expected ? "\"" : "");
	return r;
}

__attribute__((format(printf, 4, 5), unused))
static int check_mem(const void *actual, const void *expected, size_t len,
		     const char *fmt, ...)
{
	const unsigned char *a = actual, *e = expected;
	size_t i = 0;
	va_list ap;
	int r;

	if (a && e)
		while (i < len && a[i] == e[i])
			i++;
	va_start(ap, fmt);
	r = check_vreport(a && e && i == len, fmt, ap);
	va_end(ap);
	if (!r) {
		if (!a || !e)
			check_diag("  actual: %p, expected: %p", actual, expected);
		else
			check_diag("  first difference at byte %zu of %zu: actual 0x%02x, expected 0x%02x",
				   i, len, a[i], e[i]);
	}
	return r;
}

/* Print the plan; the test's exit status. */
__attribute__((unused))
static int check_done(void)
{
	printf("1..%d\n", check_count);
	if (check_failures)
		check_diag("%d of %d checks failed", check_failures, check_count);
	return check_failures ? 1 : 0;
}

#endif /* BPFSDK_TESTS_CHECK_H */
