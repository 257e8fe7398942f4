/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * dwarf_btf.h - a DWARF type written as BTF (dwarf_btf.c). Not installed.
 */
#ifndef BPFSDK_DWARF_BTF_H
#define BPFSDK_DWARF_BTF_H

#include <stdint.h>
#include <elfutils/libdw.h>

struct btf;

/* A BTF of its own holding type (a DIE of a DWARF type: struct, union, enum, base type,
 * typedef, array) and what it is made of; the type's ID goes to *id. Qualifiers are dropped
 * and every pointer points to void. NULL with errno (EOPNOTSUPP: a construct BTF cannot take,
 * a warning naming obj and the DIE; ENOMEM). */
struct btf *dwarf_type_to_btf(Dwarf_Die *type, const char *obj, uint32_t *id);

#endif /* BPFSDK_DWARF_BTF_H */
