// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * obj.c - the object's life: open (parse everything), load (create maps,
 * load programs), attach, close. The public accessors live here too.
 *
 * Opening does all the parsing and checking that needs no kernel, so a
 * malformed object fails at bsdk_obj_open() - which `bpfsdk inspect` and
 * the fuzz target exercise without any bpf() call.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/object.h"
#include "object/pass.h"
#include "format/btf.h"

/* The largest object file bsdk_obj_open() reads: far larger than what
 * clang makes of any BPF program, small enough to read into memory. */
#define OBJ_SIZE_MAX (512u << 20)

/* .BTF, when there is one: parsed, its loops refused, then made what the
 * linker would have by a pass (ext/btf/btf_fixup.c) before anything reads it. */
static int btf_collect(struct bsdk_obj *obj)
{
	const struct elf_sec *s;
	uint32_t to;

	s = elf_sec_by_name(&obj->file, ".BTF", NULL);
	if (s && !elf_sec_name_unique(&obj->file, ".BTF"))
		return obj_fail(obj, BSDK_EFORMAT, "two sections are named '.BTF'");
	if (s) {
		if (s->shdr.sh_type != SHT_PROGBITS || !s->data)
			return obj_fail(obj, BSDK_EFORMAT, "section '.BTF' holds no data (type %u)", s->shdr.sh_type);
		obj->btf = btf_parse(s->data, s->size, obj->name);
		if (!obj->btf)
			return -errno;
		/* the kernel refuses it too, and every walk of such a chain fails */
		if (btf_loop(obj->btf, &to))
			return obj_fail(obj, BSDK_EBTF, ".BTF: type %u: refers back to type %u: typedefs, modifiers, arrays or variables in a loop",
					btf_loop(obj->btf, &to), to);
		return passes_btf(obj);
	}
	return 0;
}

/* Whether .BTF.ext holds CO-RE records, by its header alone: the section
 * itself is the passes' to read (ext/btf/btf_ext_pass.c). */
static bool btf_ext_has_core(const struct bsdk_obj *obj)
{
	const struct elf_sec *s = elf_sec_by_name(&obj->file, ".BTF.ext", NULL);
	struct btf_ext_header h;

	if (!s || !s->data || s->size < sizeof(h))
		return false;
	memcpy(&h, s->data, sizeof(h));
	return h.magic == BTF_MAGIC && h.hdr_len >= sizeof(h) && h.core_relo_len != 0;
}

/* The extensions' passes at open; an object that needs one missing here fails. */
static int extensions_open(struct bsdk_obj *obj)
{
	int err = passes_open(obj);

	if (!err && !passes_apply_core_relos() && btf_ext_has_core(obj))
		err = obj_fail(obj, BSDK_ENOTSUPP, "CO-RE relocations, which this build of the library does not apply (libbpfsdk-core: link libbpfsdk)");
	return err;
}

/* Open the object in image (malloc'ed, size > 0), which it takes: freed
 * with the object, or at once on failure. */
static struct bsdk_obj *obj_open_image(void *image, size_t size, const char *name,
				       const struct bsdk_obj_open_opts *opts)
{
	struct bsdk_obj_open_opts o = { 0 };
	struct bsdk_obj *obj;
	int err;

	if (opts && opts_copy(&o, sizeof(o), opts, opts->sz, sizeof(size_t), "bsdk_obj_open_opts")) {
		free(image);
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		free(image);
		return fail_ptr(ENOMEM);
	}
	obj->btf_fd = -1;
	obj->file.image = image;
	obj->file.image_size = size;
	obj->name = strdup(name ? name : "(memory)");
	obj->file.name = obj->name;
	if (o.btf_path)
		obj->btf_path = strdup(o.btf_path);
	if (!obj->name || (o.btf_path && !obj->btf_path)) {
		bsdk_obj_close(obj);
		return fail_ptr(ENOMEM);
	}

	err = obj->btf_path ? passes_kernel_btf(obj) : 0;
	if (!err)
		err = elf_parse(&obj->file);
	if (!err)
		err = btf_collect(obj);
	if (!err)
		err = maps_collect(obj);
	if (!err)
		err = progs_collect(obj);
	if (!err && obj->nprogs == 0) {
		log_error("'%s': no BPF programs in the object", obj->name);
		err = -BSDK_EFORMAT;
	}
	if (!err)
		err = extensions_open(obj);
	if (!err)
		err = relos_collect(obj);
	if (!err)
		err = passes_opened(obj);
	if (err) {
		bsdk_obj_close(obj);
		return fail_ptr(-err);
	}
	return obj;
}

