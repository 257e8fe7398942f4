/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * co_re.h - the CO-RE engine (see co_re.c): what .BTF.ext's core_relo records ask, and what
 * they resolve to against candidate types of the kernel's BTF. It knows BTF and instructions,
 * never an object. Not installed.
 */
#ifndef BPFSDK_CORE_H
#define BPFSDK_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "bpfsdk.h"

#include "co-re/kbtf.h"

struct btf;

/* The longest access string followed: members, anonymous hops and array indices. */
#define CORE_SPEC_MAX 64

/* Where an access string leads in one BTF. */
struct co_re_spec {
	const struct btf *btf;
	uint32_t root_id;
	/* raw: every index of the access string as followed in this BTF (anonymous members
	 * included on the target side); named: those that name something (a member by name, an
	 * array index), which is what must match between local and target. */
	uint32_t raw[CORE_SPEC_MAX];
	size_t nraw;
	struct co_re_acc {
		uint32_t type_id;	/* the struct/union or array indexed */
		uint32_t idx;		/* member or element */
		const char *name;	/* member name; NULL for an array index */
	} acc[CORE_SPEC_MAX];
	size_t nacc;
	uint64_t bit_offset;	/* of the field from the root */
};

/* One core_relo record and its resolution, owned by the object. */
struct co_re_relo {
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

/* Read one core_relo record of .BTF.ext into *out (its sec and index are the caller's to
 * set): check it against the object's BTF and against the instruction it relocates, one of
 * the ninsns at insns, and work out what the local BTF says (out->orig). 0; -BSDK_EBTF with
 * the reason in why; -ENOMEM. */
int co_re_relo_read(const struct btf *btf, const struct bpf_core_relo *rec,
		   const struct bpf_insn *insns, size_t ninsns, struct co_re_relo *out,
		   char *why, size_t why_size);
/* Resolve r against the candidates, the kernel types the caller found with the local root's
 * essential name and kind (n < 0: they could not be read, -n the errno): r->state, value and
 * note set. 0, or n when r needed the candidates and there were none to read. */
int co_re_calc(const struct btf *local, struct co_re_relo *r, const struct kbtf_cand *cands,
	      int n);
/* The same, and when a kernel type matched, *spec (may be NULL) where the access led in the
 * first one, r->targ_id: its root and every member and index followed (gen min-btf keeps
 * those). */
int co_re_calc_spec(const struct btf *local, struct co_re_relo *r, const struct kbtf_cand *cands,
		   int n, struct co_re_spec *spec);
/* Whether the resolved value fits the instruction r is on; if not, r becomes an error (or,
 * for a load that cannot change size and still read the value right, poisoned). */
void co_re_check_fits(struct co_re_relo *r, const struct bpf_insn *insn);
/* Apply r to the instruction at insn (room instructions from there on). 0, or an error
 * already logged. */
int co_re_patch(const struct co_re_relo *r, struct bpf_insn *insn, size_t room, const char *prog);
/* "field_byte_offset", ...: for messages. */
const char *co_re_kind_name(enum bsdk_core_kind kind);
/* A BTF type's name by ID, "" for none. */
const char *co_re_type_label(const struct btf *btf, uint32_t id);

/* libbpf's poison: a call of a helper that does not exist, 0xbad2310 ("bad relo"). */
#define CORE_POISON_IMM 0xbad2310

#endif /* BPFSDK_CORE_H */
