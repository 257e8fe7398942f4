// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_pin.c - a map declared with __uint(pinning, LIBBPF_PIN_BY_NAME)
 * (tests/bpf/obj_pin.bpf.c): the first load creates it and pins it at
 * /sys/fs/bpf/NAME, a second load of the object reuses that very map
 * (same kernel ID, the value written in between still there), a load whose
 * definition differs is refused, and the pin is removed at the end.
 *
 * Skipped where bpf() is not permitted or bpffs is not mounted.
 */
#include <linux/bpf.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "test_obj_craft.h"

#define PIN "/sys/fs/bpf/bsdk_test_pinned"
#define BPF_FS_MAGIC 0xcafe4a11

static uint32_t map_id(int fd)
{
	struct bpf_map_info info;

	return craft_map_info(fd, &info) ? 0 : info.id;
}

static int map_elem(int cmd, int fd, uint32_t key, uint64_t *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)value;
	return (int)syscall(__NR_bpf, cmd, &attr, sizeof(attr));
}

/* Open and load obj_pin, max_entries overridden when not 0; the map's
 * kernel ID in *id. The object, or NULL when the load failed. */
static struct bsdk_obj *load_pin(uint32_t max_entries, uint32_t *id, int *err)
{
	struct img im = img_read("obj_pin");
	struct bsdk_obj *obj = bsdk_obj_open_mem(im.buf, im.size, "obj_pin");
	struct bsdk_map *map;

	free(im.buf);
	if (!obj) {
		*err = -errno;
		return NULL;
	}
	map = bsdk_obj_map_find(obj, "bsdk_test_pinned");
	if (max_entries)
		bsdk_map_set_max_entries(map, max_entries);
	*err = bsdk_obj_load(obj);
	if (*err) {
		bsdk_obj_close(obj);
		return NULL;
	}
	*id = map_id(bsdk_map_fd(map));
	return obj;
}

int main(void)
{
	uint32_t first = 0, second = 0, unused;
	uint64_t value = 1234, got = 0;
	struct bsdk_obj *obj;
	struct statfs fs;
	struct stat st;
	int err;

	if (!craft_bpf_usable() || statfs("/sys/fs/bpf", &fs) ||
	    fs.f_type != BPF_FS_MAGIC) {
		printf("ok 1 # skip bpf() not permitted or no bpffs on /sys/fs/bpf\n1..1\n");
		return 0;
	}
	unlink(PIN);	/* left over from an interrupted run */

	obj = load_pin(0, &first, &err);
	check_i64(err, 0, "first load");
	check(stat(PIN, &st) == 0, "the map is pinned at " PIN);
	check(first != 0, "map id %u", first);
	if (obj)
		check_i64(map_elem(BPF_MAP_UPDATE_ELEM,
				   bsdk_map_fd(bsdk_obj_map_find(obj, "bsdk_test_pinned")),
				   0, &value), 0, "write 1234 into it");
	bsdk_obj_close(obj);
	check(stat(PIN, &st) == 0, "the pin outlives the object");

	obj = load_pin(0, &second, &err);
	check_i64(err, 0, "second load");
	check_u64(second, first, "the second load reuses the pinned map (same id)");
	if (obj)
		map_elem(BPF_MAP_LOOKUP_ELEM,
			 bsdk_map_fd(bsdk_obj_map_find(obj, "bsdk_test_pinned")), 0, &got);
	check_u64(got, value, "and sees the value the first one wrote");
	bsdk_obj_close(obj);

	cap_start();
	obj = load_pin(2, &unused, &err);
	bsdk_set_log(NULL, NULL);
	check(obj == NULL && err == -EEXIST,
	      "a definition that differs from the pinned map is refused (%s)",
	      bsdk_strerror(err));
	check(strstr(cap.first, "different definition") != NULL, "saying why: %s", cap.first);
	bsdk_obj_close(obj);

	check_i64(unlink(PIN), 0, "remove the pin");
	check(stat(PIN, &st) != 0 && errno == ENOENT, "the pin is gone");
	return check_done();
}
