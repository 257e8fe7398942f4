/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * core.h - CO-RE relocations (see core.c): what .BTF.ext's core_relo records ask, and what
 * they resolved to against the kernel's BTF. Not installed.
 */
#ifndef BPFSDK_CORE_H
#define BPFSDK_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "bpfsdk.h"

struct btf;
struct bsdk_obj;
struct bsdk_prog;
struct linked;

/* The longest access string followed: members, anonymous hops and array indices. */
#define CORE_SPEC_MAX 64

/* Where an access string leads in one BTF. */
struct core_spec {
	const struct btf *btf;
	uint32_t root_id;
	/* raw: every index of the access string as followed in this BTF (anonymous members
	 * included on the target side); named: those that name something (a member by name, an
	 * array index), which is what must match between local and target. */
	uint32_t raw[CORE_SPEC_MAX];
	size_t nraw;
	struct core_acc {
		uint32_t type_id;	/* the struct/union or array indexed */
		uint32_t idx;		/* member or element */
		const char *name;	/* member name; NULL for an array index */
	} acc[CORE_SPEC_MAX];
	size_t nacc;
	uint64_t bit_offset;	/* of the field from the root */
};

/* One core_relo record and its resolution, owned by the object. */
struct core_relo {
	size_t sec, insn;	/* the section and instruction (in it) relocated */
	uint32_t index;		/* the record's number in .BTF.ext, for messages */
	enum bsdk_core_kind kind;
	uint32_t type_id;	/* the local root type */
	const char *access;	/* the access string, "0:1:2" */
	char *desc;		/* "task_struct.real_parent.tgid", malloc'ed */
	uint64_t orig;		/* what the local BTF says: what clang put in the instruction */
	uint32_t orig_sz;	/* FIELD_BYTE_OFFSET: the local field's size, 0 when not known */
	bool orig_ptr_or_uint;	/* ... and whether its load may change size */

	enum bsdk_core_state state;
	uint64_t value;		/* RESOLVED: the new value */
	uint32_t new_sz;	/* FIELD_BYTE_OFFSET: the target field's size */
	bool memsz_fixed;	/* a load/store of the field may not change size */
	uint32_t targ_id;	/* the target type, 0 when none */
	const struct btf *targ_btf;
	int targ_fd;		/* module BTF fd, 0 for vmlinux */
	char note[192];		/* POISONED, ERROR, UNRESOLVED: why */
};

/* A CO-RE relocation applied in a linked program. */
struct core_use {
	size_t insn;		/* in the linked program */
	const struct core_relo *relo;
};

/* Read the core_relo list of .BTF.ext (len bytes at p) into obj->core, checking each record
 * against the object's BTF and the instruction it relocates: one error line for the first bad
 * one. */
int core_relos_parse(struct bsdk_obj *obj, const char *p, uint32_t len);
/* Resolve every relocation against the kernel BTF (obj->btf_path, or the running kernel's).
 * When there is no kernel BTF to read, they stay UNRESOLVED and load fails; inspect still
 * lists them. */
int core_resolve_all(struct bsdk_obj *obj);
/* Resolve one relocation: r->state and value set. 0, or -errno when the kernel BTF cannot be
 * read at all. */
int core_resolve(const struct btf *local, struct core_relo *r, const char *kbtf_path);
/* Apply r to the instruction at insn (room instructions from there on). 0, or an error
 * already logged. */
int core_patch(const struct core_relo *r, struct bpf_insn *insn, size_t room, const char *prog);
/* Patch the CO-RE relocations of fn, which lies at base in out, and list them in out->core. */
struct func;
int core_link(const struct bsdk_obj *obj, const struct func *fn, struct linked *out, size_t base,
	      const char *prog);
/* The relocations of section sec's instructions [first, first + count), in order. */
const struct core_relo *core_relos_in(const struct bsdk_obj *obj, size_t sec, size_t first,
				      size_t count, size_t *n);
/* Before load: fail, saying why, when a program to load uses a relocation that is unresolved
 * (no kernel BTF) or in error. */
int core_check_load(const struct bsdk_obj *obj);
/* After a verifier rejection at instruction insn: when it is a poisoned relocation, say which
 * and why. */
void core_explain(const struct bsdk_prog *prog, const struct linked *l, long insn);
void core_relos_free(struct bsdk_obj *obj);

/* libbpf's poison: a call of a helper that does not exist, 0xbad2310 ("bad relo"). */
#define CORE_POISON_IMM 0xbad2310

#endif /* BPFSDK_CORE_H */
