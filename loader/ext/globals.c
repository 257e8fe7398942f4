// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * globals.c - a program's global variables seen from user space.
 *
 * Each of .data, .bss and .rodata is a one-element array map (maps.c). The
 * kernel lets user space mmap an array created with BPF_F_MMAPABLE (5.5+):
 * the page is the map's value itself, so a counter the program increments is
 * read here with a plain load, no bpf() call. Before load, the same
 * accessors point into the initial value maps.c writes at creation, which is
 * how a skeleton sets `const volatile` knobs.
 *
 * .rodata is frozen right after its value is written (BPF_MAP_FREEZE), and
 * the kernel then refuses a writable mapping of it: it is mapped read-only,
 * which is also the promise the verifier relies on when it treats its
 * contents as constants.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "ext/ext.h"
#include "format/btf.h"

int globals_mmap(struct bsdk_map *map)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size;
	void *p;

	if (!map->mmapable || map->value_size == 0)
		return 0;
	if (page <= 0)
		page = 4096;
	size = ((size_t)map->value_size + (size_t)page - 1) & ~((size_t)page - 1);
	p = mmap(NULL, size, map->is_rodata ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
		 map->fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		return log_fail(err, "map '%s': cannot map its %u bytes of global variables: %s",
				map->name, map->value_size, bsdk_strerror(err));
	}
	map->mmaped = p;
	map->mmap_size = size;
	return 0;
}

void globals_unmap(struct bsdk_map *map)
{
	if (map->mmaped)
		munmap(map->mmaped, map->mmap_size);
	map->mmaped = NULL;
	map->mmap_size = 0;
}

void *bsdk_map_global_data(const struct bsdk_map *map, size_t *size)
{
	if (!map->is_global_data)
		return fail_ptr(EINVAL);
	if (size)
		*size = map->value_size;
	if (map->fd < 0)	/* not created: the value load will write */
		return map->init_data;
	if (!map->mmaped)
		return fail_ptr(EOPNOTSUPP);
	return map->mmaped;
}

void *bsdk_obj_global_ptr(const struct bsdk_obj *obj, const char *name, size_t *size)
{
	struct bsdk_map *map;
	const GElf_Sym *sym = obj_global_find(obj, name, &map);
	char *base;

	if (!sym)
		return fail_ptr(ENOENT);
	if (range_outside(sym->st_value, sym->st_size, map->value_size))
		return fail_ptr(BSDK_EFORMAT);
	base = bsdk_map_global_data(map, NULL);
	if (!base)
		return NULL;
	if (size)
		*size = sym->st_size;
	return base + sym->st_value;
}

int bsdk_map_global_var(const struct bsdk_map *map, size_t i, struct bsdk_global_info *info)
{
	const struct btf *btf = map->obj ? map->obj->btf : NULL;
	const struct btf_var_secinfo *vi;
	const struct btf_type *ds, *var;
	uint32_t ds_id;

	memset(info, 0, sizeof(*info));
	if (!map->is_global_data)
		return fail(EINVAL);
	ds_id = btf ? btf_find(btf, map->name, BTF_KIND_DATASEC) : 0;
	if (!ds_id)
		return fail(ENOENT);
	ds = btf_type_by_id(btf, ds_id);
	if (i >= btf_vlen(ds))
		return fail(ERANGE);
	/* btf_fixup_datasecs() sorted them by offset and checked nothing else: check here */
	vi = btf_secinfos(ds) + i;
	var = btf_type_by_id(btf, vi->type);
	if (!var || btf_kind(var) != BTF_KIND_VAR ||
	    range_outside(vi->offset, vi->size, map->value_size))
		return fail(BSDK_EBTF);
	info->name = btf_name(btf, var);
	info->offset = vi->offset;
	info->size = vi->size;
	info->btf_type_id = var->type;
	info->is_static = ((const struct btf_var *)(var + 1))->linkage == BTF_VAR_STATIC;
	return 0;
}

int bsdk_obj_skeleton_mismatch(const struct bsdk_obj *obj, const char *what, const char *name)
{
	return obj_fail(obj, ENOENT, "no %s '%s': the skeleton was generated from another object",
			what, name);
}