struct bsdk_obj *bsdk_obj_open_mem_opts(const void *buf, size_t size, const char *name,
					const struct bsdk_obj_open_opts *opts)
{
	void *image;

	if (!buf || size == 0) {
		log_error("'%s': empty object", name ? name : "(memory)");
		return fail_ptr(BSDK_EFORMAT);
	}
	image = malloc(size);
	if (!image)
		return fail_ptr(ENOMEM);
	memcpy(image, buf, size);
	return obj_open_image(image, size, name, opts);
}

struct bsdk_obj *bsdk_obj_open_mem(const void *buf, size_t size, const char *name)
{
	return bsdk_obj_open_mem_opts(buf, size, name, NULL);
}

struct bsdk_obj *bsdk_obj_open(const char *path)
{
	return bsdk_obj_open_opts(path, NULL);
}

/* Read exactly size bytes at the file's current offset. 0 or errno (EIO: the file ended). */
static int read_all(int fd, void *buf, size_t size)
{
	for (size_t done = 0; done < size;) {
		ssize_t n = read(fd, (char *)buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		done += (size_t)n;
	}
	return 0;
}

/* The file is read once, into the image the object keeps; what is not
 * an ELF file, or is far larger than any BPF object, is not read at all. */
struct bsdk_obj *bsdk_obj_open_opts(const char *path, const struct bsdk_obj_open_opts *opts)
{
	unsigned char magic[SELFMAG];
	struct stat st;
	void *buf;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		log_error("cannot open '%s': %s", path, bsdk_strerror(err));
		return fail_ptr(err);
	}
	if (fstat(fd, &st) < 0) {
		err = errno;
		log_error("cannot read '%s': %s", path, bsdk_strerror(err));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		log_error("'%s': not a regular file", path);
		goto fail;
	}
	if (st.st_size == 0 || (size_t)st.st_size < SELFMAG) {
		log_error("'%s': %s", path, st.st_size ? "not an ELF file" : "empty object");
		err = BSDK_EFORMAT;
		goto fail;
	}
	if ((uint64_t)st.st_size > OBJ_SIZE_MAX) {
		log_error("'%s': %llu bytes, more than the %u MiB this loader reads of an object",
			  path, (unsigned long long)st.st_size, OBJ_SIZE_MAX >> 20);
		err = E2BIG;
		goto fail;
	}
	err = read_all(fd, magic, SELFMAG);
	if (!err && memcmp(magic, ELFMAG, SELFMAG)) {
		log_error("'%s': not an ELF file", path);
		err = BSDK_EFORMAT;
		goto fail;
	}
	buf = err ? NULL : malloc((size_t)st.st_size);
	if (!err && !buf)
		err = ENOMEM;
	if (!err) {
		memcpy(buf, magic, SELFMAG);
		err = read_all(fd, (char *)buf + SELFMAG, (size_t)st.st_size - SELFMAG);
		if (err)
			free(buf);
	}
	if (err) {
		if (err != ENOMEM)
			log_error("cannot read '%s': %s", path, bsdk_strerror(err));
		goto fail;
	}
	close(fd);
	return obj_open_image(buf, (size_t)st.st_size, path, opts);
fail:
	close(fd);
	return fail_ptr(err);
}

static void obj_unload(struct bsdk_obj *obj)
{
	for (size_t i = 0; i < obj->nprogs; i++) {
		if (obj->progs[i].fd >= 0)
			close(obj->progs[i].fd);
		obj->progs[i].fd = -1;
	}
	passes_unload(obj);
	for (size_t i = 0; i < obj->nmaps; i++) {
		if (obj->maps[i].fd >= 0)
			close(obj->maps[i].fd);
		obj->maps[i].fd = -1;
	}
	if (obj->btf_fd >= 0)
		close(obj->btf_fd);
	obj->btf_fd = -1;
	obj->loaded = false;
}

int obj_load_begin(struct bsdk_obj *obj)
{
	int err;

	if (obj->loaded)
		return obj_fail(obj, EBUSY, "already loaded");
	bsdk_bump_memlock();
	/* the extensions first: CO-RE refuses what it could not resolve,
	 * externs fix the .kconfig map's value, the object's BTF goes into
	 * the kernel (obj->btf_fd) */
	err = passes_load(obj);
	if (err)
		return err;
	err = maps_create(obj);
	if (err)
		obj_load_abort(obj, err);
	return err;
}

