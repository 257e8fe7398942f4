// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * map_hints.c - why the kernel refused to create a map, in words: the rule
 * of the map's type it broke (a ring buffer's size, an array's key), or
 * what its errno asks for (a capability, the file limit, a smaller map).
 * The detail lines under the core's one error (object/maps.c), through
 * the pass's map_create_failed hook.
 */
#include <stdio.h>
#include <unistd.h>

#include "object/object.h"
#include "object/pass.h"

/* The kernel's rule, for the map types whose shape it checks, that map
 * breaks; "" when none does (then the kernel's errno says it all). */
static const char *map_shape_rule(const struct bsdk_map *map, char *buf, size_t size)
{
	uint32_t n = map->max_entries, page = (uint32_t)sysconf(_SC_PAGESIZE), fit = page;

	buf[0] = '\0';
	switch (map->type) {
	case BPF_MAP_TYPE_RINGBUF:
		while (fit < n && fit < (1u << 31))
			fit <<= 1;
		if (n < page || n % page || (n & (n - 1)))
			snprintf(buf, size, "a ring buffer's size (max_entries) is a power of two and a multiple of the page size (%u bytes): %u is not; %u would do",
				 page, n, fit);
		else if (map->key_size || map->value_size)
			snprintf(buf, size, "a ring buffer has no key and no value: leave out key_size, value_size and their types");
		return buf;
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		if (map->key_size != sizeof(uint32_t))
			snprintf(buf, size, "an array's key is its index, 4 bytes (__u32): this key is %u bytes",
				 map->key_size);
		break;
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
		if (n)
			snprintf(buf, size, "a local storage map has one value per object: max_entries is 0 (leave it out)");
		return buf;
	default:
		break;
	}
	if (!buf[0] && n == 0)
		snprintf(buf, size, "max_entries is 0: give the map a size (__uint(max_entries, N)), or set it before load (bsdk_map_set_max_entries()) when the tool sizes it");
	else if (!buf[0] && map->value_size == 0 && map->type != BPF_MAP_TYPE_BLOOM_FILTER)
		snprintf(buf, size, "the value size is 0: give the map a value type (__type(value, ...))");
	return buf;
}

/* The pass after the kernel refused to create map: the rule it broke as a
 * detail line when there is one, else what the errno asks for. */
static void map_create_hint(const struct bsdk_map *map, int err)
{
	char rule[256];

	if (err == -EINVAL && *map_shape_rule(map, rule, sizeof(rule)))
		log_error("  %s", rule);
	else if (err == -EPERM || err == -EACCES)
		log_error("  creating a BPF map takes CAP_BPF (or root)");
	else if (err == -EMFILE)
		log_error("  %s", fd_limit_hint);
	else if ((err == -ENOMEM || err == -E2BIG) && map->max_entries > 1)
		log_error("  the kernel cannot give it %u entries of %u bytes: lower max_entries (__uint(max_entries, N) or bsdk_map_set_max_entries())",
			  map->max_entries, map->key_size + map->value_size);
}

const struct obj_pass map_hints_pass = {
	.name = "map hints",
	.map_create_failed = map_create_hint,
};
