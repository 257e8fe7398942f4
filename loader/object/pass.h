/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * pass.h - where the extensions hook into the object's open and load
 * pipeline (object.h): the table of passes, each hook's loop and the rule
 * that combines the passes' answers (pass.c), and each extension's state
 * of an object. Not installed.
 */
#ifndef BPFSDK_OBJECT_PASS_H
#define BPFSDK_OBJECT_PASS_H

#include "object/object.h"

/*
 * The core loads an object with maps, programs and their relocations;
 * what an extension adds (CO-RE, externs, global variables mapped in
 * user space, pinned maps, the hints under a refusal) it adds through a
 * pass, which the top of the library registers (ext/passes.c). The
 * core never names an extension: without passes (libbpfsdk-core.a) an
 * object that needs one fails to open or load with a message saying
 * what is missing. Every hook may be NULL. */
struct obj_pass {
	const char *name;
	bool co_re_relos;	/* it applies the CO-RE records of .BTF.ext */
	/* At open, .BTF just parsed, before anything reads it: make it what
	 * the linker would have (the DATASECs' offsets). */
	int (*btf)(struct bsdk_obj *obj);
	bool pins_maps;		/* it pins the maps that ask (LIBBPF_PIN_BY_NAME) */
	/* At open, before the file is read, when the caller named a kernel
	 * BTF file (obj->btf_path): check it. */
	int (*kernel_btf)(struct bsdk_obj *obj);
	/* At open, after the maps and programs are read, before the
	 * relocations: collect and check what the extension handles. */
	int (*open)(struct bsdk_obj *obj);
	/* At open, the last step: the relocations read and checked. */
	int (*opened)(struct bsdk_obj *obj);
	/* A relocation against an undefined symbol (r->sym_name), on insn:
	 * fill r (kind, ext, map, offset) and return 0, or -ENOENT when the
	 * symbol is not this pass's; other errors are logged. */
	int (*relo_undef)(struct bsdk_obj *obj, size_t sec, size_t n,
			  const struct bpf_insn *insn, struct relo *r);
	/* Linking: fn of prog was placed at base in out (the program itself
	 * first, at 0): patch what the extension relocates in it, append
	 * what it moves with it (func and line info). */
	int (*link_func)(const struct bsdk_prog *prog, const struct func *fn,
			 struct linked *out, size_t base);
	/* Linking: relocation r of kind KSYM or KFUNC, at insn. */
	void (*link_relo)(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn);
	/* At load, before the maps are created. */
	int (*load)(struct bsdk_obj *obj);
	/* At load, before map is created: 0 to create it, 1 when the pass
	 * gave it an fd (a pinned map reused), or an error, logged. */
	int (*map_create)(struct bsdk_map *map);
	/* At load, a map just created and filled. */
	int (*map_created)(struct bsdk_map *map);
	/* The kernel refused to create map with err: say why, as detail lines. */
	void (*map_create_failed)(const struct bsdk_map *map, int err);
	/* After load, where user space reads a global data map's value
	 * without a system call, or NULL (bsdk_map_global_data()). */
	void *(*map_data)(const struct bsdk_map *map);
	/* BPF_PROG_LOAD's attributes of prog, before the call: 0, or an
	 * error, logged. */
	int (*prog_attr)(struct bsdk_prog *prog, union bpf_attr *attr);
	/* The size of the buffer for the verifier's log of a rejection. */
	size_t (*log_size)(void);
	/* The verifier's reason for a rejection, one line of its log, in buf. */
	void (*reason)(const char *log, char *buf, size_t size);
	/* After the verifier rejected l at instruction insn with log: what
	 * its log and the instructions say to do, as detail lines. */
	void (*hint)(const struct bsdk_prog *prog, const char *log, long insn, const struct linked *l);
	/* After the verifier rejected l at instruction insn: say what the
	 * extension knows of it, as detail lines. */
	void (*explain)(const struct bsdk_prog *prog, const struct linked *l, long insn);
	/* At a failed load, before the unload: undo what the load made
	 * outside the process (the pins it created). */
	void (*load_failed)(struct bsdk_obj *obj);
	/* At unload, before the maps are closed. */
	void (*unload)(struct bsdk_obj *obj);
	/* A link is freed (destroyed, its object closed, or a failed attach's):
	 * drop what the extension keeps of it, and free what hangs off it. */
	void (*link_free)(struct bsdk_link *link);
};

