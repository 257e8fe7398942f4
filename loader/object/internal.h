/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * internal.h - what the library's .c files share and users never see.
 */
#ifndef BPFSDK_INTERNAL_H
#define BPFSDK_INTERNAL_H

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The kernel's limit on instructions in one loaded program (kernel-private
 * BPF_COMPLEXITY_LIMIT_INSNS, 1M since 5.2). */
#define BPF_COMPLEXITY_LIMIT_INSNS 1000000

/* ---- log.c: the one place the library's messages go through. */
__attribute__((format(printf, 2, 3)))
void bsdk_log(enum bsdk_log_level level, const char *fmt, ...);

#define log_error(...) bsdk_log(BSDK_LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  bsdk_log(BSDK_LOG_WARN, __VA_ARGS__)
#define log_info(...)  bsdk_log(BSDK_LOG_INFO, __VA_ARGS__)
#define log_debug(...) bsdk_log(BSDK_LOG_DEBUG, __VA_ARGS__)

/* Set errno to err (positive) and return -err: the library's error idiom. */
static inline int fail(int err)
{
	errno = err;
	return -err;
}

static inline void *fail_ptr(int err)	/* for pointer-returning functions */
{
	errno = err;
	return NULL;
}

/* log_error(), then fail(err): `return log_fail(EINVAL, "...", ...);` says
 * what went wrong and returns it in one statement, as git's error() does. */
#define log_fail(err, ...) (log_error(__VA_ARGS__), fail(err))
/* The same for what is wrong in an object: the message names it first. */
#define obj_fail(obj, err, fmt, ...) log_fail(err, "'%s': " fmt, (obj)->name, ##__VA_ARGS__)

/* ---- sys.c: thin syscall wrappers. Each returns the syscall's result or
 * -errno (never -1 with errno). */
int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
int bpf_map_update(int map_fd, const void *key, const void *value, uint64_t flags);
int bpf_map_get_info(int map_fd, struct bpf_map_info *info);
/* The name the kernel keeps of a map or program: the first 15 characters,
 * each outside [A-Za-z0-9_.] replaced by '_'. The full name stays ours. */
void kernel_name(char dst[BPF_OBJ_NAME_LEN], const char *src);
/* Read a small file (a sysfs or procfs value) into buf, NUL-terminated: its length, or -errno. */
int read_file(const char *path, char *buf, size_t size);

/* ---- drain.c: what the perf buffer and the ring buffer share. */
uint64_t now_ns(void);	/* CLOCK_MONOTONIC */

/* run.c: the poll loop behind bsdk_perfbuf_run() and bsdk_ringbuf_run(), over any poll
 * function (the unit tests give it a fake one); what names the buffer in messages. */
int run_loop(int (*poll)(void *buf, int timeout_ms), void *buf, const char *what,
	     const struct bsdk_run_opts *opts);
/* fflush(out): 0, BSDK_RUN_CLOSED on EPIPE, else negative errno, logged. */
int run_flush(FILE *out);
/* Copy the caller's opts of src_sz bytes into dst of size bytes: an older,
 * smaller struct (down to min_sz) is fine, a newer one when the bytes this
 * library does not know are zero, so fields can be appended. */
int opts_copy(void *dst, size_t size, const void *src, size_t src_sz,
	      size_t min_sz, const char *who);
/* Get the info of map_fd into *info and check it is of map type type. */
int map_check(int map_fd, uint32_t type, const char *type_name,
	      const char *who, struct bpf_map_info *info);

/* The wait-and-drain loop: an epoll set, and while some ring is streaming (see wakeup.c) a drain
 * every period_ns; with none streaming it sleeps until the kernel wakes it (or idle_ns). */
struct epoll_event;
struct drain {
	const char *who;	/* "perf buffer", "ring buffer": for messages */
	int epfd;		/* -1 before drain_init() */
	uint64_t period_ns;	/* the streaming drain period; 0: none */
	uint64_t idle_ns;	/* drain this often even with nothing streaming; 0: never */
	bool streaming;		/* some ring wants the timer: set by the owner's consume */
	uint64_t last_ns;	/* when the last drain began */
	uint64_t wakeups;	/* epoll waits that ended with an fd ready */
	uint64_t drains;	/* calls of consume */
};
/* Create the epoll set; *max_latency_ms 0 becomes the default (DEFAULT_MAX_LATENCY_MS). */
int drain_init(struct drain *d, const char *who, int *max_latency_ms);
#define DEFAULT_MAX_LATENCY_MS 5
int drain_timeout_ms(const struct drain *d);
/* bsdk_perfbuf_poll() for any consumer: wait on d->epfd (into events, at most nevents), then
 * consume(owner), until it returns records (or a negative value) or the timeout passes. */
int drain_poll(struct drain *d, struct epoll_event *events, int nevents,
	       int timeout_ms, int (*consume)(void *owner), void *owner);