void obj_load_abort(struct bsdk_obj *obj, int err)
{
	passes_load_failed(obj);
	obj_unload(obj);
	errno = -err;
}

int bsdk_obj_load(struct bsdk_obj *obj)
{
	int err = obj_load_begin(obj);

	if (err)
		return err;
	for (size_t i = 0; i < obj->nprogs && !err; i++)
		if (obj->progs[i].autoload)
			err = prog_load(&obj->progs[i], false);
	if (err) {
		obj_load_abort(obj, err);
		return err;
	}
	obj->loaded = true;
	return 0;
}

void link_free(struct bsdk_link *link)
{
	passes_link_free(link);	/* what an extension hangs off it (USDT's other sites) */
	if (link->link_fd >= 0)
		close(link->link_fd);
	if (link->perf_fd >= 0)
		close(link->perf_fd);
	free(link);
}

void bsdk_obj_close(struct bsdk_obj *obj)
{
	if (!obj)
		return;
	while (obj->links) {
		struct bsdk_link *link = obj->links;

		obj->links = link->next;
		link_free(link);
	}
	obj_unload(obj);
	for (size_t i = 0; i < obj->nmaps; i++) {
		free(obj->maps[i].name);
		free(obj->maps[i].init_data);
	}
	for (size_t i = 0; i < obj->nprogs; i++)
		free(obj->progs[i].target_buf);
	for (size_t i = 0; obj->relos && i < obj->file.nsecs; i++)
		free(obj->relos[i]);
	obj_states_free(obj);
	free(obj->relos);
	free(obj->nrelos);
	free(obj->maps);
	free(obj->map_order);
	free(obj->progs);
	free(obj->subprogs);
	btf_free(obj->btf);
	elf_file_free(&obj->file);
	free(obj->name);
	free(obj->btf_path);
	free(obj);
}

const char *bsdk_obj_name(const struct bsdk_obj *obj) { return obj->name; }
const char *bsdk_obj_license(const struct bsdk_obj *obj) { return obj->file.license; }
uint32_t bsdk_obj_kversion(const struct bsdk_obj *obj) { return obj->file.kversion; }
bool bsdk_obj_has_btf(const struct bsdk_obj *obj) { return obj->btf != NULL; }

bool bsdk_obj_gpl_compatible(const struct bsdk_obj *obj)
{
	static const char *const gpl[] = { "GPL", "GPL v2",
		"GPL and additional rights", "Dual BSD/GPL", "Dual MIT/GPL",
		"Dual MPL/GPL" };

	for (size_t i = 0; i < ARRAY_SIZE(gpl); i++)
		if (strcmp(obj->file.license, gpl[i]) == 0)
			return true;
	return false;
}

struct bsdk_prog *bsdk_obj_prog_next(const struct bsdk_obj *obj, const struct bsdk_prog *prev)
{
	size_t next = prev ? (size_t)(prev - obj->progs) + 1 : 0;

	return next < obj->nprogs ? &obj->progs[next] : NULL;
}

struct bsdk_map *bsdk_obj_map_next(const struct bsdk_obj *obj, const struct bsdk_map *prev)
{
	size_t next = prev ? (size_t)(prev - obj->maps) + 1 : 0;

	return next < obj->nmaps ? &obj->maps[next] : NULL;
}

struct bsdk_prog *bsdk_obj_prog_find(const struct bsdk_obj *obj, const char *name)
{
	for (size_t i = 0; i < obj->nprogs; i++)
		if (strcmp(obj->progs[i].fn.name, name) == 0)
			return &obj->progs[i];
	return fail_ptr(ENOENT);
}

