/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * co_re_obj.h - the object's CO-RE relocations (co_re_obj.c), for the files
 * that resolve them again: the minimal BTF writer (min_btf.c). Not installed.
 */
#ifndef BPFSDK_EXT_CO_RE_OBJ_H
#define BPFSDK_EXT_CO_RE_OBJ_H

#include "object/object.h"

/* ---- co_re_obj.c: the object's CO-RE relocations */
struct co_re_relo;
/* Resolve one relocation against the kernel BTF at kbtf_path (NULL: the running kernel's):
 * r->state and value set. 0, or -errno when the kernel BTF cannot be read at all. */
int co_re_resolve(const struct btf *local, struct co_re_relo *r, const char *kbtf_path);
/* The same, with where the access led in the first kernel type that matched (co-re/co_re.h). */
struct co_re_spec;
int co_re_resolve_spec(const struct btf *local, struct co_re_relo *r, const char *kbtf_path,
		      struct co_re_spec *spec);
/* The object's relocations, sorted by section and instruction; *n of them. */
const struct co_re_relo *co_re_obj_relos(const struct bsdk_obj *obj, size_t *n);

#endif /* BPFSDK_EXT_CO_RE_OBJ_H */
