// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * extern_pass.c - the externs' pass, which joins what extern.c does at
 * open and while linking to what extern_resolve.c does at load, and the
 * public accessors that resolve on demand. Above both files, so that
 * neither calls the other's caller.
 */
#include <string.h>

#include "ext/externs/extern.h"

/* At load: resolve (externs first: they fix the .kconfig map's value). */
static int extern_load(struct bsdk_obj *obj)
{
	struct ext_state *xs = obj_state_find(obj, &extern_key);
	int err = externs_load(obj);

	if (xs)
		xs->resolved = true;
	return err;
}

const struct obj_pass extern_pass = {
	.name = "externs",
	.open = externs_collect,
	.relo_undef = extern_relo,
	.link_relo = extern_apply,
	.load = extern_load,
	.prog_attr = extern_prog_attr,
	.explain = extern_explain,
};

/* ---- The public accessors ----------------------------------------------- */

size_t bsdk_obj_extern_count(const struct bsdk_obj *obj)
{
	struct ext_state *xs = ext_state_of(obj);
	return xs->nexts;
}

int bsdk_obj_extern(const struct bsdk_obj *cobj, size_t i, struct bsdk_extern_info *info)
{
	/* resolving fills a cache in the object, not what it means */
	struct bsdk_obj *obj = (struct bsdk_obj *)cobj;
	struct ext_state *xs = ext_state_of(obj);
	const struct ext *e;

	if (i >= xs->nexts)
		return fail(ERANGE);
	/* resolve once, quietly, if load has not */
	if (!xs->resolved) {
		int err = externs_resolve(obj);

		if (err < 0)
			return fail(-err);
		xs->resolved = true;
	}
	e = &xs->exts[i];
	memset(info, 0, sizeof(*info));
	info->name = e->name;
	info->kind = (enum bsdk_extern_kind)e->kind;
	info->kind_name = extern_kind_names[e->kind];
	info->weak = e->weak;
	info->typed = e->kind == EXT_KSYM ? e->typed : e->kind == EXT_KFUNC;
	info->resolved = e->resolved;
	info->value = e->resolved || (e->weak && !e->bad_value) ? e->value : e->why;
	info->kconfig_offset = e->offset;
	info->size = e->size;
	return 0;
}
