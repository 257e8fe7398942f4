/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * extern.h - what the externs' files share: extern.c (collecting them at
 * open, writing them into the programs), extern_resolve.c (resolving them
 * against the running kernel at load), kconfig.c (the kernel's
 * configuration) and extern_pass.c (the pass and the accessors, above the
 * others). Not installed.
 */
#ifndef BPFSDK_EXTERN_H
#define BPFSDK_EXTERN_H

#include "object/object.h"
#include "object/pass.h"

/* One extern: a __kconfig variable, a __ksym variable or a kfunc. */
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

/* The externs of an object, and what they resolved to: obj_state() of
 * extern_key. */
struct ext_state {
	struct ext *exts;	/* sorted by name */
	size_t nexts;
	size_t kconfig_map;	/* index of the ".kconfig" map, SIZE_MAX: none */
	bool resolved;		/* externs_resolve() ran */
	int *fd_array;		/* module BTF fds of kfunc calls, for BPF_PROG_LOAD */
	size_t nfd_array;
};

extern const char extern_key;
/* The object's externs; an object without any has an empty state. */
struct ext_state *ext_state_of(const struct bsdk_obj *obj);
const struct ext *ext_find(const struct ext_state *xs, const char *name, size_t *index);
/* "kconfig", "ksym", "kfunc", by enum ext_kind. */
extern const char *const extern_kind_names[3];

/* extern.c, the pass's hooks: collect at open; a relocation against an extern; write its value
 * into insn while linking; BPF_PROG_LOAD's fd_array of kfuncs' module BTF; what an extern
 * explains of a rejection. */
int externs_collect(struct bsdk_obj *obj);
int extern_relo(struct bsdk_obj *obj, size_t sec, size_t n, const struct bpf_insn *insn,
		struct relo *r);
void extern_apply(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn);
int extern_prog_attr(struct bsdk_prog *prog, union bpf_attr *attr);
void extern_explain(const struct bsdk_prog *prog, const struct linked *l, long insn);

/* extern_resolve.c: resolve every extern against the running kernel; the count of those that
 * cannot be (weak ones never count), or -errno. Records, never logs. */
int externs_resolve(struct bsdk_obj *obj);
/* At load: resolve, log what cannot be, fill .kconfig. 0 or -ENOENT. */
int externs_load(struct bsdk_obj *obj);

/* kconfig.c: the running kernel's configuration text, read once (len set; where it was read
 * from into where, PATH_MAX bytes), or NULL with *err set. */
const char *kconfig_text(size_t *len, char *where, int *err);
/* Store v in the size bytes at dst (1, 2, 4 or 8), in the host's byte order. */
void put_int(void *dst, unsigned int size, unsigned long long v);

#endif /* BPFSDK_EXTERN_H */
