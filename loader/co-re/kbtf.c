// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kbtf.c - the kernel's BTF, read once per process and indexed by name.
 *
 * vmlinux's BTF describes some 150,000 types in 5 MB or more. CO-RE relocations, BTF-typed
 * attach points and kfunc externs all ask it "which types are called X", so it is parsed
 * once (btf_parse() is linear: one pass to find the records, one to check them), and the
 * name index (btf_index.h) over the types' essential names (the part before a "___flavour"
 * suffix) answers each question by walking one short chain.
 *
 * Modules' types live in split BTF (/sys/kernel/btf/<module>) on top of vmlinux's. They are
 * read only when a name is not in vmlinux, all at once, together with an fd of each module's
 * BTF object: the kernel wants that fd next to a module type ID (attach_btf_obj_fd, the
 * fd_array of kfunc calls). The fds come from walking the kernel's BTF objects
 * (BPF_BTF_GET_NEXT_ID, BPF_BTF_GET_FD_BY_ID, BPF_OBJ_GET_INFO_BY_FD for the name), which
 * needs CAP_SYS_ADMIN; without it, no module is searched.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "co-re/btf_index.h"
#include "co-re/kbtf.h"

#define VMLINUX_PATH "/sys/kernel/btf/vmlinux"

/* Two indexes per BTF, each built on first use: kernel functions (56,000 of vmlinux's 72,000
 * named types, wanted by attach points and kfuncs), and all other types (what CO-RE wants). */
enum { IX_TYPES, IX_FUNCS, IX_COUNT };

struct kbtf_btf {
	struct btf *btf;
	void *data;		/* what btf was parsed from, in place */
	size_t size;
	bool mapped;		/* data is an mmap of the sysfs file, else malloc'ed */
	struct btf_name_index *index[IX_COUNT];	/* co-re/btf_index.h; NULL until used */
	int fd;			/* module BTF object fd; 0 for vmlinux */
	char *name;		/* "vmlinux" or the module's */
};

struct kbtf {
	struct kbtf *next;	/* in the process-wide list */
	char *path;		/* NULL: the running kernel */
	int err;		/* reading vmlinux failed with this */
	struct kbtf_btf vmlinux;
	struct kbtf_btf *mods;
	size_t nmods;
	bool mods_read;		/* modules are only for the running kernel */
};

static struct kbtf *kbtfs;
/* Held while the list grows or a kernel's modules are read: objects may be opened from several
 * threads at once. What is built is only read afterwards. */
static pthread_mutex_t kbtf_lock = PTHREAD_MUTEX_INITIALIZER;

static int index_class(int kind) { return kind == BTF_KIND_FUNC ? IX_FUNCS : IX_TYPES; }

/* Build b's indexes that a lookup of kind (-1: any) needs. */
static int index_ready(struct kbtf_btf *b, int kind)
{
	int err = 0;

	pthread_mutex_lock(&kbtf_lock);
	for (int cls = 0; cls < IX_COUNT && !err; cls++) {
		if (b->index[cls] || (kind >= 0 && index_class(kind) != cls))
			continue;
		err = btf_name_index_build(&b->index[cls], b->btf,
					   cls == IX_FUNCS ? BTF_INDEX_FUNCS : BTF_INDEX_NOT_FUNCS);
	}
	pthread_mutex_unlock(&kbtf_lock);
	return err;
}

static void kbtf_btf_free(struct kbtf_btf *b)
{
	for (int cls = 0; cls < IX_COUNT; cls++)
		free(b->index[cls]);
	btf_free(b->btf);
	if (b->mapped)
		munmap(b->data, b->size);
	else
		free(b->data);
	if (b->fd > 0)
		close(b->fd);
	free(b->name);
}

