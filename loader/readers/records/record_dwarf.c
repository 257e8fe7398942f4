// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * record_dwarf.c - the struct a record-sending call's data argument has,
 * read from the object's DWARF through libdw: the variable whose stack slot
 * it points to, else the one variable of the program's own struct (or a
 * pointer to one) of the size passed in scope at the call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readers/records/record_type.h"

/* ---- DWARF: whose struct it is */

/* Typedefs and qualifiers skipped; a typedef of an anonymous struct is kept as the
 * type's name holder. *is_ptr when die is a pointer (then the pointee is given). */
static bool struct_of(Dwarf_Die *die, Dwarf_Die *out, bool *is_ptr, bool follow_ptr)
{
	Dwarf_Die cur = *die, named;
	bool have_named = false;
	Dwarf_Attribute a;

	*is_ptr = false;
	for (int depth = 0; depth < 32; depth++) {
		int tag = dwarf_tag(&cur);

		if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
			*out = !dwarf_diename(&cur) && have_named ? named : cur;
			return !dwarf_hasattr(&cur, DW_AT_declaration);
		}
		if (tag == DW_TAG_pointer_type) {
			if (!follow_ptr || *is_ptr)
				return false;
			*is_ptr = true;
			have_named = false;
		} else if (tag == DW_TAG_typedef) {
			if (!have_named) {
				named = cur;
				have_named = true;
			}
		} else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
			   tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type) {
			return false;
		}
		if (!dwarf_attr_integrate(&cur, DW_AT_type, &a) || !dwarf_formref_die(&a, &cur))
			return false;
	}
	return false;
}

const char *records_die_name(Dwarf_Die *t)
{
	const char *n = dwarf_diename(t);

	return n ? n : "";
}

uint64_t records_die_size(Dwarf_Die *t)
{
	Dwarf_Word size;

	return dwarf_aggregate_size(t, &size) == 0 ? size : 0;
}

/* The file a DIE was declared in. DWARF 5 numbers the compilation's own
 * source file 0, which dwarf_decl_file() does not take: the CU's file table
 * is read for it. */
static const char *decl_file(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word idx;
	Dwarf_Die cu;
	size_t n;
	const char *f = dwarf_decl_file(die);

	if (f)
		return f;
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) ||
	    !dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* Whether a struct is the program's own: declared in none of vmlinux*.h, a system header,
 * an SDK header (bpf_*.h), and no CO-RE relocation reads a type of its name. */
bool records_own_struct(const struct bsdk_records *r, Dwarf_Die *t)
{
	const char *file = decl_file(t), *base, *name = dwarf_diename(t);

	if (!name || !*name || strstr(name, "___"))
		return false;
	for (size_t i = 0; i < r->ncore_roots; i++)
		if (strcmp(r->co_re_roots[i], name) == 0)
			return false;
	if (!file)
		return false;
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	return strncmp(base, "vmlinux", 7) != 0 && strncmp(base, "bpf_", 4) != 0 &&
	       strncmp(file, "/usr/", 5) != 0;
}

/* The subprogram called name that starts at low in its section. false with errno ENOMEM when
 * an allocation failed: libdw does not always say so, and a unit it could not fully build
 * (its table of abbreviations) crashes the next call that reads it, so errno is looked at
 * before that call. */
static bool find_subprogram(Dwarf *dw, const char *name, uint64_t low, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	errno = 0;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		bool have = dwarf_offdie(dw, off + hsize, &cu) != NULL;

		if (errno == ENOMEM)
			return false;
		if (have && dwarf_child(&cu, &child) == 0) {
			do {
				Dwarf_Addr pc;
				const char *n;

				if (dwarf_tag(&child) != DW_TAG_subprogram)
					continue;
				n = dwarf_diename(&child);
				if (n && strcmp(n, name) == 0 && dwarf_lowpc(&child, &pc) == 0 &&
				    pc == low) {
					*out = child;
					return true;
				}
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return false;
}

/* Whether the variable's location at pc (or its one location) is the frame base + off. */
static bool at_stack(Dwarf_Die *var, uint64_t pc, int64_t off)
{
	Dwarf_Attribute a;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(var, DW_AT_location, &a))
		return false;
	if (dwarf_getlocation_addr(&a, pc, &expr, &len, 1) != 1 &&
	    dwarf_getlocation(&a, &expr, &len) != 0)
		return false;
	return len == 1 && expr[0].atom == DW_OP_fbreg && (int64_t)expr[0].number == off;
}

/* Variables and parameters of the scopes holding pc, from scope down. */
static int scope_vars(const struct bsdk_records *r, Dwarf_Die *scope, const struct site *s,
		      struct cand **c, size_t *n, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(scope, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			if (dwarf_haspc(&child, s->pc) > 0) {
				int err = scope_vars(r, &child, s, c, n, depth + 1);

				if (err)
					return err;
			}
			continue;
		}
		if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
			continue;
		Dwarf_Attribute a;
		Dwarf_Die vt, st;
		bool is_ptr;

		if (!dwarf_attr_integrate(&child, DW_AT_type, &a) || !dwarf_formref_die(&a, &vt) ||
		    !struct_of(&vt, &st, &is_ptr, true))
			continue;
		bool exact = s->stack && !is_ptr && at_stack(&child, s->pc, s->stack_off);

		if (!exact && !records_own_struct(r, &st))
			continue;
		struct cand *grown = realloc(*c, (*n + 1) * sizeof(**c));

		if (!grown)
			return -ENOMEM;
		*c = grown;
		grown[*n] = (struct cand){ st, dwarf_diename(&child), exact };
		(*n)++;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The struct a call site's data has: 1 and *out; 0 when the site does not tell. */
int records_site_type(const struct bsdk_records *r, const struct site *s, struct cand *out)
{
	struct cand *c = NULL, *pick = NULL;
	size_t n = 0, kept = 0;
	Dwarf_Die sub;
	int err;

	/* libdw turns some failed allocations of its own into "not found": errno tells them
	 * apart, and a scan that found nothing for want of memory must not read as a site
	 * without a type. */
	if (!find_subprogram(r->dw, s->func, s->func_pc, &sub))
		return errno == ENOMEM ? -ENOMEM : 0;
	errno = 0;
	err = scope_vars(r, &sub, s, &c, &n, 0);
	if (!err && !n && errno == ENOMEM)
		err = -ENOMEM;
	for (size_t i = 0; !err && i < n && !pick; i++)
		if (c[i].exact && (!s->size_known || records_die_size(&c[i].type) == s->size))
			pick = &c[i];
	for (size_t i = 0; !err && !pick && i < n; i++) {
		if (s->size_known && records_die_size(&c[i].type) != s->size)
			continue;
		if (kept && dwarf_dieoffset(&c[kept - 1].type) != dwarf_dieoffset(&c[i].type)) {
			kept = 0;	/* two different structs: the site does not tell */
			break;
		}
		c[kept++] = c[i];
	}
	if (!err && !pick && kept)
		pick = &c[0];
	if (pick)
		*out = *pick;
	free(c);
	return err ? err : pick != NULL;
}
