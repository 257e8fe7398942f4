// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * clock.c - the monotonic clock every layer times with.
 */
#include <time.h>

#include "base/base.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
