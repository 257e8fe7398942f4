// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * maps.c - find the maps an object defines and create them.
 *
 * Three places define maps:
 *   "maps"    the legacy section of struct bpf_map_def records, one per
 *             symbol (the style of the 2015 samples); records may be longer
 *             than the fields we know, as later versions of the struct were.
 *   ".maps"   BTF-defined maps: each variable is a struct whose members
 *             encode the attributes in their types (__uint, __type).
 *   .data/.rodata/.bss
 *             global variables: each section becomes a one-element array
 *             whose value is the section's bytes.
 */
#include <stdio.h>
#include <unistd.h>

#include "object/object.h"
#include "object/pass.h"
#include "format/btf.h"

/* The fields of the legacy struct bpf_map_def that we read, in order. */
struct legacy_map_def {
	uint32_t type, key_size, value_size, max_entries, map_flags;
};

/* The largest .data/.rodata/.bss we take, and all of them together. */
#define DATA_SEC_MAX (256u << 20)

/* Oldest layout: type, key_size, value_size, max_entries. */
#define LEGACY_DEF_MIN_SIZE 16

struct bsdk_map *map_add(struct bsdk_obj *obj, const char *name,
			 const char *origin, size_t sec, uint64_t off)
{
	struct bsdk_map map = { .obj = obj, .name = strdup(name),
		.origin = origin, .sec = sec, .sec_offset = off, .fd = -1 };

	if (!map.name || array_push(&obj->maps, &obj->nmaps, &map, sizeof(map))) {
		free(map.name);
		return fail_ptr(ENOMEM);
	}
	return &obj->maps[obj->nmaps - 1];
}

static int collect_legacy(struct bsdk_obj *obj, size_t sec)
{
	const struct elf_sec *s = &obj->file.secs[sec];
	size_t nsyms = 0, def_size;

	for (size_t i = 0; i < obj->file.nsyms; i++)
		if (obj->file.syms[i].st_shndx == sec &&
		    GELF_ST_TYPE(obj->file.syms[i].st_info) != STT_SECTION)
			nsyms++;
	if (nsyms == 0)
		return 0;
	if (!s->data)
		return obj_fail(obj, BSDK_EFORMAT, "section 'maps': has no data");
	/* Every record has the same size: the section divided evenly. */
	def_size = s->size / nsyms;
	if (s->size % nsyms || def_size < LEGACY_DEF_MIN_SIZE)
		return obj_fail(obj, BSDK_EFORMAT, "section 'maps': size %zu is not a multiple of a map definition for %zu maps",
				s->size, nsyms);
	for (size_t i = 0; i < obj->file.nsyms; i++) {
		const GElf_Sym *sym = &obj->file.syms[i];
		const char *name = elf_sym_name(&obj->file, sym);
		struct legacy_map_def def = { 0 };
		struct bsdk_map *map;

		if (sym->st_shndx != sec || GELF_ST_TYPE(sym->st_info) == STT_SECTION)
			continue;
		if (sym->st_value % def_size || range_outside(sym->st_value, def_size, s->size))
			return obj_fail(obj, BSDK_EFORMAT, "map '%s': definition at offset %llu is not on a %zu-byte record boundary inside 'maps'",
					name,
					(unsigned long long)sym->st_value, def_size);
		memcpy(&def, (const char *)s->data + sym->st_value,
		       def_size < sizeof(def) ? def_size : sizeof(def));
		/* Fields of later struct versions (inner_map_idx, numa_node,
		 * ...) are not understood: refuse rather than ignore them. */
		for (size_t b = sizeof(def); b < def_size; b++) {
			if (((const char *)s->data)[sym->st_value + b])
				return obj_fail(obj, BSDK_EFORMAT, "map '%s': legacy definition has non-zero fields past map_flags, which this loader does not support",
						name);
		}
		map = map_add(obj, name, "maps", sec, sym->st_value);
		if (!map)
			return -errno;
		map->type = def.type;
		map->key_size = def.key_size;
		map->value_size = def.value_size;
		map->max_entries = def.max_entries;
		map->map_flags = def.map_flags;
	}
	return 0;
}

