/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * record_type.h - what record_type.c shares with the files it reads the
 * object through: record_sites.c (the output calls in the instructions)
 * and record_dwarf.c (the struct a call's data argument has in DWARF).
 */
#ifndef BPFSDK_EXT_RECORD_TYPE_H
#define BPFSDK_EXT_RECORD_TYPE_H

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "object/object.h"

/* A type found in DWARF, as the printer will have it. */
struct found {
	Dwarf_Off off;		/* its DIE */
	char *name;
	uint64_t size;
	struct btf *own;	/* converted from DWARF; NULL when the object's .BTF is used */
	uint32_t id;		/* in own, or in the object's BTF */
	bool converted;		/* own/id are set (or conversion failed: id 0) */
};

struct map_rec {
	bool done;
	struct bsdk_record_type t;
	char *cands;		/* AMBIGUOUS: the candidates, malloc'ed */
	char *prog;
	char *var;
};

struct bsdk_records {
	const struct bsdk_obj *obj;
	Dwarf *dw;		/* NULL: no DWARF */
	struct found **found;	/* each its own allocation: callers keep pointers */
	size_t nfound;
	struct map_rec *maps;	/* by map index */
	char **co_re_roots;	/* essential names of the kernel types CO-RE reaches */
	size_t ncore_roots;
	char *size_cands;	/* the last size rule's candidate list */
};

/* One call that sends records, found in the instructions. */
struct site {
	const char *func;	/* the function (program or .text subprogram) */
	uint64_t pc;		/* byte offset of the call in its section */
	uint64_t func_pc;	/* where the function starts in that section */
	bool stack;		/* the data argument is r10 + stack_off */
	int64_t stack_off;
	bool size_known;
	uint64_t size;
};

/* A variable in scope at a call that may be the record. */
struct cand {
	Dwarf_Die type;
	const char *var;
	bool exact;		/* its stack slot is the data argument */
};

/* Every call in obj's programs and subprograms that sends records through
 * map (by index): *sites, malloc'ed, *n of them; -ENOMEM. */
int records_sites_find(const struct bsdk_obj *obj, size_t map, struct site **sites, size_t *n);

/* The struct the call s sends, from the DWARF of its function: 1 and *out,
 * 0 when none or several, <0 on an error. */
int records_site_type(const struct bsdk_records *r, const struct site *s, struct cand *out);

/* The relocation of section sec's instruction insn, NULL when it has none. */
const struct relo *records_relo_of(const struct bsdk_obj *obj, size_t sec, size_t insn);

const char *records_die_name(Dwarf_Die *t);
uint64_t records_die_size(Dwarf_Die *t);
/* Whether t is a struct of the program's own (not the kernel's, a system's or the SDK's). */
bool records_own_struct(const struct bsdk_records *r, Dwarf_Die *t);

#endif
