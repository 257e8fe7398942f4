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

#endif /* BPFSDK_EXT_BTF_PRINT_OUT_H */
