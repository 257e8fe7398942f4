/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * object.h - the object model: an opened object, its maps, programs and
 * links (owned by obj.c; filled by maps.c, relo.c and prog.c from what
 * the format layer read). What a program's section name means is the
 * section table's (sections.h), which every reader of prog->kind needs.
 * Not installed.
 */
#ifndef BPFSDK_OBJECT_H
#define BPFSDK_OBJECT_H

#include "base/base.h"
#include "format/elf.h"
#include "object/sections.h"

struct btf;


/* A relocation against a program's or subprogram's instructions; the kinds
 * are the public enum bsdk_relo_kind. */
struct relo {
	enum bsdk_relo_kind kind;
	/* insn and target index instructions in the section and in .text, or in
	 * prog->relos, in the linked program */
	size_t insn;		/* the instruction relocated */
	size_t map;		/* MAP, DATA: index into obj->maps */
	uint64_t offset;	/* DATA: byte offset in the data map */
	size_t target;		/* CALL, FUNC: the callee's first instruction */
	const char *sym_name;	/* for messages */
	size_t ext;		/* KSYM, KFUNC: the claiming pass's index (passes_relo_undef()) */
};

/* A program with its subprograms appended and relocations applied; func
 * and line info remapped to it where a pass moved them (passes_link_func();
 * none with the core alone). */
struct linked {
	struct bpf_insn *insns;
	size_t count;
	struct bpf_func_info *func;
	size_t nfunc;
	struct bpf_line_info *line;
	size_t nline;
	struct relo *relos;	/* those applied, insn and target linked */
	size_t nrelos;
};

/* A function: a program in its own section, or a subprogram in .text. */
struct func {
	size_t sec;		/* ELF section index */
	size_t first;		/* first instruction, in the section */
	size_t count;		/* number of instructions */
	const char *name;
};

struct bsdk_prog {
	struct bsdk_obj *obj;
	struct func fn;
	const char *section;
	const struct attach_kind *kind;	/* from the section name */
	const char *target;		/* section name after the prefix */
	char *target_buf;		/* bsdk_prog_set_attach_target()'s copy */
	bool autoload;
	bool attached;		/* a link was made to it */
	int fd;
};

struct bsdk_map {
	struct bsdk_obj *obj;
	char *name;
	const char *origin;	/* ".maps", "maps", ".rodata", ... */
	size_t sec;		/* ELF section that defines it */
	uint64_t sec_offset;	/* where the definition sits in it */
	uint32_t type, key_size, value_size, max_entries, map_flags;
	uint32_t btf_key_type_id, btf_value_type_id;
	uint32_t pinning, map_extra, numa_node;	/* __uint(): 32 bits */
	void *init_data;	/* global data maps: the initial value */
	bool is_global_data;
	bool is_rodata;
	int fd;
};

struct bsdk_link {
	struct bsdk_obj *obj;
	struct bsdk_prog *prog;	/* the program attached */
	struct bsdk_link *next;	/* in obj->links, for bsdk_obj_close() */
	int link_fd;		/* BPF link, or -1 */
	int perf_fd;		/* perf event, or -1 */
};

struct bsdk_obj {
	char *name;
	struct elf_file file;	/* the ELF file: sections, symbols, license */

	size_t text_sec;	/* 0 when there is no .text */
	struct func *subprogs;	/* functions in .text, sorted by offset */
	size_t nsubprogs;

	struct bsdk_prog *progs;
	size_t nprogs;
	struct bsdk_map *maps;
	size_t nmaps;
	size_t *map_order;	/* map indices by (sec, sec_offset), of nmap_order maps */
	size_t nmap_order;

	/* Relocations per section, indexed by section. */
	struct relo **relos;
	size_t *nrelos;

	struct btf *btf;
	/* After load: the object's BTF in the kernel, when a pass loaded it
	 * (passes_load()), for the maps' types and the programs' func and
	 * line info; -1 when there is none. btf_refused: the kernel refused
	 * it (as a warning said, the verifier's story shows no C line). */
	int btf_fd;
	bool btf_refused;

	struct bsdk_link *links;
	bool loaded;

	/* bsdk_obj_open_opts: the kernel BTF to use; NULL for the running kernel's. */
	char *btf_path;

	/* The extensions' state of this object (obj_state()). */
	struct obj_state *states;
	size_t nstates;
};

/* What is wrong in an object: the message names it first. */
#define obj_fail(obj, err, fmt, ...) log_fail(err, "'%s': " fmt, (obj)->name, ##__VA_ARGS__)
/* Name the place of a bad relocation the same way everywhere, and fail. */
#define relo_error(obj, sec, n, fmt, ...) obj_fail(obj, BSDK_ERELO, \
	"section '%s': relocation %zu " fmt, (obj)->file.secs[sec].name, (size_t)(n), ##__VA_ARGS__)

/* ---- relo.c */
int relos_collect(struct bsdk_obj *obj);
/* Build the final instruction array of prog: its own code, the .text
 * subprograms it calls (transitively), all relocations applied. */
int relos_link_prog(const struct bsdk_prog *prog, struct linked *out);
void linked_free(struct linked *l);

/* ---- maps.c */
int maps_collect(struct bsdk_obj *obj);
/* Append a map to obj->maps (its name copied); NULL with errno. */
struct bsdk_map *map_add(struct bsdk_obj *obj, const char *name, const char *origin, size_t sec, uint64_t off);
int maps_create(struct bsdk_obj *obj);
/* Maps live in obj->maps, which the caller may change through these. */
struct bsdk_map *map_by_sec_offset(const struct bsdk_obj *obj, size_t sec, uint64_t offset);
struct bsdk_map *map_by_data_sec(const struct bsdk_obj *obj, size_t sec);

/* ---- prog.c */

/* Log one error detail line, "  " + prefix + text with text's tabs
 * expanded to the next multiple of 8 columns (a C line the verifier or
 * the line info quotes). */
void log_detail_untabbed(const char *prefix, const char *text);

int progs_collect(struct bsdk_obj *obj);
/* leave_out: a verifier rejection is one warning, -BSDK_EVERIFIER whatever
 * the errno, for a caller that leaves the program out and goes on. */
int prog_load(struct bsdk_prog *prog, bool leave_out);
/* BPF_PROG_LOAD's log_true_size (Linux 6.4) in attr: the bytes the whole
 * log needed, written back by the kernel; 0 before 6.4. */
uint32_t attr_log_true_size(const union bpf_attr *attr);

/* obj.c: bsdk_obj_load() in parts, for a caller that loads the programs
 * one by one: externs, BTF and maps (on failure nothing stays
 * loaded), then prog_load() for each, then obj->loaded = true, or
 * obj_load_abort() to unload everything and set errno to -err. */
int obj_load_begin(struct bsdk_obj *obj);
void obj_load_abort(struct bsdk_obj *obj, int err);

/* ---- obj.c: links */
/* A link to fill, and put on the object's list once filled. */
struct bsdk_link *link_new(struct bsdk_prog *prog);
void link_add(struct bsdk_prog *prog, struct bsdk_link *link);
/* Close its fds and free it, after the passes dropped what they keep of it. */
void link_free(struct bsdk_link *link);

/* The passes the extensions hook into the pipeline above, and their state
 * of an object: object/pass.h. */

#endif /* BPFSDK_OBJECT_H */
