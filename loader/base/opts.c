// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * opts.c - the convention by which the API's option structs grow: a
 * caller's struct of an older or newer size taken as this library knows it.
 */
#include "base/base.h"

int opts_copy(void *dst, size_t size, const void *src, size_t src_sz,
	      size_t min_sz, const char *who)
{
	memset(dst, 0, size);
	if (!src)
		return log_fail(EINVAL, "%s: options are required (on_sample at least)", who);
	if (src_sz < min_sz)
		return log_fail(EINVAL, "%s: opts.sz is %zu, smaller than the first version of the options; set it to sizeof(opts)",
				who, src_sz);
	for (size_t i = size; i < src_sz; i++)
		if (((const uint8_t *)src)[i])
			return log_fail(EINVAL, "%s: options set fields this library does not know (opts.sz %zu > %zu)", who, src_sz, size);
	memcpy(dst, src, src_sz < size ? src_sz : size);
	return 0;
}
