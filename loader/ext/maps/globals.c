// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * globals.c - a program's global variables seen from user space, set before
 * load and mapped after.
 *
 * Each of .data, .bss and .rodata is a one-element array map (maps.c)
 * whose initial value the object holds until the map is created, and
 * which user space sets before load here, by variable - how a skeleton
 * sets `const volatile` knobs. The kernel lets user space mmap an
 * array created with BPF_F_MMAPABLE (5.5+): the page is the map's value
 * itself, so a counter the program increments is read with a plain load,
 * no bpf() call. This pass maps each one as it is created, and answers
 * bsdk_map_global_data() after load with the mapping.
 *
 * .rodata is frozen right after its value is written (BPF_MAP_FREEZE), and
 * the kernel then refuses a writable mapping of it: it is mapped read-only,
 * which is also the promise the verifier relies on when it treats its
 * contents as constants.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "object/object.h"
#include "object/pass.h"
#include "co-re/btf_index.h"
#include "format/btf.h"

/* ---- before load: the object's initial values */

/* The symbol of global variable name and the data map that holds it. */
static const GElf_Sym *obj_global_find(const struct bsdk_obj *obj, const char *name,
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

/* ---- after load: the maps mapped */

/* Where each global data map of an object is mapped: obj_state() of globals_key. */
struct mapping {
	void *p;
	size_t size;
};

struct globals_state {
	struct mapping *maps;	/* per map of the object, by index */
	size_t n;
};

static const char globals_key;

static void globals_state_free(void *p)
{
	struct globals_state *gs = p;

	free(gs->maps);
	free(gs);
}

/* The pass's answer to bsdk_map_global_data() after load: the mapping. */
static void *globals_data(const struct bsdk_map *map)
{
	struct globals_state *gs = map->obj ? obj_state_find(map->obj, &globals_key) : NULL;
	size_t i = gs ? (size_t)(map - map->obj->maps) : 0;

	return gs && i < gs->n ? gs->maps[i].p : NULL;
}

/* The pass at load: map the global data map just created and filled
 * (.rodata read-only: it is frozen). */
static int globals_mmap(struct bsdk_map *map)
{
	struct bsdk_obj *obj = map->obj;
	long page = sysconf(_SC_PAGESIZE);
	struct globals_state *gs;
	struct bpf_map_info info;
	size_t size;
	void *p;
	int err;

	if (!map->is_global_data || map->value_size == 0)
		return 0;
	/* created BPF_F_MMAPABLE unless the kernel refused the flag (object/maps.c) */
	err = bpf_map_get_info(map->fd, &info);
	if (err < 0)
		return log_fail(-err, "map '%s': cannot get its info: %s", map->name, bsdk_strerror(err));
	if (!(info.map_flags & BPF_F_MMAPABLE))
		return 0;
	gs = obj_state(obj, &globals_key, sizeof(*gs), globals_state_free);
	if (!gs)
		return -errno;
	if (!gs->maps) {
		gs->maps = calloc(obj->nmaps, sizeof(*gs->maps));
		if (!gs->maps)
			return fail(ENOMEM);
		gs->n = obj->nmaps;
	}
	if (page <= 0)
		page = 4096;
	size = ((size_t)map->value_size + (size_t)page - 1) & ~((size_t)page - 1);
	p = mmap(NULL, size, map->is_rodata ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
		 map->fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		return log_fail(err, "map '%s': cannot map its %u bytes of global variables: %s",
				map->name, map->value_size, bsdk_strerror(err));
	}
	gs->maps[map - obj->maps] = (struct mapping){ p, size };
	return 0;
}

/* The pass at unload: before the maps are closed. */
static void globals_unmap(struct bsdk_obj *obj)
{
	struct globals_state *gs = obj_state_find(obj, &globals_key);

	for (size_t i = 0; gs && i < gs->n; i++) {
		if (gs->maps[i].p)
			munmap(gs->maps[i].p, gs->maps[i].size);
		gs->maps[i] = (struct mapping){ NULL, 0 };
	}
}

const struct obj_pass globals_pass = {
	.name = "global variables",
	.map_created = globals_mmap,
	.map_data = globals_data,
	.unload = globals_unmap,
};

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
	info->is_volatile = false;
	/* the qualifiers in front of the type, in any order, an array's on
	 * its elements; the walk is bounded, since nothing checked the chain
	 * for loops */
	const struct btf_type *t = btf_type_by_id(btf, var->type);

	for (int hops = 0; t && hops < 32; hops++) {
		int kind = btf_kind(t);

		if (kind == BTF_KIND_ARRAY) {
			t = btf_type_by_id(btf, ((const struct btf_array *)(t + 1))->type);
			continue;
		}
		if (kind != BTF_KIND_CONST && kind != BTF_KIND_VOLATILE && kind != BTF_KIND_RESTRICT)
			break;
		info->is_volatile |= kind == BTF_KIND_VOLATILE;
		t = btf_type_by_id(btf, t->type);
	}
	return 0;
}