/* ---- wakeup.c: per ring, be woken by the kernel for each record (EAGER) or drain on the
 * timer (STREAM), by the rate seen over windows of one drain period. */
enum wake_mode { WAKE_EAGER, WAKE_STREAM };

struct wake_cfg {
	uint64_t period_ns;	/* the streaming drain period, and the window */
	uint64_t n_stream;	/* records in one window that switch EAGER to STREAM */
	uint64_t n_eager;	/* fewer in a window switch STREAM back to EAGER */
};

struct wake_policy {
	enum wake_mode mode;
	uint64_t window_start;	/* ns */
	uint64_t window_n;	/* records in the current window */
	uint64_t switches;	/* mode changes so far */
	uint64_t hold_until;	/* ns: stay EAGER until then (wake_hold_eager) */
};

void wake_cfg_init(struct wake_cfg *c, uint64_t period_ns);
/* Start EAGER, with a window beginning at now. */
void wake_init(struct wake_policy *p, uint64_t now);
/* Go EAGER now and stay so for hold_ns, whatever the rate: a ring that filled past a quarter
 * within one period is too small to be drained on the timer at that rate. */
void wake_hold_eager(struct wake_policy *p, uint64_t now, uint64_t hold_ns);
/* The drain period for a ring of size bytes that took bytes in elapsed ns while streaming: the
 * time a quarter of it takes to fill at that rate, at most base. 0 when that is under
 * WAKE_MIN_PERIOD_NS (epoll_wait() counts in ms): the ring is too small for any timer. */
#define WAKE_MIN_PERIOD_NS 1000000ull
uint64_t wake_stream_period(uint64_t base, uint64_t bytes, uint64_t elapsed, uint64_t size);
/* Account the n records a drain at time now found; true when p->mode changed. */
bool wake_update(struct wake_policy *p, const struct wake_cfg *c, uint64_t now, uint64_t n);

/* true when [off, off + len) does not fit inside a region of size total,
 * overflow included: the check for offsets and sizes read from a file. */
static inline int range_outside(uint64_t off, uint64_t len, uint64_t total)
{
	uint64_t end;

	return __builtin_add_overflow(off, len, &end) || end > total;
}

/* Append the size-byte *elem to the malloc'ed array *arrp of *n elements
 * (arrp is the address of the array pointer). 0 or -ENOMEM. */
static inline int array_push(void *arrp, size_t *n, const void *elem, size_t size)
{
	void *arr, *grown;

	memcpy(&arr, arrp, sizeof(arr));
	grown = realloc(arr, (*n + 1) * size);
	if (!grown)
		return fail(ENOMEM);
	memcpy((char *)grown + *n * size, elem, size);
	memcpy(arrp, &grown, sizeof(grown));
	(*n)++;
	return 0;
}

struct core_relo;
struct core_use;

/* json.c: the length of the valid UTF-8 sequence of 2 to 4 bytes at p (end
 * excluded), 0 if there is none (RFC 3629); ASCII is the caller's. */
size_t utf8_len(const unsigned char *p, const unsigned char *end);

/* ---- The object model. Owned by obj.c; filled by elf.c, btf.c, maps.c,
 * relo.c and prog.c. */
struct btf;

/* One ELF section as the loader sees it, bounds already checked. */
struct elf_sec {
	const char *name;
	GElf_Shdr shdr;
	const void *data;	/* NULL for SHT_NOBITS and empty sections */
	size_t size;		/* sh_size (also for NOBITS) */
};

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
};

struct bsdk_obj {
	char *name;
	void *image;		/* our copy of the ELF file */
	size_t image_size;
	Elf *elf;

	struct elf_sec *secs;
	size_t nsecs;
	size_t *sec_order;	/* section indices sorted by name, then index */

	GElf_Sym *syms;		/* .symtab, copied out of the image */
	size_t nsyms;
	size_t symtab_sec;
	size_t strtab_sec;

