/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_load.h - the object's BTF room: .BTF.ext read at open (btf_ext_pass.c),
 * the .BTF fixed up as the linker would (btf_fixup.c) and loaded into the
 * kernel (btf_load.c). Not installed.
 */
#ifndef BPFSDK_EXT_BTF_LOAD_H
#define BPFSDK_EXT_BTF_LOAD_H

#include "object/object.h"

/* ---- btf_ext_pass.c: the object's .BTF.ext, parsed at open (btf_ext.h),
 * or NULL when it has none (or no .BTF). */
struct btf_ext;
const struct btf_ext *btf_ext_of(const struct bsdk_obj *obj);

/* ---- btf_load.c: the object's BTF into the kernel */
struct btf;
/* BTF kinds younger than BTF itself; bit f of a "missing" mask. */
enum btf_feature {
	FEAT_GLOBAL_FUNC,	/* FUNC linkage in vlen, 5.6 */
	FEAT_DATASEC,		/* VAR and DATASEC, 5.2 */
	FEAT_FLOAT,		/* 5.13 */
	FEAT_DECL_TAG,		/* 5.16 */
	FEAT_TYPE_TAG,		/* 5.17 */
	FEAT_ENUM64,		/* 6.0 */
	FEAT_COUNT
};
/* A malloc'ed copy of the BTF with the kinds in missing rewritten into
 * older ones, keeping every type ID; its size goes to *size. */
void *btf_sanitize(const struct btf *btf, unsigned int missing, size_t *size);
/* The BTF, sanitised for the running kernel, loaded into it: its fd, or
 * -1 after a warning naming obj (a program loads without BTF). */
int btf_load_kernel(const struct btf *btf, const char *obj);
/* btf_fixup.c: fill in each DATASEC's size and its variables' offsets from the ELF file
 * (clang leaves them 0). 0 or -ENOMEM. */
int btf_fixup_datasecs(struct btf *btf, const struct elf_file *ef);
/* Give global functions of hidden visibility (__hidden) static linkage in
 * BTF, so the verifier checks them with their caller's context. */
void btf_mark_hidden_static(struct btf *btf, const struct elf_file *ef);

#endif /* BPFSDK_EXT_BTF_LOAD_H */
