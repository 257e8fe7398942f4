/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * decode_types.h - a record that holds every kind of type the DWARF to BTF
 * conversion takes, shared by tests/bpf/decode_types.bpf.c (which sends it
 * from a local, so it is in DWARF only) and tests/unit/test_dwarf_btf.c
 * (whose expected offsets and sizes come from the host compiler).
 */
#ifndef DECODE_TYPES_H
#define DECODE_TYPES_H

#include <linux/types.h>

enum color { COLOR_RED = 1, COLOR_GREEN = 2, COLOR_NEG = -3 };
enum wide { WIDE_SMALL = 1, WIDE_BIG = 0x100000000ULL };

typedef struct {
	__u16 a;
	__u16 b;
} pair_t;

struct rich {
	__u32 pid;
	__s8 small;
	_Bool flag;
	__u8 low3 : 3, mid5 : 5;
	__u16 grid[2][3];
	pair_t pair;
	union {
		__u32 word;
		__u8 bytes[4];
	} u;
	enum color color;
	enum wide wide;
	const volatile char *ptr;
	char name[8];
	__s64 neg;
	char tail[];
};

#endif