struct bsdk_map *bsdk_obj_map_find(const struct bsdk_obj *obj, const char *name)
{
	for (size_t i = 0; i < obj->nmaps; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return fail_ptr(ENOENT);
}

/* ---- programs ---- */

const char *bsdk_prog_name(const struct bsdk_prog *prog) { return prog->fn.name; }
const char *bsdk_prog_type_name(const struct bsdk_prog *prog) { return prog->kind->type_name; }
const char *bsdk_prog_attach_target(const struct bsdk_prog *prog) { return prog->target; }
int bsdk_prog_fd(const struct bsdk_prog *prog) { return prog->fd; }
const char *bsdk_prog_section(const struct bsdk_prog *prog) { return prog->section; }
int bsdk_prog_type(const struct bsdk_prog *prog) { return prog->kind->prog_type; }
size_t bsdk_prog_insn_count(const struct bsdk_prog *prog) { return prog->fn.count; }
bool bsdk_prog_autoload(const struct bsdk_prog *prog) { return prog->autoload; }

int bsdk_prog_expected_attach_type(const struct bsdk_prog *prog)
{
	return (int)prog->kind->expected_attach_type;
}

int bsdk_prog_set_autoload(struct bsdk_prog *prog, bool autoload)
{
	if (prog->obj->loaded)
		return fail(EBUSY);
	prog->autoload = autoload;
	return 0;
}

int bsdk_prog_set_attach_target(struct bsdk_prog *prog, const char *target)
{
	char *copy;

	if (!target || !*target || prog->kind->target == TARGET_NONE)
		return log_fail(EINVAL, "program '%s': %s", prog->fn.name,
				prog->kind->target == TARGET_NONE ? "its kind takes no attach target" :
				"empty attach target");
	copy = strdup(target);
	if (!copy)
		return fail(ENOMEM);
	free(prog->target_buf);
	prog->target = prog->target_buf = copy;
	return 0;
}

struct bsdk_link *link_new(struct bsdk_prog *prog)
{
	struct bsdk_link *link;

	if (prog->fd < 0) {
		log_error("program '%s': not loaded, cannot attach", prog->fn.name);
		return fail_ptr(EBADF);
	}
	link = malloc(sizeof(*link));
	if (!link)
		return fail_ptr(ENOMEM);
	*link = (struct bsdk_link){ .obj = prog->obj, .prog = prog, .link_fd = -1, .perf_fd = -1 };
	return link;
}

struct bsdk_link *bsdk_prog_link(const struct bsdk_prog *prog)
{
	/* the list is newest first */
	for (struct bsdk_link *l = prog->obj->links; l; l = l->next)
		if (l->prog == prog)
			return l;
	return fail_ptr(ENOENT);
}

void link_add(struct bsdk_prog *prog, struct bsdk_link *link)
{
	link->next = prog->obj->links;
	prog->obj->links = link;
	prog->attached = true;
}

int bsdk_link_fd(const struct bsdk_link *link)
{
	return link->link_fd >= 0 ? link->link_fd : link->perf_fd;
}

void bsdk_link_destroy(struct bsdk_link *link)
{
	struct bsdk_link **pp;

	if (!link)
		return;
	for (pp = &link->obj->links; *pp; pp = &(*pp)->next) {
		if (*pp == link) {
			*pp = link->next;
			break;
		}
	}
	link_free(link);
}

/* ---- maps ---- */

const char *bsdk_map_name(const struct bsdk_map *map) { return map->name; }
int bsdk_map_fd(const struct bsdk_map *map) { return map ? map->fd : fail(EINVAL); }
int bsdk_map_type(const struct bsdk_map *map) { return (int)map->type; }
uint32_t bsdk_map_key_size(const struct bsdk_map *map) { return map->key_size; }
uint32_t bsdk_map_value_size(const struct bsdk_map *map) { return map->value_size; }
uint32_t bsdk_map_max_entries(const struct bsdk_map *map) { return map->max_entries; }
const char *bsdk_map_origin(const struct bsdk_map *map) { return map->origin; }

int bsdk_map_set_value_size(struct bsdk_map *map, uint32_t size)
{
	if (!map->obj || map->obj->loaded)	/* pinned, or created */
		return fail(EBUSY);
	if (map->is_global_data)	/* its size is its section's */
		return fail(EINVAL);
	map->value_size = size;
	return 0;
}

int bsdk_map_set_max_entries(struct bsdk_map *map, uint32_t max_entries)
{
	if (!map->obj || map->obj->loaded)	/* pinned, or created */
		return fail(EBUSY);
	map->max_entries = max_entries;
	return 0;
}

/* A skeleton names what the object it was generated from had. */
int bsdk_obj_skeleton_mismatch(const struct bsdk_obj *obj, const char *what, const char *name)
{
	return obj_fail(obj, ENOENT, "no %s '%s': the skeleton was generated from another object",
			what, name);
}
