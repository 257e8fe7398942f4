/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_ext.h - the .BTF.ext section (btf_ext.c): function and line info
 * per section, and the CO-RE relocation records as they are, for whoever
 * applies them. Not installed.
 */
#ifndef BPFSDK_BTF_EXT_H
#define BPFSDK_BTF_EXT_H

#include <linux/bpf.h>

#include "format/elf.h"

struct btf;

/* The func_info and line_info of one section, insn_off in instructions. */
struct ext_info {
	struct bpf_func_info *func;
	size_t nfunc;
	struct bpf_line_info *line;
	size_t nline;
};

/* One core_relo record: its section, its number in the section's block,
 * and the record itself (insn_off still in bytes). Only its layout is
 * checked here; what it means is the CO-RE engine's business. */
struct btf_ext_core {
	size_t sec;
	uint32_t index;
	struct bpf_core_relo rec;
};

struct btf_ext {
	struct ext_info *info;	/* per section of the file; NULL without .BTF.ext */
	size_t nsecs;
	struct btf_ext_core *core;
	size_t ncore;
};

/* Parse .BTF.ext (size bytes at data) of the file ef, whose .BTF is btf,
 * into x: every record's section must hold code, its offset must be in
 * it, and func and line info must name what btf has. 0, or -errno with
 * one error line naming the file. */
int btf_ext_parse(struct btf_ext *x, const struct elf_file *ef, const struct btf *btf,
		  const void *data, size_t size);
void btf_ext_free(struct btf_ext *x);

#endif /* BPFSDK_BTF_EXT_H */
