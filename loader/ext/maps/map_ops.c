// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * map_ops.c - a map's elements from user space: lookup, update, delete,
 * lookup-and-delete, iteration, batch lookup, and maps pinned by others.
 *
 * The kernel checks nothing of the buffers it is given: it copies key_size
 * and value_size bytes (times the CPUs for per-CPU maps) from and to
 * whatever the pointers hold. So every call here takes the caller's sizes
 * and compares them with the map's first: a mismatch is the classic bug of
 * reading a per-CPU map into one value, and it costs a clear message here
 * instead of a corrupted stack.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "object/object.h"

/* How bsdk_map_lookup_batch() reads a map of a type: the kernel answers BPF_MAP_LOOKUP_BATCH
 * per map type (its map_ops), or not at all (before 5.6), so the first call on a map of the
 * type decides for every map of it in the process. Once decided it never changes, so a walk
 * never mixes the two ways' tokens. */
enum {
	BATCH_UNKNOWN = 0,
	BATCH_KERNEL,		/* BPF_MAP_LOOKUP_BATCH works */
	BATCH_FALLBACK,		/* get_next_key + lookup, key by key */
};
#define BATCH_TYPES 64		/* map types past it are not remembered: decided per call */
static int batch_mode[BATCH_TYPES];

static int batch_mode_of(uint32_t type)
{
	return type < BATCH_TYPES ? __atomic_load_n(&batch_mode[type], __ATOMIC_RELAXED) : BATCH_UNKNOWN;
}

static void batch_mode_set(uint32_t type, int mode)
{
	int unknown = BATCH_UNKNOWN;

	if (type < BATCH_TYPES)
		__atomic_compare_exchange_n(&batch_mode[type], &unknown, mode, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

bool bsdk_map_is_percpu(const struct bsdk_map *map)
{
	switch (map->type) {
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return true;
	default:
		return false;
	}
}

size_t bsdk_map_value_buf_size(const struct bsdk_map *map)
{
	int ncpus;

	if (!bsdk_map_is_percpu(map))
		return map->value_size;
	ncpus = bsdk_cpu_possible_count();
	if (ncpus < 0) {
		errno = -ncpus;
		return 0;
	}
	return BSDK_PERCPU_STRIDE(map->value_size) * (size_t)ncpus;
}

size_t bsdk_map_batch_size(const struct bsdk_map *map)
{
	return map->key_size > 8 ? map->key_size : 8;
}

/* The map exists in the kernel and key_size is its key size. */
static int check_key(const struct bsdk_map *map, const void *key, size_t key_size,
		     const char *what)
{
	if (map->fd < 0)
		return log_fail(EBADF, "map '%s': not created yet (load the object first)", map->name);
	if (key_size != map->key_size)
		return log_fail(EINVAL, "map '%s': %s size %zu given, the map's key size is %u",
				map->name, what, key_size, map->key_size);
	if (!key && key_size)
		return log_fail(EINVAL, "map '%s': %s is NULL", map->name, what);
	return 0;
}

/* value_size is what the map's values take in user space. */
static int check_value(const struct bsdk_map *map, const void *value, size_t value_size)
{
	size_t want = bsdk_map_value_buf_size(map);

	if (want == 0 && map->value_size)
		return -errno;	/* the CPU count; logged */
	if (value_size != want) {
		if (bsdk_map_is_percpu(map))
			return log_fail(EINVAL, "map '%s': value size %zu given, expected %zu (a per-CPU map: %u rounded up to 8, times %d possible CPUs)",
					map->name, value_size, want, map->value_size,
					bsdk_cpu_possible_count());
		return log_fail(EINVAL, "map '%s': value size %zu given, the map's value size is %zu",
				map->name, value_size, want);
	}
	if (!value && value_size)
		return log_fail(EINVAL, "map '%s': value is NULL", map->name);
	return 0;
}

/* One BPF_MAP_*_ELEM command; the kernel's answer with errno set. */
static int elem_cmd(const struct bsdk_map *map, enum bpf_cmd cmd, const void *key,
		    const void *value, uint64_t flags)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map->fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.value = (uint64_t)(uintptr_t)value;	/* next_key for GET_NEXT_KEY */
	attr.flags = flags;
	err = sys_bpf(cmd, &attr, sizeof(attr));
	return err < 0 ? fail(-err) : 0;
}

/* A command with a key and a value, both sizes checked first. */
static int value_cmd(const struct bsdk_map *map, enum bpf_cmd cmd, const void *key,
		     size_t key_size, const void *value, size_t value_size, uint64_t flags)
{
	int err = check_key(map, key, key_size, "key");

	if (!err)
		err = check_value(map, value, value_size);
	return err ? err : elem_cmd(map, cmd, key, value, flags);
}

int bsdk_map_lookup_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 void *value, size_t value_size, uint64_t flags)
{
	return value_cmd(map, BPF_MAP_LOOKUP_ELEM, key, key_size, value, value_size, flags);
}