	char *license;
	uint32_t kversion;

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

/* elf.c */
int elf_parse(struct bsdk_obj *obj);
const char *elf_sym_name(const struct bsdk_obj *obj, const GElf_Sym *sym);
const struct elf_sec *elf_sec_by_name(const struct bsdk_obj *obj, const char *name, size_t *index);
/* No second section of this name (true when there is none at all). */
bool elf_sec_name_unique(const struct bsdk_obj *obj, const char *name);
bool elf_sec_is_prog(const struct bsdk_obj *obj, size_t sec);
bool elf_sec_is_data(const struct bsdk_obj *obj, size_t sec);

/* maps.c */
int maps_collect(struct bsdk_obj *obj);
/* Append a map to obj->maps (its name copied); NULL with errno. */
struct bsdk_map *map_add(struct bsdk_obj *obj, const char *name, const char *origin, size_t sec, uint64_t off);
int maps_create(struct bsdk_obj *obj);
/* Maps live in obj->maps, which the caller may change through these. */
struct bsdk_map *map_by_sec_offset(const struct bsdk_obj *obj, size_t sec, uint64_t offset);
struct bsdk_map *map_by_data_sec(const struct bsdk_obj *obj, size_t sec);

/* globals.c */
/* Map the global data map just created and filled (.rodata read-only: it is frozen). */
int globals_mmap(struct bsdk_map *map);
void globals_unmap(struct bsdk_map *map);

/* obj.c: the symbol of global variable name and the data map that holds it, or NULL. */
const GElf_Sym *obj_global_find(const struct bsdk_obj *obj, const char *name,
				struct bsdk_map **map);

/* extern.c: __kconfig variables, __ksym variables and kfuncs. */
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
	int16_t fd_idx;		/* KFUNC in a module: its slot in obj->fd_array */
	char value[96];		/* resolved: the value, in words */
	char why[192];		/* not resolved: the reason, in words */
};
/* At open: find the externs, lay out .kconfig (a map), fix the BTF for the kernel. */
int externs_collect(struct bsdk_obj *obj);
const struct ext *extern_by_name(const struct bsdk_obj *obj, const char *name, size_t *index);
/* Resolve every extern against the running kernel; the count of those that
 * cannot be (weak ones never count), or -errno. Records, never logs. */
int externs_resolve(struct bsdk_obj *obj);
/* At load: resolve, log what cannot be, fill .kconfig. 0 or -ENOENT. */
int externs_load(struct bsdk_obj *obj);
/* Write extern relocation r (KSYM, KFUNC) into the linked instruction insn. */
void extern_apply(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn);
/* When the verifier stopped at instruction insn of l, a poisoned call of a
 * weak kfunc the kernel lacks: say so, naming it. */
void extern_explain(const struct bsdk_prog *prog, const struct linked *l, long insn);
/* The configuration parser, for the unit tests: find name's value in a
 * kernel config text (1, 0 when absent, -EINVAL), and store it as e's type
 * wants (0, or -EINVAL with the reason in err). */
int kconfig_lookup(const char *text, size_t len, const char *name, char *val, size_t size);
int kconfig_set(const struct ext *e, const char *val, void *dst, char *err, size_t err_size);

/* usdt.c: USDT probes. The spec layout is include/bpf/usdt.bpf.h's. */
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

/* relo.c */
int relos_collect(struct bsdk_obj *obj);
/* Build the final instruction array of prog: its own code, the .text
 * subprograms it calls (transitively), all relocations applied. */
int relos_link_prog(const struct bsdk_prog *prog, struct linked *out);
void linked_free(struct linked *l);
/* Link every program once at open time: checks what load will do, and
 * fills the relocation and helper lists the accessors show. */
int relos_link_all(struct bsdk_obj *obj);

/* btf.c, besides btf.h: .BTF.ext, and .BTF into the kernel. */
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

/* prog.c */

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

/* attach.c */
int attach_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_raw_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_kprobe(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_ksyscall(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_uprobe(struct bsdk_prog *prog, struct bsdk_link *link);
/* The kernel symbol a kprobe or ksyscall program probes (the target
 * without "+OFFSET"; __x64_sys_NAME for ksyscall/NAME), into func. 0 or
 * -BSDK_ESECTION for a target that names none. */
int kprobe_symbol(const struct bsdk_prog *prog, char *func, size_t size);
/* The PMU's type number and the config bit of its return probes. */
int probe_pmu(const char *pmu, int *type, int *ret_bit);
/* Whether a uprobe target names a binary ("PATH:FUNC"): without one the
 * program is attached only through bsdk_prog_attach_uprobe(). */
bool uprobe_target_complete(const char *target);
/* A link to fill, and put on the object's list once filled. */
struct bsdk_link *link_new(struct bsdk_prog *prog);
void link_add(struct bsdk_prog *prog, struct bsdk_link *link);
void link_free(struct bsdk_link *link);	/* obj.c: close its fds, free it */

/* attach_btf.c: attach points found in kernel BTF (tp_btf, fentry, fexit,
 * fmod_ret, lsm, iter). */
/* Look prog's target up in kernel BTF: fills prog->attach_btf_id and
 * ->attach_btf_obj_fd. -BSDK_ENOPROBE when the kernel has no such target;
 * the reason in why, nothing logged. */
int attach_btf_resolve(struct bsdk_prog *prog, char *why, size_t size);
/* Whether the kernel loads a program of prog's kind at its (resolved)
 * target: an empty program is loaded and closed. 0, or -errno with the
 * reason in why. */
int attach_btf_probe_load(struct bsdk_prog *prog, char *why, size_t size);
int attach_btf_tracing(struct bsdk_prog *prog, struct bsdk_link *link);
int attach_btf_iter(struct bsdk_prog *prog, struct bsdk_link *link);

/* log.c: while a capture is on, error messages go into buf (the first one
 * kept) instead of to the log: for a caller that reports the failure
 * itself, in one line of its own. */
void log_capture_begin(char *buf, size_t size);
void log_capture_end(void);

#endif /* BPFSDK_INTERNAL_H */
