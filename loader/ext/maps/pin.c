// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * pin.c - maps pinned by name (__uint(pinning, LIBBPF_PIN_BY_NAME)): the
 * map pinned at /sys/fs/bpf/NAME is reused when its definition matches,
 * and a map created here is pinned there, so that another process, or the
 * next run, shares it. A pass around map creation (object/maps.c); which
 * pins this load made is its state of the object, since only those are
 * removed again (bsdk_obj_unpin(), and a load that fails).
 *
 * The core (libbpfsdk-core.a) refuses a map that asks to be pinned
 * rather than leave it unpinned.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "object/object.h"
#include "object/pass.h"

/* The maps this load pinned, by index: obj_state() of pin_key. */
struct pin_state {
	bool *pinned_here;
	size_t n;
};

static const char pin_key;

static void pin_state_free(void *p)
{
	struct pin_state *ps = p;

	free(ps->pinned_here);
	free(ps);
}

static int pinned_map_reuse(struct bsdk_map *map, const char *path)
{
	struct bpf_map_info info;
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uint64_t)(uintptr_t)path;
	fd = sys_bpf(BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;

	err = bpf_map_get_info(fd, &info);
	if (!err && (info.type != map->type || info.key_size != map->key_size ||
		     info.value_size != map->value_size ||
		     info.max_entries != map->max_entries ||
		     info.map_flags != map->map_flags))
		err = log_fail(EEXIST, "map '%s': the map pinned at '%s' has a different definition", map->name, path);
	if (err) {
		close(fd);
		return err;
	}
	log_info("map '%s': reusing the map pinned at '%s'", map->name, path);
	map->fd = fd;
	return 1;
}

/* /sys/fs/bpf/NAME for a map pinned by name. The name comes from the
 * object and the kernel checks it only when it takes the BTF: make sure
 * it is one path component, an identifier, before building a path of it. */
static int pin_path(const struct bsdk_map *map, char path[PATH_MAX])
{
	const char *n = map->name;
	bool ok = (*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z') || *n == '_';

	for (; ok && *n; n++)
		ok = (*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z') ||
		     (*n >= '0' && *n <= '9') || *n == '_';
	if (!ok || n - map->name > NAME_MAX)
		return log_fail(EINVAL, "map '%s': cannot be pinned by name: its name is not a C identifier", map->name);
	snprintf(path, PATH_MAX, "/sys/fs/bpf/%s", map->name);
	return 0;
}

static bool bpffs_mounted(void)
{
	struct statfs st;

	return statfs("/sys/fs/bpf", &st) == 0 && (unsigned long)st.f_type == BPF_FS_MAGIC;
}

/* The pass before a map is created: one pinned by name is the map at its
 * path when there is one (1), else created (0). The state that will say
 * it was pinned here is made now, before there is a pin to lose. */
static int pin_map_create(struct bsdk_map *map)
{
	struct pin_state *ps;
	char path[PATH_MAX];
	int err;

	if (map->pinning != 1 /* LIBBPF_PIN_BY_NAME */)
		return 0;
	err = pin_path(map, path);
	if (err)
		return err;
	ps = obj_state(map->obj, &pin_key, sizeof(*ps), pin_state_free);
	if (!ps)
		return -errno;
	if (!ps->pinned_here) {
		ps->pinned_here = calloc(map->obj->nmaps, sizeof(*ps->pinned_here));
		if (!ps->pinned_here)
			return fail(ENOMEM);
		ps->n = map->obj->nmaps;
	}
	return pinned_map_reuse(map, path);
}

/* The pass after a map is created and filled: pin it. */
static int pin_map_created(struct bsdk_map *map)
{
	struct pin_state *ps = obj_state_find(map->obj, &pin_key);
	size_t i = (size_t)(map - map->obj->maps);
	char path[PATH_MAX];
	union bpf_attr attr;
	int err;

	if (map->pinning != 1 || !ps || i >= ps->n || pin_path(map, path))
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uint64_t)(uintptr_t)path;
	attr.bpf_fd = map->fd;
	err = sys_bpf(BPF_OBJ_PIN, &attr, sizeof(attr));
	if (err && !bpffs_mounted())
		return log_fail(-err, "map '%s': cannot pin it at '%s': /sys/fs/bpf is not a BPF file system (mount -t bpf bpf /sys/fs/bpf)",
				map->name, path);
	if (err)
		return log_fail(-err, "map '%s': cannot pin it at '%s': %s%s", map->name, path,
				bsdk_strerror(err), err == -EACCES ? " (writing /sys/fs/bpf takes its owner, or root)" : "");
	ps->pinned_here[i] = true;
	return 0;
}

/* Only the pins this load made: a reused pin belongs to whoever made it. */
int bsdk_obj_unpin(struct bsdk_obj *obj)
{
	struct pin_state *ps = obj ? obj_state_find(obj, &pin_key) : NULL;
	char path[PATH_MAX];
	int err = 0;

	for (size_t i = 0; ps && i < ps->n && i < obj->nmaps; i++) {
		struct bsdk_map *map = &obj->maps[i];
		int e;

		if (!ps->pinned_here[i] || pin_path(map, path))
			continue;
		e = unlink(path) < 0 && errno != ENOENT ? errno : 0;
		if (e && !err)
			err = log_fail(e, "map '%s': cannot remove its pin '%s': %s",
				       map->name, path, bsdk_strerror(e));
		if (!e)
			ps->pinned_here[i] = false;
	}
	return err;
}

/* A load that fails leaves no pin of its own behind. */
static void pin_load_failed(struct bsdk_obj *obj)
{
	bsdk_obj_unpin(obj);
}

uint32_t bsdk_map_pinning(const struct bsdk_map *map) { return map->pinning; }

const struct obj_pass pin_pass = {
	.name = "pinned maps",
	.pins_maps = true,
	.map_create = pin_map_create,
	.map_created = pin_map_created,
	.load_failed = pin_load_failed,
};