/* __uint(name, N) is "int (*name)[N]": N is the array's element count. */
static int btf_uint_member(const struct bsdk_obj *obj, const char *map,
			   const struct btf_member *m, uint32_t *val)
{
	const struct btf_type *t = btf_skip_mods(obj->btf, m->type, NULL);
	const struct btf_array *a;

	if (!t || btf_kind(t) != BTF_KIND_PTR)
		goto bad;
	t = btf_skip_mods(obj->btf, t->type, NULL);
	if (!t || btf_kind(t) != BTF_KIND_ARRAY)
		goto bad;
	a = (const void *)(t + 1);
	*val = a->nelems;
	return 0;
bad:
	return obj_fail(obj, BSDK_EBTF, "map '%s': field '%s' is not declared with __uint()", map, btf_str(obj->btf, m->name_off));
}

/* __type(name, T) is "typeof(T) *name": the size of what it points to. */
static int btf_type_member(const struct bsdk_obj *obj, const char *map,
			   const struct btf_member *m, uint32_t *size,
			   uint32_t *type_id)
{
	const struct btf_type *t = btf_skip_mods(obj->btf, m->type, NULL);
	uint64_t sz;

	if (!t || btf_kind(t) != BTF_KIND_PTR ||
	    btf_type_size(obj->btf, t->type, &sz) || sz > UINT32_MAX)
		return obj_fail(obj, BSDK_EBTF, "map '%s': field '%s' is not declared with __type()", map, btf_str(obj->btf, m->name_off));
	*size = (uint32_t)sz;
	*type_id = t->type;
	return 0;
}

static int parse_btf_map(struct bsdk_obj *obj, struct bsdk_map *map, uint32_t var_type)
{
	static const struct {
		const char *name;
		size_t off;
	} uints[] = {
#define FIELD(f) { #f, offsetof(struct bsdk_map, f) }
		FIELD(type), FIELD(max_entries), FIELD(map_flags), FIELD(pinning),
		FIELD(key_size), FIELD(value_size), FIELD(map_extra), FIELD(numa_node),
#undef FIELD
	};
	const struct btf_type *t = btf_skip_mods(obj->btf, var_type, NULL);
	const struct btf_member *m;
	int err = 0;

	if (!t || btf_kind(t) != BTF_KIND_STRUCT)
		return obj_fail(obj, BSDK_EBTF, "map '%s': definition in '.maps' is not a struct", map->name);
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t) && !err; i++) {
		const char *field = btf_str(obj->btf, m[i].name_off);
		size_t k = 0;

		while (k < ARRAY_SIZE(uints) && strcmp(field, uints[k].name))
			k++;
		if (k < ARRAY_SIZE(uints)) {
			err = btf_uint_member(obj, map->name, &m[i],
					      (uint32_t *)((char *)map + uints[k].off));
		} else if (strcmp(field, "key") == 0) {
			err = btf_type_member(obj, map->name, &m[i], &map->key_size,
					      &map->btf_key_type_id);
		} else if (strcmp(field, "value") == 0) {
			err = btf_type_member(obj, map->name, &m[i], &map->value_size,
					      &map->btf_value_type_id);
		} else if (strcmp(field, "values") == 0) {
			return obj_fail(obj, ENOTSUP, "map '%s': initial 'values' (map-in-map, prog arrays) are not supported", map->name);
		} else {
			return obj_fail(obj, BSDK_EBTF, "map '%s': unknown field '%s' in its definition", map->name, field);
		}
	}
	return err;
}

static int sym_name_cmp(const void *a, const void *b, void *ef)
{
	return strcmp(elf_sym_name(ef, *(const GElf_Sym *const *)a),
		      elf_sym_name(ef, *(const GElf_Sym *const *)b));
}

/* The data symbols of section sec, sorted by name, into *syms (*n of them). */
static int syms_by_name(const struct elf_file *ef, size_t sec, const GElf_Sym ***syms, size_t *n)
{
	*n = 0;
	*syms = malloc((ef->nsyms ? ef->nsyms : 1) * sizeof(**syms));
	if (!*syms)
		return fail(ENOMEM);
	for (size_t i = 0; i < ef->nsyms; i++)
		if (ef->syms[i].st_shndx == sec && GELF_ST_TYPE(ef->syms[i].st_info) == STT_OBJECT &&
		    ef->syms[i].st_value <= UINT32_MAX)
			(*syms)[(*n)++] = &ef->syms[i];
	qsort_r(*syms, *n, sizeof(**syms), sym_name_cmp, (void *)ef);
	return 0;
}

