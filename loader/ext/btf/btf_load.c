// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_load.c - an object's .BTF into the kernel (BPF_BTF_LOAD), made fit
 * for the running kernel first: the kinds it lacks are found by probing,
 * once per process, and rewritten by btf_sanitize(). The BTF pass: at
 * open it makes the BTF what the linker would have (btf_fixup.c) and
 * gives global data maps their DATASEC as value type; at load it gives
 * the object its BTF fd, which maps are created and programs loaded with
 * (their func and line info). Without it (libbpfsdk-core.a) an object
 * loads without BTF in the kernel.
 */
#include <unistd.h>

#include "ext/btf/btf_load.h"
#include "object/pass.h"
#include "co-re/btf_index.h"

/* ---- .BTF into the kernel. Kinds newer than the running kernel make it
 * refuse the whole blob, so each is probed once with a tiny BTF of its
 * own, and records of missing kinds are rewritten into old kinds that
 * keep every type ID: the kernel needs the IDs, not the exact types. */

#define INT_S32 BTF_INFO_ENC(BTF_KIND_INT, 0, 0), 4, (BTF_INT_SIGNED << 24 | 32)

/* One tiny BTF per feature: n words of type records; names 1 is "x" and 3
 * is ".d" in probe_strs. */
static const char probe_strs[] = "\0x\0.d";
static const struct {
	uint32_t n;
	uint32_t t[14];
} probes[FEAT_COUNT] = {
	[FEAT_GLOBAL_FUNC] = { 6, { 0, BTF_INFO_ENC(BTF_KIND_FUNC_PROTO, 0, 0), 0,
				    1, BTF_INFO_ENC(BTF_KIND_FUNC, BTF_FUNC_GLOBAL, 0), 1 } },
	[FEAT_DATASEC] = { 14, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_VAR, 0, 0), 1, 1,
				 3, BTF_INFO_ENC(BTF_KIND_DATASEC, 1, 0), 4, 2, 0, 4 } },
	[FEAT_FLOAT] = { 3, { 1, BTF_INFO_ENC(BTF_KIND_FLOAT, 0, 0), 4 } },
	[FEAT_DECL_TAG] = { 12, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_VAR, 0, 0), 1, 0,
				  1, BTF_INFO_ENC(BTF_KIND_DECL_TAG, 0, 0), 2, (uint32_t)-1 } },
	[FEAT_TYPE_TAG] = { 10, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_TYPE_TAG, 0, 0),
				  1, 0, BTF_INFO_ENC(BTF_KIND_PTR, 0, 0), 2 } },
	[FEAT_ENUM64] = { 6, { 1, BTF_INFO_ENC(BTF_KIND_ENUM64, 1, 0), 8, 1, 1, 0 } },
};

/* BPF_BTF_LOAD raw; with a log buffer when log is not NULL. fd or -errno. */
static int btf_load_raw(const void *raw, size_t size, char *log, size_t log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uint64_t)(uintptr_t)raw;
	attr.btf_size = (uint32_t)size;
	if (log) {
		log[0] = '\0';
		attr.btf_log_buf = (uint64_t)(uintptr_t)log;
		attr.btf_log_size = (uint32_t)log_size;
		attr.btf_log_level = 1;
	}
	return sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
}

static bool feature_probe(enum btf_feature f)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_len = probes[f].n * 4,
		.str_off = probes[f].n * 4, .str_len = sizeof(probe_strs),
	};
	char blob[sizeof(h) + sizeof(probes[f].t) + sizeof(probe_strs)];
	int fd;

	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), probes[f].t, h.type_len);
	memcpy(blob + sizeof(h) + h.type_len, probe_strs, sizeof(probe_strs));
	fd = btf_load_raw(blob, sizeof(h) + h.type_len + h.str_len, NULL, 0);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* Rewrite the record o, a copy of t, into older kinds than those missing:
 * sizes and type IDs stay; names of rewritten records are dropped, since
 * old kernels check them as C identifiers and ".bss" is not one. The
 * record's new size. */
