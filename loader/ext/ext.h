/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * ext.h - the extensions, above the core: externs (extern.c), USDT
 * (usdt.c), global variables (globals.c), and what the printers share
 * (json.c). Not installed.
 */
#ifndef BPFSDK_EXT_H
#define BPFSDK_EXT_H

#include "object/object.h"
#include "hooks/hooks.h"
#include "co-re/btf_index.h"

/* json.c: the length of the valid UTF-8 sequence of 2 to 4 bytes at p (end
 * excluded), 0 if there is none (RFC 3629); ASCII is the caller's. */
size_t utf8_len(const unsigned char *p, const unsigned char *end);

/* ---- the passes the top of the library registers (passes.c) */
extern const struct obj_pass btf_ext_pass;	/* btf_ext_pass.c */
extern const struct obj_pass core_pass;		/* core_obj.c */
extern const struct obj_pass extern_pass;	/* extern.c */
extern const struct obj_pass globals_pass;	/* globals.c */
extern const struct obj_pass twins_pass;	/* twins.c */
extern const struct obj_pass pin_pass;		/* pin.c */
extern const struct obj_pass map_hints_pass;	/* map_hints.c */
extern const struct obj_pass verifier_hints_pass;	/* verifier_hints.c */
extern const struct obj_pass info_pass;		/* obj_info.c */
extern const struct obj_pass btf_pass;		/* btf_load.c */

/* ---- btf_ext_pass.c: the object's .BTF.ext, parsed at open (btf_ext.h),
 * or NULL when it has none (or no .BTF). */
struct btf_ext;
const struct btf_ext *btf_ext_of(const struct bsdk_obj *obj);

/* ---- btf_load.c: the object's BTF into the kernel */
struct btf;
/* A type record's info word. */
#define BTF_INFO_ENC(kind, vlen, flag) (((uint32_t)(flag) << 31) | ((kind) << 24) | (vlen))
/* BTF kinds younger than BTF itself; bit f of a "missing" mask. */
enum btf_feature {
	FEAT_GLOBAL_FUNC,	/* FUNC linkage in vlen, 5.6 */
	FEAT_DATASEC,		/* VAR and DATASEC, 5.2 */
	FEAT_FLOAT,		/* 5.13 */
	FEAT_DECL_TAG,		/* 5.16 */
	FEAT_TYPE_TAG,		/* 5.17 */
	FEAT_ENUM64,		/* 6.0 */
	FEAT_COUNT
};
/* A malloc'ed copy of the BTF with the kinds in missing rewritten into
 * older ones, keeping every type ID; its size goes to *size. */
void *btf_sanitize(const struct btf *btf, unsigned int missing, size_t *size);
/* The BTF, sanitised for the running kernel, loaded into it: its fd, or
 * -1 after a warning naming obj (a program loads without BTF). */
int btf_load_kernel(const struct btf *btf, const char *obj);
/* btf_fixup.c: fill in each DATASEC's size and its variables' offsets from the ELF file
 * (clang leaves them 0). 0 or -ENOMEM. */
int btf_fixup_datasecs(struct btf *btf, const struct elf_file *ef);
/* Give global functions of hidden visibility (__hidden) static linkage in
 * BTF, so the verifier checks them with their caller's context. */
void btf_mark_hidden_static(struct btf *btf, const struct elf_file *ef);

/* ---- core_obj.c: the object's CO-RE relocations */
struct core_relo;
/* Resolve one relocation against the kernel BTF at kbtf_path (NULL: the running kernel's):
 * r->state and value set. 0, or -errno when the kernel BTF cannot be read at all. */
int core_resolve(const struct btf *local, struct core_relo *r, const char *kbtf_path);
/* The same, with where the access led in the first kernel type that matched (co-re/core.h). */
struct core_spec;
int core_resolve_spec(const struct btf *local, struct core_relo *r, const char *kbtf_path,
		      struct core_spec *spec);
/* The object's relocations, sorted by section and instruction; *n of them. */
const struct core_relo *core_obj_relos(const struct bsdk_obj *obj, size_t *n);