int bsdk_map_update_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 const void *value, size_t value_size, uint64_t flags)
{
	return value_cmd(map, BPF_MAP_UPDATE_ELEM, key, key_size, value, value_size, flags);
}

int bsdk_map_delete_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 uint64_t flags)
{
	int err = check_key(map, key, key_size, "key");

	return err ? err : elem_cmd(map, BPF_MAP_DELETE_ELEM, key, NULL, flags);
}

int bsdk_map_lookup_and_delete_elem(const struct bsdk_map *map, const void *key, size_t key_size,
				    void *value, size_t value_size, uint64_t flags)
{
	return value_cmd(map, BPF_MAP_LOOKUP_AND_DELETE_ELEM, key, key_size, value, value_size,
			 flags);
}

int bsdk_map_get_next_key(const struct bsdk_map *map, const void *cur_key, void *next_key,
			  size_t key_size)
{
	int err = check_key(map, next_key, key_size, "next key");

	return err ? err : elem_cmd(map, BPF_MAP_GET_NEXT_KEY, cur_key, next_key, 0);
}

/* ---- batch lookup ---- */

/* Key by key: out_batch holds the last key read, in_batch the one to go on after. */
static int batch_fallback(const struct bsdk_map *map, const void *in_batch, void *out_batch,
			  char *keys, char *values, size_t value_size, uint32_t *count,
			  uint64_t flags)
{
	uint32_t want = *count, n = 0;
	const void *cur = in_batch;
	int err = 0;

	while (n < want) {
		char *key = keys + (size_t)n * map->key_size;

		err = elem_cmd(map, BPF_MAP_GET_NEXT_KEY, cur, key, 0);
		if (err)
			break;
		err = elem_cmd(map, BPF_MAP_LOOKUP_ELEM, key, values + (size_t)n * value_size, flags);
		cur = key;	/* the kernel copies the key in before it writes the next */
		if (err == -ENOENT)
			continue;	/* deleted between the two calls: step over it */
		if (err)
			break;
		n++;
	}
	/* The last key seen is where the next call goes on. */
	if (cur)
		memmove(out_batch, cur, map->key_size);
	*count = n;
	return err ? fail(-err) : 0;
}