/* The whole file at path, malloc'ed; sysfs files may report a size other than theirs. */
static void *slurp(const char *path, size_t *size)
{
	struct stat st;
	size_t cap, len = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return NULL;
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 20;
	for (;;) {
		ssize_t n;

		if (len == cap || !buf) {
			char *grown = realloc(buf, len == cap ? cap *= 2 : cap);

			if (!grown) {
				err = ENOMEM;
				break;
			}
			buf = grown;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	*size = len;
	return buf;
}

/* Map the kernel's own BTF files read-only (since 6.16 sysfs allows it): the kernel's memory
 * is parsed in place, with neither a read nor a copy. NULL when it cannot be. Only there:
 * another file could shrink under the mapping. */
static void *sysfs_map(const char *path, size_t *size)
{
	struct stat st;
	void *map = MAP_FAILED;
	int fd;

	if (strncmp(path, "/sys/kernel/btf/", 16) != 0)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return map;
}

/* Read and index one BTF file into b (split on base when base is not NULL). */
static int btf_file_read(struct kbtf_btf *b, const char *path, const struct btf *base)
{
	b->data = sysfs_map(path, &b->size);
	b->mapped = b->data != NULL;
	if (!b->data)
		b->data = slurp(path, &b->size);	/* malloc'ed: aligned */
	if (!b->data)
		return log_fail(errno, "cannot read kernel BTF '%s': %s", path, bsdk_strerror(errno));
	b->name = strdup(path);
	if (!b->name)
		return fail(ENOMEM);
	b->btf = btf_parse_borrowed(b->data, b->size, base, b->name);
	return b->btf ? 0 : -errno;
}

static struct kbtf *kbtf_get_locked(const char *custom_path)
{
	struct kbtf *k;

	for (k = kbtfs; k; k = k->next)
		if (custom_path ? k->path && strcmp(k->path, custom_path) == 0 : !k->path)
			break;
	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k || (custom_path && !(k->path = strdup(custom_path)))) {
			free(k);
			return fail_ptr(ENOMEM);
		}
		k->err = -btf_file_read(&k->vmlinux, custom_path ? custom_path : VMLINUX_PATH, NULL);
		if (!k->err)
			log_debug("kernel BTF '%s': %u types", k->vmlinux.name,
				  btf_type_count(k->vmlinux.btf) - 1);
		k->mods_read = custom_path != NULL;
		k->next = kbtfs;
		kbtfs = k;
	} else if (k->err) {
		log_error("cannot read kernel BTF '%s': %s", custom_path ? custom_path : VMLINUX_PATH,
			  bsdk_strerror(k->err));
	}
	return k->err ? fail_ptr(k->err) : k;
}

static struct kbtf *kbtf_get(const char *custom_path)
{
	struct kbtf *k;
	int err;

	pthread_mutex_lock(&kbtf_lock);
	k = kbtf_get_locked(custom_path);
	err = errno;
	pthread_mutex_unlock(&kbtf_lock);
	errno = err;
	return k;
}

const struct btf *kbtf_vmlinux(const char *custom_path)
{
	struct kbtf *k = kbtf_get(custom_path);

	return k ? k->vmlinux.btf : NULL;
}

/* The kernel's BTF object fd id and its name, when it is a module's. fd or -errno. */
static int btf_obj_module(uint32_t id, char *name, size_t size)
{
	struct bpf_btf_info info;
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.btf_id = id;
	fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	memset(name, 0, size);
	info.name = (uint64_t)(uintptr_t)name;
	info.name_len = (uint32_t)size;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	if (err < 0 || !info.kernel_btf || !name[0] || name[size - 1] ||
	    strcmp(name, "vmlinux") == 0 || strchr(name, '/')) {
		close(fd);
		return err < 0 ? err : -ENOENT;
	}
	return fd;
}

static void modules_read(struct kbtf *k)
{
	uint32_t id = 0;

	k->mods_read = true;
	for (;;) {
		struct kbtf_btf m = { 0 };
		union bpf_attr attr;
		char name[64], path[128];
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_BTF_GET_NEXT_ID, &attr, sizeof(attr)) < 0)
			break;	/* ENOENT: the last one; EPERM: not allowed to see any */
		id = attr.next_id;
		fd = btf_obj_module(id, name, sizeof(name));
		if (fd < 0)
			continue;
		m.fd = fd;
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
		if (btf_file_read(&m, path, k->vmlinux.btf) ||
		    array_push(&k->mods, &k->nmods, &m, sizeof(m))) {
			log_warn("kernel module '%s': BTF not usable, its types are not searched", name);
			kbtf_btf_free(&m);
		}
	}
	log_debug("kernel BTF: %zu modules with BTF", k->nmods);
}

/* fn(b, id) when type id is of kind (-1: any) and has the essential name name[0..len). */
static int visit(const struct kbtf_btf *b, uint32_t id, const char *name, size_t len, int kind,
		 int (*fn)(const struct kbtf_btf *b, uint32_t id, void *ctx), void *ctx)
{
	const struct btf_type *t = btf_type_by_id(b->btf, id);
	const char *tn = btf_name(b->btf, t);
	int tk = btf_kind(t);

	if (tk == BTF_KIND_ENUM64)
		tk = BTF_KIND_ENUM;
	if ((kind >= 0 && tk != kind) || btf_essential_len(tn) != len || memcmp(tn, name, len) != 0)
		return 0;
	return fn(b, id, ctx);
}

