/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * object.h - the object model: an opened object, its maps, programs and
 * links (owned by obj.c; filled by maps.c, relo.c and prog.c from what
 * the format layer read), and the section table. Not installed.
 */
#ifndef BPFSDK_OBJECT_H
#define BPFSDK_OBJECT_H

#include "base/base.h"
#include "format/elf.h"

struct btf;
struct core_relo;
struct core_use;


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
	size_t ext;		/* KSYM, KFUNC: index into obj->exts */
};

/* The .BTF.ext records of one section, insn_off in instructions. */
struct ext_info {
	struct bpf_func_info *func;
	size_t nfunc;
	struct bpf_line_info *line;
	size_t nline;
};

/* A program with its subprograms appended and relocations applied; func
 * and line info remapped to it. */
struct linked {
	struct bpf_insn *insns;
	size_t count;
	struct bpf_func_info *func;
	size_t nfunc;
	struct bpf_line_info *line;
	size_t nline;
	struct relo *relos;	/* those applied, insn and target linked */
	size_t nrelos;
	struct core_use *core;	/* CO-RE relocations applied, by linked insn */
	size_t ncore;
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
	bool attached;		/* a link was made: bsdk_obj_attach_all() skips it */
	int fd;
	/* BTF-typed kinds: the target in kernel BTF, found at load. */
	uint32_t attach_btf_id;
	int attach_btf_obj_fd;	/* 0 for vmlinux; owned by kbtf */
	/* What linking at open time found, for the inspect accessors. */
	struct relo *relos;
	size_t nrelos;
	int32_t *helpers;	/* helper IDs called, sorted, unique */
	size_t nhelpers;
	struct core_use *core;	/* CO-RE relocations, insn in the linked program */
	size_t ncore;
	size_t linked_count, nfunc, nline;
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
	bool pinned_here;	/* this load created its pin */
	int fd;
	int batch_mode;		/* map_ops.c: how lookup_batch reads it */
	/* globals.c: a global data map created BPF_F_MMAPABLE, mapped after load */
	bool mmapable;
	void *mmaped;
	size_t mmap_size;
};

struct bsdk_link {
	struct bsdk_obj *obj;
	struct bsdk_prog *prog;	/* the program attached */
	struct bsdk_link *next;	/* in obj->links, for bsdk_obj_close() */
	int link_fd;		/* BPF link, or -1 */
	int perf_fd;		/* perf event, or -1 */
	struct bsdk_link *more;	/* USDT: the link of the next probe site */
	bool policy;		/* made by bsdk_obj_attach_all(): bsdk_obj_detach_all() destroys it */
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
	struct ext_info *ext;	/* per section, NULL without .BTF.ext */
	int btf_fd;		/* after load; -1 when the kernel took none */

	struct bsdk_link *links;
	bool loaded;

	/* bsdk_obj_open_opts: the kernel BTF to use; NULL for the running kernel's. */
	char *btf_path;

	/* .BTF.ext core_relo records, sorted by section and instruction (core.c). */
	struct core_relo *core;
	size_t ncore;
	/* extern.c: __kconfig and __ksym externs, and what they resolved to. */
	struct ext *exts;
	size_t nexts;
	size_t kconfig_map;	/* index of the ".kconfig" map, SIZE_MAX: none */
	bool exts_resolved;
	int *fd_array;		/* module BTF fds of kfunc calls, for BPF_PROG_LOAD */
	size_t nfd_array;
	uint32_t usdt_nspecs;	/* usdt.c: __bpf_usdt_specs entries written */
};

/* What is wrong in an object: the message names it first. */
#define obj_fail(obj, err, fmt, ...) log_fail(err, "'%s': " fmt, (obj)->name, ##__VA_ARGS__)

/* ---- relo.c */
int relos_collect(struct bsdk_obj *obj);
/* Build the final instruction array of prog: its own code, the .text
 * subprograms it calls (transitively), all relocations applied. */
int relos_link_prog(const struct bsdk_prog *prog, struct linked *out);
void linked_free(struct linked *l);
/* Link every program once at open time: checks what load will do, and
 * fills the relocation and helper lists the accessors show. */
