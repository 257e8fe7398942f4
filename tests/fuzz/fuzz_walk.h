/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * fuzz_walk.h - what the object fuzz targets do with an object that opened:
 * read everything `bpfsdk inspect` shows, set each global as `run --set`
 * does, and check the BTF sanitiser's output parses. Shared by fuzz_obj.c
 * and fuzz_btf_ext.c.
 */
#ifndef BPFSDK_FUZZ_WALK_H
#define BPFSDK_FUZZ_WALK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "ext/btf/btf_load.h"
#include "channel/channel.h"
#include "format/btf.h"

static size_t sink;

/* Format every message, as a caller would, and read it. */
static void log_sink(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	sink += level + strlen(msg);
}

static void touch(const char *s)
{
	sink += s ? strlen(s) : 0;
}

static void walk(struct bsdk_obj *obj)
{
	touch(bsdk_obj_name(obj));
	touch(bsdk_obj_license(obj));
	sink += bsdk_obj_kversion(obj) + bsdk_obj_has_btf(obj) +
		bsdk_obj_gpl_compatible(obj);

	for (struct bsdk_prog *p = bsdk_obj_prog_next(obj, NULL); p;
	     p = bsdk_obj_prog_next(obj, p)) {
		touch(bsdk_prog_name(p));
		touch(bsdk_prog_section(p));
		touch(bsdk_prog_type_name(p));
		touch(bsdk_prog_attach_target(p));
		sink += (size_t)bsdk_prog_type(p) + bsdk_prog_insn_count(p) +
			bsdk_prog_linked_insn_count(p) +
			bsdk_prog_func_info_count(p) + bsdk_prog_line_info_count(p);
		for (size_t i = 0; i < bsdk_prog_relo_count(p); i++) {
			struct bsdk_relo_info r;

			if (bsdk_prog_relo(p, i, &r))
				abort();
			touch(r.kind_name);
			touch(r.symbol);
			if (r.map)
				touch(bsdk_map_name(r.map));
			sink += r.insn + r.offset + r.target;
		}
		for (size_t i = 0; i < bsdk_prog_helper_count(p); i++)
			touch(bsdk_helper_gpl_only(bsdk_prog_helper_id(p, i)));
		if (bsdk_obj_prog_find(obj, bsdk_prog_name(p)) == NULL)
			abort();
	}
	for (struct bsdk_map *m = bsdk_obj_map_next(obj, NULL); m;
	     m = bsdk_obj_map_next(obj, m)) {
		touch(bsdk_map_name(m));
		touch(bsdk_map_origin(m));
		sink += (size_t)bsdk_map_type(m) + bsdk_map_key_size(m) +
			bsdk_map_value_size(m) + bsdk_map_max_entries(m) +
			bsdk_map_pinning(m);
	}
	/* what `bpfsdk run --set` does for each global */
	for (size_t i = 0; i < obj->file.nsyms; i++) {
		const char *name = elf_sym_name(&obj->file, &obj->file.syms[i]);
		int size = bsdk_obj_global_size(obj, name);

		if (size > 0 && size <= 64) {
			char zero[64] = { 0 };

			sink += (size_t)bsdk_obj_set_global(obj, name, zero, (size_t)size);
		}
	}
	/* what load would hand the kernel, for a kernel lacking every new
	 * kind: it must still parse */
	if (obj->btf) {
		size_t out_size;
		void *out = btf_sanitize(obj->btf, ~0u, &out_size);
		struct btf *again = out ? btf_parse(out, out_size, "sanitised") : NULL;

		if (out && !again)
			abort();
		btf_free(again);
		free(out);
	}
}

#endif /* BPFSDK_FUZZ_WALK_H */
