/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_print_out.h - the printer's state and its output (btf_print_out.c):
 * a buffer on the stack written one fwrite per 4 KiB, or
 * bsdk_btf_snprint()'s buffer. Not installed.
 */
#ifndef BPFSDK_EXT_BTF_PRINT_OUT_H
#define BPFSDK_EXT_BTF_PRINT_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "format/btf.h"

struct pr {
	const struct btf *btf;
	const unsigned char *data;
	uint64_t size;
	FILE *f;		/* where pr_flush() writes, or NULL: */
	char *mem;		/* bsdk_btf_snprint()'s buffer, */
	size_t mem_size;	/* its size, */
	size_t total;		/* and the length of the whole output */
	enum bsdk_btf_format fmt;
	unsigned int flags;
	uint64_t budget;	/* steps left */
	int err;		/* the first problem met */
	const struct bsdk_btf_field_view *views;	/* btf_net.c: the caller's */
	size_t nviews;
	int named_nest;		/* named structs entered: views are for the top one's members */
	int family;		/* the record's family member, -1 when none (net_init()) */
	bool has_family;	/* the struct has one */
	bool argv;		/* the member printed next is a command line (pr_argv_member()) */
	size_t len;
	char buf[4096];
};

void pr_flush(struct pr *p);
void pr_out(struct pr *p, const char *s, size_t n);
void pr_outc(struct pr *p, char c);
void pr_outs(struct pr *p, const char *s);
void pr_out_u64(struct pr *p, uint64_t v);
void pr_out_u128(struct pr *p, unsigned __int128 v, bool negative);
void pr_out_hex(struct pr *p, uint64_t v);
void pr_out_null(struct pr *p);
void pr_out_str(struct pr *p, const unsigned char *s, size_t n, bool quote);
void pr_out_name(struct pr *p, const char *name);
/* A column: what was written since start padded to width (on the left when right). */
void pr_pad(struct pr *p, size_t start, int width, bool right);

void pr_out_duration(struct pr *p, uint64_t ns);
/* btf_strings.c: n bytes of a char array that packs a command line, as a list of strings;
 * whether member name (of type type) of struct or union parent is one: an aggregate named
 * args or argv, or counted by an integer member NAME_count or NAME_cnt. */
void pr_out_strings(struct pr *p, const unsigned char *s, size_t n);
bool pr_argv_member(const struct btf *btf, const struct btf_type *parent, const char *name,
		    uint32_t type);

/* btf_net.c: addresses and ports. net_init() reads the family of the record of type id;
 * net_member() prints member name (type id, at bit off) as an address or in host order when
 * a view or, with BSDK_BTF_NET, the BTF says so, and returns whether it did. */
void net_init(struct pr *p, uint32_t id);
bool net_member(struct pr *p, uint32_t id, uint64_t off, uint32_t bitfield, const char *name);
bool net_family_name(const char *name);
bool net_struct_has_family(const struct btf *btf, const struct btf_type *t, int depth);
enum bsdk_btf_view net_btf_view(const struct btf *btf, uint32_t id, const char *name,
				bool has_family);

#endif /* BPFSDK_EXT_BTF_PRINT_OUT_H */