/* The value of the symbol name among syms, or dflt when none has it. */
static uint32_t sym_value(const struct elf_file *ef, const GElf_Sym **syms, size_t n,
			  const char *name, uint32_t dflt)
{
	for (size_t lo = 0, hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(elf_sym_name(ef, syms[mid]), name);

		if (c == 0)
			return (uint32_t)syms[mid]->st_value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return dflt;
}

/* A map's place in '.maps' is its symbol's: clang leaves the DATASEC's
 * size and its variables' offsets 0, for the linker to fill in (as
 * ext/btf/btf_fixup.c does, for the kernel). A DATASEC of size 0 was not. */
static int collect_btf_maps(struct bsdk_obj *obj, size_t sec)
{
	const struct btf_type *ds;
	const struct btf_var_secinfo *vi;
	const GElf_Sym **syms = NULL;
	size_t nsyms = 0;
	uint32_t ds_id;
	int err = 0;

	if (!obj->btf)
		return obj_fail(obj, BSDK_EFORMAT, "section '.maps' needs BTF, but the object has no .BTF (build with clang -g)");
	ds_id = btf_find_scan(obj->btf, ".maps", BTF_KIND_DATASEC);
	if (!ds_id)
		return obj_fail(obj, BSDK_EBTF, ".BTF has no DATASEC for '.maps'");
	ds = btf_type_by_id(obj->btf, ds_id);
	vi = btf_secinfos(ds);
	if (ds->size == 0 && syms_by_name(&obj->file, sec, &syms, &nsyms))
		return -ENOMEM;
	for (uint16_t i = 0; i < btf_vlen(ds) && !err; i++) {
		const struct btf_type *var = btf_type_by_id(obj->btf, vi[i].type);
		uint32_t off = vi[i].offset;
		struct bsdk_map *map;

		if (!var || btf_kind(var) != BTF_KIND_VAR) {
			err = obj_fail(obj, BSDK_EBTF, "'.maps' entry %u is not a variable", i);
			break;
		}
		if (syms)
			off = sym_value(&obj->file, syms, nsyms, btf_name(obj->btf, var), off);
		if (range_outside(off, vi[i].size, obj->file.secs[sec].size)) {
			err = obj_fail(obj, BSDK_EBTF, "map '%s': lies outside the '.maps' section", btf_name(obj->btf, var));
			break;
		}
		map = map_add(obj, btf_name(obj->btf, var), ".maps", sec, off);
		err = map ? parse_btf_map(obj, map, var->type) : -errno;
	}
	free(syms);
	return err;
}

/* *total: the bytes of the data sections before this one. */
static int collect_data(struct bsdk_obj *obj, size_t sec, size_t *total)
{
	const struct elf_sec *s = &obj->file.secs[sec];
	struct bsdk_map *map;

	if (s->size == 0)
		return 0;
	/* .bss takes no room in the file, so only this bounds the copies we allocate, for all
	 * the sections together (many .bss.NAME could add up); kernels refuse array values far
	 * smaller (4 MB with 4K pages). */
	if (s->size > DATA_SEC_MAX)
		return obj_fail(obj, E2BIG, "section '%s': %zu bytes of global variables, more than the %u a map value may hold",
				s->name, s->size, DATA_SEC_MAX);
	if (*total + s->size > DATA_SEC_MAX)
		return obj_fail(obj, E2BIG, "section '%s': with it, the object's global variables take %zu bytes, more than the %u this loader takes",
				s->name, *total + s->size, DATA_SEC_MAX);
	*total += s->size;
	map = map_add(obj, s->name, s->name, sec, 0);
	if (!map)
		return -errno;
	map->type = BPF_MAP_TYPE_ARRAY;
	map->key_size = sizeof(uint32_t);
	map->value_size = (uint32_t)s->size;
	map->max_entries = 1;
	map->is_global_data = true;
	map->is_rodata = strncmp(s->name, ".rodata", 7) == 0;
	/* The program must not write what user space froze. */
	if (map->is_rodata)
		map->map_flags = BPF_F_RDONLY_PROG;
	/* (its value type, the section's DATASEC: the BTF pass, ext/btf/btf_load.c) */
	map->init_data = calloc(1, s->size);
	if (!map->init_data)
		return fail(ENOMEM);
	if (s->data)	/* .bss is SHT_NOBITS: zeros */
		memcpy(map->init_data, s->data, s->size);
	return 0;
}

/* The maps by where they are defined, for the lookups of relocations: an
 * object with tens of thousands of maps has a relocation for each. */
static int map_order_cmp(const void *a, const void *b, void *arg)
{
	const struct bsdk_map *maps = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (maps[x].sec != maps[y].sec)
		return maps[x].sec < maps[y].sec ? -1 : 1;
	if (maps[x].sec_offset != maps[y].sec_offset)
		return maps[x].sec_offset < maps[y].sec_offset ? -1 : 1;
	return (x > y) - (x < y);
}

static int maps_index(struct bsdk_obj *obj)
{
	free(obj->map_order);
	obj->nmap_order = 0;
	obj->map_order = malloc((obj->nmaps ? obj->nmaps : 1) * sizeof(*obj->map_order));
	if (!obj->map_order)
		return fail(ENOMEM);
	for (size_t i = 0; i < obj->nmaps; i++)
		obj->map_order[i] = i;
	qsort_r(obj->map_order, obj->nmaps, sizeof(*obj->map_order), map_order_cmp, obj->maps);
	obj->nmap_order = obj->nmaps;
	return 0;
}

int maps_collect(struct bsdk_obj *obj)
{
	size_t data_total = 0;
	int err = 0;

	for (size_t i = 1; i < obj->file.nsecs && !err; i++) {
		const char *name = obj->file.secs[i].name;

		if (strcmp(name, "maps") == 0)
			err = collect_legacy(obj, i);
		else if (strcmp(name, ".maps") == 0)
			err = collect_btf_maps(obj, i);
		else if (elf_sec_is_data(&obj->file, i))
			err = collect_data(obj, i, &data_total);
	}
	return err ? err : maps_index(obj);
}

/* The first map defined at sec + offset that is (data) or is not a global
 * data map; a scan when maps were added after the index was made. */
static struct bsdk_map *map_at(const struct bsdk_obj *obj, size_t sec, uint64_t offset, bool data)
{
	size_t lo = 0, hi = obj->nmap_order;

	if (obj->nmap_order != obj->nmaps) {
		for (size_t i = 0; i < obj->nmaps; i++)
			if (obj->maps[i].sec == sec && obj->maps[i].is_global_data == data &&
			    (data || obj->maps[i].sec_offset == offset))
				return &obj->maps[i];
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bsdk_map *m = &obj->maps[obj->map_order[mid]];

		if (m->sec < sec || (m->sec == sec && m->sec_offset < offset))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < obj->nmap_order; lo++) {
		struct bsdk_map *m = &obj->maps[obj->map_order[lo]];

		if (m->sec != sec || m->sec_offset != offset)
			break;
		if (m->is_global_data == data)
			return m;
	}
	return NULL;
}

struct bsdk_map *map_by_sec_offset(const struct bsdk_obj *obj, size_t sec, uint64_t offset)
{
	return map_at(obj, sec, offset, false);
}

/* A data section's map is defined at its offset 0. */
struct bsdk_map *map_by_data_sec(const struct bsdk_obj *obj, size_t sec)
{
	return map_at(obj, sec, 0, true);
}

/* The kernel refused to create map: one error, with what the extensions
 * know of why as detail lines (the rule it broke). */
static int map_create_failed(const struct bsdk_map *map, int err)
{
	const char *type = bsdk_map_type_name((int)map->type);
	char num[16];

	snprintf(num, sizeof(num), "type %u", map->type);
	log_error("map '%s': the kernel refused to create it (%s, key %u, value %u, max_entries %u): %s",
		  map->name, type ? type : num, map->key_size, map->value_size,
		  map->max_entries, bsdk_strerror(err));
	passes_map_create_failed(map, err);
	return fail(-err);
}

/* One slot per CPU is what bsdk_perfbuf_new() fills. */
static int map_perf_defaults(struct bsdk_map *map)
{
	if (map->max_entries == 0) {
		int ncpus = bsdk_cpu_possible_count();

		if (ncpus < 0)
			return ncpus;
		map->max_entries = (uint32_t)ncpus;
	}
	if (!map->key_size)
		map->key_size = sizeof(uint32_t);
	if (!map->value_size)
		map->value_size = sizeof(uint32_t);
	return 0;
}

/* BPF_MAP_CREATE, retried without what the kernel may refuse; sets
 * map->fd. */
static int map_create_fd(struct bsdk_map *map)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = map->type;
	attr.key_size = map->key_size;
	attr.value_size = map->value_size;
	attr.max_entries = map->max_entries;
	attr.map_flags = map->map_flags;
	attr.map_extra = map->map_extra;
	attr.numa_node = map->numa_node;	/* used with BPF_F_NUMA_NODE */
	kernel_name(attr.map_name, map->name);
	/* Global data mapped into user space: counters read with no system call. */
	if (map->is_global_data)
		attr.map_flags |= BPF_F_MMAPABLE;
	/* Types let bpftool print the map; some kernels refuse them for
	 * some map types, which is no reason to fail. */
	if (map->obj->btf_fd >= 0 && map->btf_value_type_id) {
		attr.btf_fd = (uint32_t)map->obj->btf_fd;
		attr.btf_key_type_id = map->btf_key_type_id;
		attr.btf_value_type_id = map->btf_value_type_id;
	}
	fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0 && attr.btf_value_type_id) {
		log_debug("map '%s': created without BTF types, which the kernel refused: %s", map->name, bsdk_strerror(fd));
		attr.btf_fd = attr.btf_key_type_id = attr.btf_value_type_id = 0;
		fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	}
	if (fd < 0 && (attr.map_flags & BPF_F_MMAPABLE) && !(map->map_flags & BPF_F_MMAPABLE)) {
		log_debug("map '%s': created without BPF_F_MMAPABLE, which the kernel refused: %s", map->name, bsdk_strerror(fd));
		attr.map_flags &= ~BPF_F_MMAPABLE;
		fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	}
	if (fd < 0)
		return map_create_failed(map, fd);
	map->fd = fd;
	log_debug("map '%s': created, fd %d", map->name, fd);
	return 0;
}