/* Visit the types of b whose essential name is name[0..len) and kind is kind (-1: any); stop
 * at the first for which fn returns non-zero, and return that. */
static int index_walk(struct kbtf_btf *b, const char *name, size_t len, int kind,
		      int (*fn)(const struct kbtf_btf *b, uint32_t id, void *ctx), void *ctx)
{
	int ret = index_ready(b, kind);

	for (int cls = 0; cls < IX_COUNT && !ret; cls++) {
		const struct btf_name_index *ix = b->index[cls];

		if (kind >= 0 && index_class(kind) != cls)
			continue;
		for (uint32_t id = btf_name_index_first(ix, name, len); id && !ret;
		     id = btf_name_index_next(ix, id))
			ret = visit(b, id, name, len, kind, fn, ctx);
	}
	return ret;
}

/* Walk vmlinux, then (when it has no match) the modules. */
static int kbtf_walk(const char *custom_path, const char *name, size_t len, int kind,
		     int (*fn)(const struct kbtf_btf *b, uint32_t id, void *ctx), void *ctx,
		     size_t *found)
{
	struct kbtf *k = kbtf_get(custom_path);
	int ret;

	if (!k)
		return -errno;
	ret = index_walk(&k->vmlinux, name, len, kind, fn, ctx);
	if (ret || *found)
		return ret;
	pthread_mutex_lock(&kbtf_lock);
	if (!k->mods_read)
		modules_read(k);
	pthread_mutex_unlock(&kbtf_lock);
	for (size_t i = 0; i < k->nmods && !ret && !*found; i++)
		ret = index_walk(&k->mods[i], name, len, kind, fn, ctx);
	return ret;
}

struct find_ctx {
	const char *name;
	const struct btf *btf;
	uint32_t id;
	int fd;
	size_t found;
};

static int find_exact(const struct kbtf_btf *b, uint32_t id, void *ctx)
{
	struct find_ctx *f = ctx;

	if (strcmp(btf_name(b->btf, btf_type_by_id(b->btf, id)), f->name) != 0)
		return 0;	/* "x___y" when "x" was asked for */
	f->btf = b->btf;
	f->id = id;
	f->fd = b->fd;
	f->found = 1;
	return 1;
}

int kbtf_find(const char *custom_path, const char *name, int kind,
	      const struct btf **btf, uint32_t *id, int *btf_obj_fd)
{
	struct find_ctx f = { .name = name };
	int ret;

	if (kind == BTF_KIND_ENUM64)
		kind = BTF_KIND_ENUM;
	ret = kbtf_walk(custom_path, name, btf_essential_len(name), kind, find_exact, &f,
			&f.found);
	if (ret < 0)
		return ret;
	if (!f.found)
		return fail(ENOENT);
	if (btf)
		*btf = f.btf;
	if (id)
		*id = f.id;
	if (btf_obj_fd)
		*btf_obj_fd = f.fd;
	return 0;
}

struct cands_ctx {
	struct kbtf_cand *cands;
	size_t n;
};

static int add_cand(const struct kbtf_btf *b, uint32_t id, void *ctx)
{
	struct cands_ctx *c = ctx;

	return array_push(&c->cands, &c->n, &(struct kbtf_cand){ b->btf, id, b->fd },
			  sizeof(struct kbtf_cand));
}

static int cand_cmp(const void *a, const void *b)
{
	const struct kbtf_cand *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int kbtf_candidates(const char *custom_path, const char *name, size_t len, int kind,
		    struct kbtf_cand **cands)
{
	struct cands_ctx c = { 0 };
	int ret;

	if (kind == BTF_KIND_ENUM64)
		kind = BTF_KIND_ENUM;
	ret = kbtf_walk(custom_path, name, len, kind, add_cand, &c, &c.n);
	if (ret < 0) {
		free(c.cands);
		return ret;
	}
	/* each chain is in ID order, but vmlinux's functions and other types are two */
	if (c.n > 1)
		qsort(c.cands, c.n, sizeof(*c.cands), cand_cmp);
	*cands = c.cands;
	return (int)c.n;
}

void kbtf_release(void)
{
	pthread_mutex_lock(&kbtf_lock);
	while (kbtfs) {
		struct kbtf *k = kbtfs;

		kbtfs = k->next;
		for (size_t i = 0; i < k->nmods; i++)
			kbtf_btf_free(&k->mods[i]);
		free(k->mods);
		kbtf_btf_free(&k->vmlinux);
		free(k->path);
		free(k);
	}
	pthread_mutex_unlock(&kbtf_lock);
}