int relos_link_all(struct bsdk_obj *obj);

/* ---- maps.c */
int maps_collect(struct bsdk_obj *obj);
/* Append a map to obj->maps (its name copied); NULL with errno. */
struct bsdk_map *map_add(struct bsdk_obj *obj, const char *name, const char *origin, size_t sec, uint64_t off);
int maps_create(struct bsdk_obj *obj);
/* Maps live in obj->maps, which the caller may change through these. */
struct bsdk_map *map_by_sec_offset(const struct bsdk_obj *obj, size_t sec, uint64_t offset);
struct bsdk_map *map_by_data_sec(const struct bsdk_obj *obj, size_t sec);

/* ---- btf.c, besides btf.h: .BTF.ext, and .BTF into the kernel. */
int btf_ext_parse(struct bsdk_obj *obj, const void *data, size_t size);
/* Record i of n of section sec in a .BTF.ext list, its first known bytes 4-byte aligned. */
typedef int (*btf_ext_fn)(struct bsdk_obj *obj, size_t sec, uint32_t i, uint32_t n,
			  const void *rec, void *ctx);
/* Walk one .BTF.ext list (what: "func_info", ...) of len bytes at p, checking its blocks. */
int btf_ext_walk(struct bsdk_obj *obj, const char *p, uint32_t len, const char *what,
		 size_t known, btf_ext_fn fn, void *ctx);
/* A .BTF.ext error, naming the object: `return ext_error("...", ...);` */
#define ext_error(fmt, ...) obj_fail(obj, BSDK_EBTF, ".BTF.ext: " fmt, ##__VA_ARGS__)
/* Fill in each DATASEC's size and offsets from the ELF file. 0 or -ENOMEM. */
int btf_fixup_datasecs(struct bsdk_obj *obj);
/* Give global functions of hidden visibility (__hidden) static linkage in
 * BTF, so the verifier checks them with their caller's context. */
void btf_mark_hidden_static(struct bsdk_obj *obj);
/* Load obj->btf, sanitised for the running kernel, into obj->btf_fd;
 * on failure warn and leave it -1. */
void btf_load(struct bsdk_obj *obj);

/* ---- prog.c */

/* Where the section name's target comes from. */
enum attach_target {
	TARGET_NONE,		/* "perf_event", "xdp": nothing to name */
	TARGET_REQUIRED,	/* "tracepoint/CAT/NAME": open fails without one */
	TARGET_OPTIONAL,	/* "uprobe" alone: the caller gives it at attach */
};

/* One row of the section table: a section name prefix and what it means. */
struct attach_kind {
	const char *prefix;	/* "tracepoint": matches "tracepoint/..." (and
				 * "tracepoint" itself, the target empty) */
	enum bpf_prog_type prog_type;
	enum bpf_attach_type expected_attach_type;	/* 0 when the type needs none */
	const char *type_name;	/* "tracepoint", "fentry": for messages */
	int (*attach)(struct bsdk_prog *prog, struct bsdk_link *link);	/* NULL: load-only */
	enum attach_target target;
	bool retprobe;		/* kretprobe, uretprobe, kretsyscall */
	bool sleepable;		/* the ".s" forms: BPF_F_SLEEPABLE */
	/* BTF-typed attach points: the target's name in kernel BTF is
	 * btf_prefix + target, of BTF kind btf_kind (NULL: not BTF-typed). */
	const char *btf_prefix;
	int btf_kind;
	/* Load-only kinds: how their user attaches them, for messages. */
	const char *manual;
};

/* The table row for a section name, or NULL when none matches. */
const struct attach_kind *attach_kind_find(const char *section);
/* Every accepted form, for the "unknown section name" message. */
const char *attach_kind_forms(void);
int progs_collect(struct bsdk_obj *obj);
int prog_load(struct bsdk_prog *prog);

/* ---- obj.c: links */
/* A link to fill, and put on the object's list once filled. */
struct bsdk_link *link_new(struct bsdk_prog *prog);
void link_add(struct bsdk_prog *prog, struct bsdk_link *link);
void link_free(struct bsdk_link *link);	/* obj.c: close its fds, free it */

#endif /* BPFSDK_OBJECT_H */