/* Global data starts with the object's bytes; .rodata is then frozen. */
static int map_init_value(struct bsdk_map *map)
{
	union bpf_attr attr;
	uint32_t zero = 0;
	int err;

	err = bpf_map_update(map->fd, &zero, map->init_data, 0);
	if (!err && map->is_rodata) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map->fd;
		err = sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
	}
	if (err)
		return log_fail(-err, "map '%s': cannot set its initial value: %s", map->name, bsdk_strerror(err));
	return 0;
}

static int map_create(struct bsdk_map *map)
{
	int err;

	if (map->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		err = map_perf_defaults(map);
		if (err)
			return err;
	}
	/* a map left unpinned would not be shared as its object asks */
	if (map->pinning == 1 /* LIBBPF_PIN_BY_NAME */ && !passes_pin_maps())
		return log_fail(BSDK_ENOTSUPP, "map '%s': asks to be pinned by name (LIBBPF_PIN_BY_NAME), which this build of the library does not do (libbpfsdk-core: link libbpfsdk)",
				map->name);
	/* what the extensions do first: reuse the map pinned at its path */
	err = passes_map_create(map);
	if (err)
		return err < 0 ? err : 0;

	err = map_create_fd(map);
	if (err)
		return err;

	if (map->is_global_data) {
		err = map_init_value(map);
		if (err)
			return err;
	}

	/* what the extensions do with a new map (global variables: mmap; pin) */
	return passes_map_created(map);
}

int maps_create(struct bsdk_obj *obj)
{
	for (size_t i = 0; i < obj->nmaps; i++) {
		int err = map_create(&obj->maps[i]);

		if (err)
			return err;
	}
	return 0;
}

void *bsdk_map_global_data(const struct bsdk_map *map, size_t *size)
{
	void *p;

	if (!map->is_global_data)
		return fail_ptr(EINVAL);
	if (size)
		*size = map->value_size;
	if (map->fd < 0)	/* not created: the value load will write */
		return map->init_data;
	/* created: user space reads it where an extension mapped it (ext/maps/globals.c) */
	p = passes_map_data(map);
	return p ? p : fail_ptr(EOPNOTSUPP);
}