int bsdk_map_lookup_batch(const struct bsdk_map *map, const void *in_batch, void *out_batch,
			  size_t batch_size, void *keys, size_t key_size, void *values,
			  size_t value_size, uint32_t *count, uint64_t flags)
{
	union bpf_attr attr;
	int mode, err;

	err = check_key(map, keys, key_size, "key");
	if (!err)
		err = check_value(map, values, value_size);
	if (err)
		return err;
	if (!count || !out_batch || batch_size < bsdk_map_batch_size(map))
		return log_fail(EINVAL, "map '%s': batch buffer of %zu bytes given, at least %zu needed",
				map->name, out_batch ? batch_size : 0, bsdk_map_batch_size(map));
	if (*count == 0)
		return 0;

	mode = batch_mode_of(map->type);
	if (mode == BATCH_FALLBACK || (mode == BATCH_UNKNOWN && in_batch))
		return batch_fallback(map, in_batch, out_batch, keys, values, value_size, count, flags);

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = (uint32_t)map->fd;
	attr.batch.in_batch = (uint64_t)(uintptr_t)in_batch;
	attr.batch.out_batch = (uint64_t)(uintptr_t)out_batch;
	attr.batch.keys = (uint64_t)(uintptr_t)keys;
	attr.batch.values = (uint64_t)(uintptr_t)values;
	attr.batch.count = *count;
	attr.batch.elem_flags = flags;
	err = sys_bpf(BPF_MAP_LOOKUP_BATCH, &attr, sizeof(attr));
	/* The kernel says "not for this map type" with ENOTSUPP (524, kernel-internal) or
	 * EOPNOTSUPP, and "unknown command" (before 5.6) with EINVAL; decided on the
	 * first call, as the tokens of the two ways cannot be mixed. With flags, EINVAL
	 * may be this map's answer to them (BPF_F_LOCK without a lock): not the type's. */
	if (mode == BATCH_UNKNOWN && (err == -524 || err == -EOPNOTSUPP || err == -EINVAL)) {
		log_debug("map '%s': no BPF_MAP_LOOKUP_BATCH (%s), reading key by key",
			  map->name, bsdk_strerror(err));
		if (err != -EINVAL || !flags)
			batch_mode_set(map->type, BATCH_FALLBACK);
		return batch_fallback(map, NULL, out_batch, keys, values, value_size, count, flags);
	}
	if (mode == BATCH_UNKNOWN && (err == 0 || err == -ENOENT))
		batch_mode_set(map->type, BATCH_KERNEL);
	*count = attr.batch.count;
	return err < 0 ? fail(-err) : 0;
}

/* ---- maps pinned by others ---- */

/* Whether fd is a BPF map: bpf_obj_get() opens programs and links as well, and
 * BPF_OBJ_GET_INFO_BY_FD answers for them in their own layout. */
static bool fd_is_map(int fd)
{
	char link[64], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return true;	/* no /proc: let the kernel's info decide */
	target[n] = '\0';
	return strcmp(target, "anon_inode:bpf-map") == 0;
}

struct bsdk_map *bsdk_map_open_pinned(const char *path)
{
	struct bpf_map_info info;
	struct bsdk_map *map;
	union bpf_attr attr;
	const char *base;
	int fd, err;

	if (!path || !*path) {
		log_error("no path given for a pinned map");
		return fail_ptr(EINVAL);
	}
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uint64_t)(uintptr_t)path;
	fd = sys_bpf(BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0) {
		log_error("cannot open the pinned map '%s': %s", path, bsdk_strerror(fd));
		return fail_ptr(-fd);
	}
	if (!fd_is_map(fd)) {
		close(fd);
		log_error("'%s': what is pinned there is not a map", path);
		return fail_ptr(EINVAL);
	}
	err = bpf_map_get_info(fd, &info);
	if (err) {
		close(fd);
		log_error("'%s': cannot read the map's type and sizes: %s", path, bsdk_strerror(err));
		return fail_ptr(-err);
	}
	base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	map = calloc(1, sizeof(*map));
	if (!map || !(map->name = strdup(base))) {
		free(map);
		close(fd);
		return fail_ptr(ENOMEM);
	}
	map->origin = "pinned";
	map->type = info.type;
	map->key_size = info.key_size;
	map->value_size = info.value_size;
	map->max_entries = info.max_entries;
	map->map_flags = info.map_flags;
	map->fd = fd;
	log_debug("map '%s': opened from '%s' (type %u, key %u, value %u, max_entries %u)",
		  map->name, path, map->type, map->key_size, map->value_size, map->max_entries);
	return map;
}

void bsdk_map_close(struct bsdk_map *map)
{
	if (!map || map->obj)
		return;
	if (map->fd >= 0)
		close(map->fd);
	free(map->name);
	free(map);
}