static size_t sanitize_type(const struct btf_type *t, struct btf_type *o, unsigned int missing)
{
	uint32_t *tail = (uint32_t *)(o + 1);
	uint16_t vlen = btf_vlen(t);
	int kind = btf_kind(t);

	if (kind == BTF_KIND_FUNC && (missing & 1u << FEAT_GLOBAL_FUNC)) {
		o->info = BTF_INFO_ENC(BTF_KIND_FUNC, 0, 0);
	} else if ((kind == BTF_KIND_VAR && (missing & 1u << FEAT_DATASEC)) ||
		   (kind == BTF_KIND_DECL_TAG && (missing & 1u << FEAT_DECL_TAG))) {
		/* a one-byte int: same record size as both */
		o->name_off = 0;
		o->info = BTF_INFO_ENC(BTF_KIND_INT, 0, 0);
		o->size = 1;
		tail[0] = 8;
	} else if (kind == BTF_KIND_DATASEC && (missing & 1u << FEAT_DATASEC)) {
		const struct btf_var_secinfo *v = btf_secinfos(t);
		struct btf_member *m = (void *)tail;

		o->name_off = 0;
		o->info = BTF_INFO_ENC(BTF_KIND_STRUCT, vlen, 0);
		for (uint16_t i = 0; i < vlen; i++)
			m[i] = (struct btf_member){ 0, v[i].type, v[i].offset * 8 };
	} else if (kind == BTF_KIND_FLOAT && (missing & 1u << FEAT_FLOAT)) {
		o->name_off = 0;
		o->info = BTF_INFO_ENC(BTF_KIND_STRUCT, 0, 0);
	} else if (kind == BTF_KIND_TYPE_TAG && (missing & 1u << FEAT_TYPE_TAG)) {
		o->name_off = 0;
		o->info = BTF_INFO_ENC(BTF_KIND_VOLATILE, 0, 0);
	} else if (kind == BTF_KIND_ENUM64 && (missing & 1u << FEAT_ENUM64)) {
		/* the low 32 bits of each value: the kernel only checks the shape */
		const struct btf_enum64 *e64 = (const void *)(t + 1);
		struct btf_enum *e = (void *)tail;

		o->info = BTF_INFO_ENC(BTF_KIND_ENUM, vlen, 0);
		for (uint16_t i = 0; i < vlen; i++)
			e[i] = (struct btf_enum){ e64[i].name_off, (int32_t)e64[i].val_lo32 };
		return sizeof(*t) + vlen * sizeof(*e);
	}
	return btf_type_rec_size(t);
}

void *btf_sanitize(const struct btf *btf, unsigned int missing, size_t *size)
{
	size_t raw_size, len = 0;
	const char *raw = btf_raw(btf, &raw_size);
	struct btf_header in, h;
	char *out, *types;

	memcpy(&in, raw, sizeof(in));	/* btf_parse() checked it */
	h = in;
	out = malloc(sizeof(h) + h.type_len + h.str_len);
	if (!out)
		return fail_ptr(ENOMEM);
	types = out + sizeof(h);
	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		struct btf_type *o = (void *)(types + len);

		memcpy(o, t, btf_type_rec_size(t));
		len += sanitize_type(t, o, missing);
	}
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = (uint32_t)len;
	h.str_off = (uint32_t)len;
	memcpy(out, &h, sizeof(h));
	memcpy(types + len, raw + in.hdr_len + in.str_off, h.str_len);
	*size = sizeof(h) + len + h.str_len;
	return out;
}

int btf_load_kernel(const struct btf *btf, const char *obj)
{
	static int cached = -1;	/* the kernel does not change under us */
	int missing = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
	char log[4096];
	size_t size;
	void *raw;
	int fd;

	if (missing < 0) {
		/* whole before it is shared: another thread may load meanwhile */
		missing = 0;
		for (int f = 0; f < FEAT_COUNT; f++)
			if (!feature_probe(f))
				missing |= 1 << f;
		log_debug("BTF kinds this kernel lacks: mask %#x", missing);
		__atomic_store_n(&cached, missing, __ATOMIC_RELEASE);
	}
	raw = btf_sanitize(btf, (unsigned int)missing, &size);
	fd = raw ? btf_load_raw(raw, size, NULL, 0) : -ENOMEM;
	if (fd < 0 && raw) {
		int with_log = btf_load_raw(raw, size, log, sizeof(log));
		char *save = NULL;

		if (with_log >= 0)
			close(with_log);
		for (char *line = strtok_r(log, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			log_debug("  BTF: %s", line);
	}
	if (fd < 0)
		log_warn("'%s': the kernel refused the object's BTF (%s%s); loading without it, so verifier messages show no source lines",
			 obj, bsdk_strerror(fd), fd == -EPERM ? ": it takes CAP_BPF" : "");
	free(raw);
	return fd < 0 ? -1 : fd;
}


/* ---- The pass */

/* .BTF just parsed, before anything reads it: what the linker would have
 * made of it (btf_fixup.c). */
static int btf_pass_parsed(struct bsdk_obj *obj)
{
	btf_mark_hidden_static(obj->btf, &obj->file);
	return btf_fixup_datasecs(obj->btf, &obj->file);
}

/* A data section's map has the section's DATASEC as its value, as libbpf
 * gives it: bpftool and map views show each variable by name (a kernel
 * that refuses the type gets the map without it). Not the externs'
 * .kconfig, which has no section. */
static int btf_pass_open(struct bsdk_obj *obj)
{
	for (size_t i = 0; obj->btf && i < obj->nmaps; i++) {
		struct bsdk_map *map = &obj->maps[i];

		if (map->is_global_data && map->sec)
			map->btf_value_type_id = btf_find(obj->btf, obj->file.secs[map->sec].name,
							  BTF_KIND_DATASEC);
	}
	return 0;
}

/* Last of the passes at load, when the others have made the BTF what the
 * kernel is to see (externs), and before the maps are created with it. */
static int btf_pass_load(struct bsdk_obj *obj)
{
	if (obj->btf) {
		obj->btf_fd = btf_load_kernel(obj->btf, obj->name);
		obj->btf_refused = obj->btf_fd < 0;
	}
	return 0;
}

const struct obj_pass btf_pass = {
	.name = "btf",
	.btf = btf_pass_parsed,
	.open = btf_pass_open,
	.load = btf_pass_load,
};
