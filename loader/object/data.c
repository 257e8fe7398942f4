// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * data.c - a program's global variables before load: each of .data, .bss
 * and .rodata is a one-element array map (maps.c) whose initial value the
 * object holds until the map is created, and which user space sets here -
 * how a skeleton sets `const volatile` knobs. After load, the value is the
 * kernel's: read where an extension mapped it (ext/globals.c maps them
 * BPF_F_MMAPABLE), else not at all.
 */
#include "object/object.h"

/* The symbol of global variable name and the data map that holds it. */
const GElf_Sym *obj_global_find(const struct bsdk_obj *obj, const char *name,
				struct bsdk_map **map)
{
	for (size_t i = 0; i < obj->file.nsyms; i++) {
		const GElf_Sym *sym = &obj->file.syms[i];

		if (GELF_ST_TYPE(sym->st_info) == STT_OBJECT &&
		    sym->st_shndx > 0 && sym->st_shndx < obj->file.nsecs &&
		    strcmp(elf_sym_name(&obj->file, sym), name) == 0 &&
		    (*map = map_by_data_sec(obj, sym->st_shndx)))
			return sym;
	}
	return NULL;
}

int bsdk_obj_set_global(struct bsdk_obj *obj, const char *name, const void *value, size_t size)
{
	struct bsdk_map *map;
	const GElf_Sym *sym = obj_global_find(obj, name, &map);

	if (!sym)
		return obj_fail(obj, ENOENT, "no global variable '%s' in .rodata, .data or .bss", name);
	if (obj->loaded)
		return obj_fail(obj, EBUSY, "global '%s' can only be set before load", name);
	if (sym->st_size != size)
		return obj_fail(obj, EINVAL, "global '%s' is %llu bytes, the value given is %zu",
				name, (unsigned long long)sym->st_size, size);
	if (range_outside(sym->st_value, size, map->value_size))
		return obj_fail(obj, BSDK_EFORMAT, "global '%s' lies outside its section", name);
	memcpy((char *)map->init_data + sym->st_value, value, size);
	return 0;
}

int bsdk_obj_global_size(const struct bsdk_obj *obj, const char *name)
{
	struct bsdk_map *map;
	const GElf_Sym *sym = obj_global_find(obj, name, &map);

	if (!sym)
		return fail(ENOENT);
	return sym->st_size > INT32_MAX ? fail(E2BIG) : (int)sym->st_size;
}

int bsdk_obj_global_readers(const struct bsdk_obj *obj, const char *name)
{
	struct bsdk_map *map;
	const GElf_Sym *sym = obj_global_find(obj, name, &map);
	size_t m;
	int n = 0;

	if (!sym)
		return fail(ENOENT);
	m = (size_t)(map - obj->maps);
	/* a read of a member loads the variable's address, or one inside it */
	for (size_t sec = 0; obj->relos && sec < obj->file.nsecs; sec++)
		for (size_t i = 0; i < obj->nrelos[sec]; i++) {
			const struct relo *r = &obj->relos[sec][i];

			n += r->kind == BSDK_RELO_DATA && r->map == m &&
			     r->offset >= sym->st_value &&
			     (r->offset < sym->st_value + sym->st_size ||
			      (sym->st_size == 0 && r->offset == sym->st_value));
		}
	return n;
}

void *bsdk_map_global_data(const struct bsdk_map *map, size_t *size)
{
	if (!map->is_global_data)
		return fail_ptr(EINVAL);
	if (size)
		*size = map->value_size;
	if (map->fd < 0)	/* not created: the value load will write */
		return map->init_data;
	/* created: user space reads it where an extension mapped it (ext/globals.c) */
	for (size_t i = 0; i < obj_npasses; i++) {
		void *p = obj_passes[i]->map_data ? obj_passes[i]->map_data(map) : NULL;

		if (p)
			return p;
	}
	return fail_ptr(EOPNOTSUPP);
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

int bsdk_obj_skeleton_mismatch(const struct bsdk_obj *obj, const char *what, const char *name)
{
	return obj_fail(obj, ENOENT, "no %s '%s': the skeleton was generated from another object",
			what, name);
}