/* ---- extern.c: __kconfig variables, __ksym variables and kfuncs. */
enum ext_kind { EXT_KCONFIG, EXT_KSYM, EXT_KFUNC };	/* as enum bsdk_extern_kind */
enum kcfg_type { KCFG_BOOL, KCFG_TRISTATE, KCFG_CHAR, KCFG_INT, KCFG_CHAR_ARR };
struct ext {
	const char *name;
	enum ext_kind kind;
	bool weak;
	uint32_t btf_id;	/* its VAR or FUNC in the object's BTF */
	uint32_t type_id;	/* KSYM: the variable's type, 0 for void; KFUNC: its proto */
	bool typed;		/* KSYM: resolved through kernel BTF, not kallsyms */
	/* EXT_KCONFIG: how its bytes are filled, and where in .kconfig */
	enum kcfg_type kcfg;
	uint32_t size, align, offset;
	bool is_signed;
	/* what externs_resolve() found */
	bool resolved;
	bool bad_value;		/* found, but not fit for the declared type */
	uint64_t addr;		/* untyped KSYM */
	uint32_t kernel_btf_id;
	int kernel_btf_fd;	/* 0: vmlinux */
	int16_t fd_idx;		/* KFUNC in a module: its slot in the fd_array of BPF_PROG_LOAD */
	char value[96];		/* resolved: the value, in words */
	char why[192];		/* not resolved: the reason, in words */
};
/* The configuration parser, for the unit tests: find name's value in a
 * kernel config text (1, 0 when absent, -EINVAL), and store it as e's type
 * wants (0, or -EINVAL with the reason in err). */
int kconfig_lookup(const char *text, size_t len, const char *name, char *val, size_t size);
int kconfig_set(const struct ext *e, const char *val, void *dst, char *err, size_t err_size);

/* ---- usdt.c: USDT probes. The spec layout is include/bpf/usdt.bpf.h's. */
#define USDT_MAX_ARGS 12
enum usdt_arg_type { USDT_ARG_CONST, USDT_ARG_REG, USDT_ARG_REG_DEREF };
struct usdt_arg_spec {
	uint64_t val_off;	/* CONST: the value; REG_DEREF: the offset */
	uint32_t arg_type;	/* enum usdt_arg_type */
	int16_t reg_off;	/* the register's offset in struct pt_regs */
	uint8_t arg_signed;
	int8_t arg_bitshift;	/* 64 - 8 * size */
};
struct usdt_spec {
	struct usdt_arg_spec args[USDT_MAX_ARGS];
	uint64_t usdt_cookie;
	int16_t arg_cnt;
};
/* One probe site in a binary. */
struct usdt_site {
	uint64_t offset;		/* file offset of the probe's nop */
	uint64_t ref_ctr_offset;	/* file offset of its semaphore, 0: none */
	uint64_t vaddr;			/* its link-time address */
	bool relocatable;		/* the binary is PIE or a library */
	char *args;			/* "-4@%edi 8@-8(%rbp)" */
};
/* Parse a site's argument string into spec: 0, or -errno with the reason in err. */
int usdt_parse_args(const char *args, struct usdt_spec *spec, char *err, size_t err_size);
/* Every site of provider:name in the ELF file at path (logged when none). */
int usdt_sites_find(const char *path, const char *provider, const char *name,
		    struct usdt_site **sites, size_t *n);
void usdt_sites_free(struct usdt_site *sites, size_t n);
int attach_usdt(struct bsdk_prog *prog, struct bsdk_link *link);

/* attach_all.c: say that prog is left out: a warning, or with require_all
 * an error (errno set from nothing: the caller returns its own) */
void attach_left_out(const struct bsdk_prog *prog, bool require_all, const char *why);
/* twins.c: whether prog has a twin among the programs to load; choose in
 * its group the programs to load (done[i] set for each member), the others
 * spares, returning how many load or a negative errno (require_all); let
 * the spares of its group stand in for failed, returning how many do. */
bool twins_grouped(const struct bsdk_prog *prog);
int twins_choose(struct bsdk_prog *prog, bool require_all, bool *done);
int twins_stand_in(struct bsdk_prog *failed);
/* twins.c: no program is a spare (the attach policy starts again). */
void twins_reset(struct bsdk_obj *obj);

#endif /* BPFSDK_EXT_H */