/* Register a pass: they run in the order added. More than OBJ_PASSES_MAX is a
 * build that cannot work: it stops the program with a message. */
#define OBJ_PASSES_MAX 16
void obj_pass_add(const struct obj_pass *pass);
/* How many are registered: read by pass.c alone (a unit test empties the
 * table to load as libbpfsdk-core.a does). */
extern size_t obj_npasses;

/* An extension's state of obj, its own struct: found by key (the address
 * of something of the extension's), made of size zeroed bytes on first
 * use, and handed to free_fn at close. NULL with errno ENOMEM. */
struct obj_state {
	const void *key;
	void *state;
	void (*free_fn)(void *state);
};
void *obj_state(struct bsdk_obj *obj, const void *key, size_t size, void (*free_fn)(void *state));
/* The state of key, or NULL when there is none yet. */
void *obj_state_find(const struct bsdk_obj *obj, const void *key);
/* At close: every state to its free_fn. */
void obj_states_free(struct bsdk_obj *obj);

/* ---- Each hook run over the registered passes, in their order, by one of
 * these rules, named once here:
 *   every    every pass with the hook runs; the first error stops the
 *            others and is returned (0: all succeeded)
 *   each     every pass with the hook runs, no answer (broadcast)
 *   first    the first pass with the hook answers; without one the core's
 *            own answer (or message) is used
 *   claim    the first pass that does not decline answers: -ENOENT (a
 *            relocation) or 0 (a map) declines
 *   any      true when a pass sets the flag
 * A build without passes (libbpfsdk-core.a) runs none: what needs an
 * extension fails with one message naming what this build does not do. */
int passes_btf(struct bsdk_obj *obj);				/* every */
int passes_kernel_btf(struct bsdk_obj *obj);			/* first, else refused */
int passes_open(struct bsdk_obj *obj);				/* every */
bool passes_apply_core_relos(void);				/* any: co_re_relos */
int passes_opened(struct bsdk_obj *obj);			/* every */
int passes_relo_undef(struct bsdk_obj *obj, size_t sec, size_t n,
		      const struct bpf_insn *insn, struct relo *r);	/* claim */
int passes_link_func(const struct bsdk_prog *prog, const struct func *fn,
		     struct linked *out, size_t base);			/* every */
void passes_link_relo(const struct bsdk_obj *obj, const struct relo *r,
		      struct bpf_insn *insn);				/* each */
int passes_load(struct bsdk_obj *obj);				/* every */
bool passes_pin_maps(void);					/* any: pins_maps */
int passes_map_create(struct bsdk_map *map);			/* claim: 1, or an error */
int passes_map_created(struct bsdk_map *map);			/* every */
void passes_map_create_failed(const struct bsdk_map *map, int err);	/* each */
void *passes_map_data(const struct bsdk_map *map);		/* first non-NULL */
int passes_prog_attr(struct bsdk_prog *prog, union bpf_attr *attr);	/* every */
size_t passes_log_size(void);					/* first, else 256 MiB */
void passes_reason(const char *log, char *buf, size_t size);	/* first, else a pointer to -v -v */
void passes_hint(const struct bsdk_prog *prog, const char *log, long insn,
		 const struct linked *l);			/* each */
void passes_explain(const struct bsdk_prog *prog, const struct linked *l, long insn);	/* each */
void passes_load_failed(struct bsdk_obj *obj);			/* each */
void passes_unload(struct bsdk_obj *obj);			/* each */
void passes_link_free(struct bsdk_link *link);			/* each */

#endif /* BPFSDK_OBJECT_PASS_H */
