/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_print.h - what btf_types.c and btf_print.c share. Not installed.
 */
#ifndef BPFSDK_BTF_PRINT_H
#define BPFSDK_BTF_PRINT_H

#include <stdbool.h>

#include "format/btf.h"

/* The prefix of BPFSDK_RECORD()'s decl tag (include/bpf/bpf_helpers.h). */
#define BPFSDK_RECORD_TAG "bpfsdk.record:"

/* An INT of one byte that C calls char: arrays of it print as strings
 * (unsigned char, i.e. __u8, arrays stay lists: addresses, hashes). */
bool btfp_is_char(const struct btf *btf, const struct btf_type *t);
/* A struct or union whose named members each fit one column. */
bool btfp_is_flat(const struct btf *btf, const struct btf_type *t);

#endif /* BPFSDK_BTF_PRINT_H */
