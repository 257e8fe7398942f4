/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * gen.h - what the files of `bpfsdk gen` share: the options (gen.c), the
 * object's parts and their C names (gen.c), and the header writer
 * (gen_emit.c).
 */
#ifndef BPFSDK_CLI_GEN_H
#define BPFSDK_CLI_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bpfsdk.h"

/* gen.c: the options of gen skeleton and gen min-btf, one table. */
enum { GEN_OPT_NAME = 1, GEN_OPT_OUTPUT, GEN_OPT_BTF, GEN_OPT_VERBOSE, GEN_OPT_HELP };
extern const struct bsdk_opt gen_options[];

/* A part of the object and the C identifier it gets in the struct. */
struct part {
	const char *name;	/* as the object says */
	char *field;
	const struct bsdk_map *map;
};

struct skel {
	const char *name;	/* the struct and the functions' prefix */
	const char *label;	/* the object's name in messages */
	struct bsdk_obj *obj;
	const unsigned char *bytes;
	size_t size;
	struct part *maps, *progs;
	size_t nmaps, nprogs;
	FILE *f;
};

/* ---- gen_emit.c */

/* The variables of a data section that get a member: named like C, not
 * static, not a name a padding member takes. */
bool skel_var_emitted(const struct bsdk_global_info *v);
/* Whether map is a data section (.rodata, .data, .bss, ...). */
bool skel_map_is_data(const struct bsdk_map *map);
/* Write the whole header to s->f. */
void skel_emit(const struct skel *s);

/* gen_records.c: compile-time checks of the record structs the object's perf event arrays
 * and ring buffers stream, as the object lays them out. */
void skel_emit_record_checks(const struct skel *s);

/* gen_min_btf.c: `bpfsdk gen min-btf`, argv[0] "min-btf". */
int gen_min_btf_main(int argc, char **argv);

#endif /* BPFSDK_CLI_GEN_H */
