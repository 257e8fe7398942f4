/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk.h - the public API of the bpfsdk loader library: take a BPF ELF
 * object as clang writes it, create its maps, relocate and load its
 * programs, attach them by section name, and read what they send with
 * bpf_perf_event_output() out of per-CPU perf rings.
 *
 * Every name is bsdk_ + object + verb, so the API reads like a table of
 * contents:
 *   bsdk_obj_*      an opened ELF object and the programs and maps inside it
 *   bsdk_prog_*     one BPF program (one ELF section of executable code)
 *   bsdk_map_*      one BPF map
 *   bsdk_link_*     an attachment of a program to a hook
 *   bsdk_perfbuf_*  the per-CPU consumer of a BPF_MAP_TYPE_PERF_EVENT_ARRAY
 *   bsdk_ringbuf_*  the consumer of a BPF_MAP_TYPE_RINGBUF
 *
 * Errors: int functions return 0 (or a count) or a negative errno; pointer
 * functions return NULL and set errno. Besides errno values there are the
 * BSDK_E* codes below; bsdk_strerror() names both, and the kernel's ENOTSUPP
 * (524), which libc's strerror() does not know. Before a function fails,
 * a message saying why goes through the log hook (bsdk_set_log()); the
 * library itself never prints. Types are opaque.
 *
 * Threads: as with libbpf, any number of threads may use the library at
 * once, each on objects of its own (a bsdk_obj with its programs, maps,
 * links, and a bsdk_perfbuf or bsdk_ringbuf): what they share inside the
 * library - the kernel's BTF, its configuration, what was probed of the
 * kernel - is locked or set once. One object, or one consumer, used from
 * two threads at the same time needs the caller's lock, except the map
 * element calls (bsdk_map_lookup_elem() ...), system calls on the map's fd
 * that any thread may make once the object is loaded. The log function and
 * level (bsdk_set_log(), bsdk_set_log_level()) are the process's: set them
 * before other threads use the library. The log function is called in the
 * thread whose call logs, by several threads at once if they log at once.
 * The poll loop's signal flag (bsdk_signals_catch()) is the process's too.
 */
#ifndef BPFSDK_H
#define BPFSDK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with -fvisibility=hidden: what this header declares is its API, and
 * only that is visible outside it (see loader/loader.mk). */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

/* ------------------------------------------------------------------ errors */

/* Project error codes, above the range of the system's errno values. */
enum bsdk_error {
	BSDK_EFORMAT = 4001,   /* the object is not a valid BPF ELF file */
	BSDK_ESECTION,         /* a section name the loader does not know */
	BSDK_ERELO,            /* a relocation that cannot be applied */
	BSDK_EBTF,             /* malformed BTF */
	BSDK_EVERIFIER,        /* the kernel verifier rejected a program */
	BSDK_ENOPROBE,         /* the probe point does not exist on this kernel */
	BSDK_ENOTSUPP,         /* the running kernel lacks the feature */
	BSDK_ERROR_MAX,
};

/* Name an error: accepts a negative or positive errno or BSDK_E* code. The
 * string is static and never NULL. */
const char *bsdk_strerror(int err);

/* ----------------------------------------------------------------- logging */

enum bsdk_log_level {
	BSDK_LOG_ERROR = 0,  /* something failed; the caller gets an error code */
	BSDK_LOG_WARN,       /* suspicious but not fatal */
	BSDK_LOG_INFO,       /* what the library did, for -v */
	BSDK_LOG_DEBUG,      /* every step, for -vv */
};

/* Receives each message, one line without a trailing newline. An error told
 * in several lines (a verifier rejection: the end of its log, the C line it
 * stopped at) is one message naming what failed, then lines that begin with
 * two spaces, at error level too: its detail, not errors of their own. A
 * warning's detail lines (a rejected program left out) follow it the same
 * way, at warning level. */
typedef void (*bsdk_log_fn)(enum bsdk_log_level level, const char *msg, void *ctx);

/* Send the library's messages to fn (NULL restores the default, which writes
 * "error: ", "warning: " or nothing before the message to stderr; nothing
 * before an error's or a warning's detail lines). */
void bsdk_set_log(bsdk_log_fn fn, void *ctx);

/* Messages above this level are dropped before formatting. Default:
 * BSDK_LOG_WARN. Returns the previous level. */
enum bsdk_log_level bsdk_set_log_level(enum bsdk_log_level level);

/* -------------------------------------------------------------- the system */

/* Number of possible CPUs (/sys/devices/system/cpu/possible): the size of
 * per-CPU maps and of a PERF_EVENT_ARRAY with a slot per CPU. Or -errno. */
int bsdk_cpu_possible_count(void);

/* Whether CPU cpu is online now; true when /sys/devices/system/cpu/online cannot be read, so
 * that nothing is skipped on a guess (the kernel refuses a perf event on an offline CPU with
 * ENODEV). */
bool bsdk_cpu_is_online(int cpu);

/* Mount tracefs on /sys/kernel/tracing and bpffs on /sys/fs/bpf when they
 * are not mounted yet. 0 or negative errno. */
int bsdk_mount_fs(void);

/* Try to lift RLIMIT_MEMLOCK for kernels that charge BPF memory to it.
 * Kernels with memcg accounting refuse or ignore this, which is harmless. */
void bsdk_bump_memlock(void);

/* Write "<directory of the running executable>/<relative>" into buf (e.g.
 * relative "../bpf/NAME.bpf.o": the object built beside the program). 0,
 * -ENAMETOOLONG when it does not fit in size bytes, or -errno. */
int bsdk_path_beside_exe(char *buf, size_t size, const char *relative);

/* Write the len bytes at s to f as one JSON string, quotes included: \" and
 * \\, \n and \t, other control bytes (and 0x7f) as \u00XX, valid UTF-8 as
 * it is, every other byte as \udcXX (which Python's os.fsencode() turns back
 * into the byte). For tools that print what BPF programs read - paths,
 * names, arguments - as JSON Lines; the one policy of every JSON the
 * library and bpfsdk write (docs/bpfsdk-run.md, "Strings in JSON"). */
void bsdk_json_string(FILE *f, const void *s, size_t len);

/* ------------------------------------------------------------------ object */

struct bsdk_obj;
struct bsdk_prog;
struct bsdk_map;
struct bsdk_link;

/* Open the ELF object at path: parse sections, symbols, license, version,
 * BTF, maps and programs, and check every relocation. Nothing is created in
 * the kernel yet. NULL with errno on failure; the log says why: the open()
 * errno, EISDIR or EINVAL for what is not a regular file, BSDK_EFORMAT for
 * what is not an ELF file (nothing more of it is read), E2BIG for a file
 * over 512 MiB. The file is read once, into the memory the object keeps. */
struct bsdk_obj *bsdk_obj_open(const char *path);

/* The same from memory. name is used in messages (may be NULL). The buffer
 * is copied; the caller may free it after the call. */
struct bsdk_obj *bsdk_obj_open_mem(const void *buf, size_t size, const char *name);

/* Options for opening an object. Zero-initialise, set sz = sizeof(struct bsdk_obj_open_opts);
 * fields are only appended, so an older, smaller struct keeps working. */
struct bsdk_obj_open_opts {
	size_t sz;
	/* The kernel BTF to resolve CO-RE relocations and BTF-typed attach points against, for
	 * kernels without /sys/kernel/btf/vmlinux (e.g. a file shipped beside the program, or
	 * one for another kernel, to inspect). NULL: the running kernel's, with its modules'. */
	const char *btf_path;
};

/* bsdk_obj_open() and bsdk_obj_open_mem() with options; opts may be NULL (the defaults).
 * Strings in opts are copied. A btf_path that cannot be read or is not BTF fails the open
 * (its error logged), whether or not the object needs it. NULL with errno, EINVAL for opts
 * with unknown fields set. */
struct bsdk_obj *bsdk_obj_open_opts(const char *path, const struct bsdk_obj_open_opts *opts);
struct bsdk_obj *bsdk_obj_open_mem_opts(const void *buf, size_t size, const char *name,
					const struct bsdk_obj_open_opts *opts);

/* Load the object's BTF into the kernel (rewriting kinds the running kernel lacks; if it takes
 * none, warn and go on without), create the maps, relocate and load every program whose
 * autoload is on, with its BTF func and line info. On failure nothing stays loaded. 0 or
 * negative errno; a verifier rejection is -BSDK_EVERIFIER, with the end of the verifier's log
 * and the C file:line where it stopped logged at error level (and, for a program the verifier
 * gave up on at its million instructions, a hint: a loop it cannot bound). A rejected program
 * goes through the verifier twice at most: once without a log, once with a log sized at once
 * (the kernel keeps a log's end since Linux 6.4; before, the buffer is made large enough to
 * hold it all). -EINTR when a signal arrived while the verifier ran (it stops at once then) or
 * between its runs (bsdk_signals_caught()), so a tool can be interrupted during a slow load. */
int bsdk_obj_load(struct bsdk_obj *obj);

/* Remove the pins bsdk_obj_load() created for maps pinned by name (the pins it reused stay),
 * e.g. when a tool that made them stops. A failed load removes them itself. 0 or negative errno
 * of the first unlink that failed (logged); NULL-safe. */
int bsdk_obj_unpin(struct bsdk_obj *obj);

/* Destroy links created through the object, close every fd, free all. */
void bsdk_obj_close(struct bsdk_obj *obj);

const char *bsdk_obj_name(const struct bsdk_obj *obj);
/* The "license" section's string ("" when absent). */
const char *bsdk_obj_license(const struct bsdk_obj *obj);
/* The "version" section's value, 0 when absent. */
uint32_t bsdk_obj_kversion(const struct bsdk_obj *obj);
/* Whether the object carries a .BTF section. */
bool bsdk_obj_has_btf(const struct bsdk_obj *obj);

/* Iterate: pass NULL for the first, the previous one for the next. */
struct bsdk_prog *bsdk_obj_prog_next(const struct bsdk_obj *obj, const struct bsdk_prog *prev);
struct bsdk_map *bsdk_obj_map_next(const struct bsdk_obj *obj, const struct bsdk_map *prev);

/* Find by name (the C function name / the map variable name); NULL with
 * errno ENOENT when absent. */
struct bsdk_prog *bsdk_obj_prog_find(const struct bsdk_obj *obj, const char *name);
struct bsdk_map *bsdk_obj_map_find(const struct bsdk_obj *obj, const char *name);

/* Set the initial value of the global variable name (in .rodata, .data or .bss) before
 * bsdk_obj_load(): how user space configures a `const volatile` knob the program reads. size
 * must equal the variable's size. 0, -ENOENT when there is no such variable, -EINVAL on a size
 * mismatch, -EBUSY after load. */
int bsdk_obj_set_global(struct bsdk_obj *obj, const char *name, const void *value, size_t size);

/* The size in bytes of the global variable name, or -ENOENT. */
int bsdk_obj_global_size(const struct bsdk_obj *obj, const char *name);

/* How many instructions of the object refer to the global variable name (load its address),
 * or -ENOENT. 0 for a knob in .rodata means the compiler folded its value into the code: it
 * was declared `const`, not `const volatile`, and setting it changes nothing. */
int bsdk_obj_global_readers(const struct bsdk_obj *obj, const char *name);

/* A pointer to the global variable name, its size in *size (may be NULL): how user space reads
 * the program's counters without a system call (loader/ext/maps/globals.c).
 *
 * Before bsdk_obj_load() it points into the initial value that load writes into the map:
 * writing through it is bsdk_obj_set_global() without the copy. After a load, it points into
 * the map itself, mapped into this process: the kernel creates .data, .bss and .rodata maps
 * with BPF_F_MMAPABLE (5.5+), so a store of the program is seen by the next read here and
 * the other way round. .rodata is frozen at load and mapped read-only: writing to it after
 * load is a segmentation fault. The pointer is valid until bsdk_obj_close() (and changes at
 * load: take it again). Read what the program updates concurrently as `volatile` or with
 * __atomic_load_n().
 *
 * NULL with errno: ENOENT when there is no such variable, EOPNOTSUPP after load when the kernel
 * could not map the section (before 5.5; read it with bsdk_map_lookup_elem() on the section's
 * map, key 0). */
void *bsdk_obj_global_ptr(const struct bsdk_obj *obj, const char *name, size_t *size);

/* The whole value of a global data map (origin ".rodata", ".data", ".bss" or another data
 * section), in *size its size (may be NULL), with the same rules as bsdk_obj_global_ptr(): the
 * initial value before load, the mapped map after. NULL with errno EINVAL for a map that does
 * not hold global variables, EOPNOTSUPP after load without BPF_F_MMAPABLE. */
void *bsdk_map_global_data(const struct bsdk_map *map, size_t *size);

/* For generated skeletons (`bpfsdk gen skeleton`): the object opened lacks the map or program
 * (what: "map", "program") called name that the skeleton was generated with. Logs the error
 * and returns -ENOENT, errno set. */
int bsdk_obj_skeleton_mismatch(const struct bsdk_obj *obj, const char *what, const char *name);

/* One global variable of a global data map, from the object's BTF (the section's DATASEC). */
struct bsdk_global_info {
	const char *name;      /* lives as long as the object */
	uint32_t offset;       /* bytes from the start of the section */
	uint32_t size;
	uint32_t btf_type_id;  /* its type in bsdk_obj_btf() (qualifiers included) */
	bool is_static;        /* `static`: not visible to other objects, names may repeat */
	bool is_volatile;      /* declared volatile, as a `const volatile` knob is */
};

/* Fill *info with variable i (0, 1, ...) of the global data map map, in the order of their
 * offsets: how `bpfsdk gen skeleton` lays out a section as a struct. 0; -ERANGE past the last;
 * -EINVAL when map holds no global variables; -ENOENT when the object has no BTF for it. */
int bsdk_map_global_var(const struct bsdk_map *map, size_t i, struct bsdk_global_info *info);

/* ------------------------------------------------------------------ externs */

/*
 * The object's extern declarations, which the loader fills from the running kernel at
 * bsdk_obj_load(): __kconfig variables (LINUX_KERNEL_VERSION, LINUX_HAS_BPF_COOKIE,
 * LINUX_HAS_SYSCALL_WRAPPER, CONFIG_* from /proc/config.gz or /boot/config-$(uname -r)), held
 * in the read-only map ".kconfig"; __ksym variables (typed: by kernel BTF; const void: the
 * address in /proc/kallsyms); and __ksym functions, kfuncs, by their BTF ID in vmlinux or a
 * module. Load fails, naming each, when a non-__weak extern cannot be resolved; a weak one
 * reads as 0 and calls of a missing weak kfunc fail verification only where reachable.
 */
enum bsdk_extern_kind {
	BSDK_EXTERN_KCONFIG,
	BSDK_EXTERN_KSYM,
	BSDK_EXTERN_KFUNC,
};

struct bsdk_extern_info {
	const char *name;
	enum bsdk_extern_kind kind;
	const char *kind_name;		/* "kconfig", "ksym", "kfunc" */
	bool weak;
	bool typed;			/* found through kernel BTF (typed ksyms, kfuncs) */
	bool resolved;			/* the running kernel has it, with a fitting value */
	const char *value;		/* in words: what it resolved to ("0x61200 (6.18.0)",
					 * "y", "btf id 1234"), "absent (weak: 0)", or, when it
					 * cannot be resolved, why ("not found in kernel BTF") */
	uint32_t kconfig_offset;	/* KCONFIG: where it lives in the .kconfig map's value */
	uint32_t size;			/* KCONFIG: its size in bytes */
};

/* Number of externs the object's programs use. */
size_t bsdk_obj_extern_count(const struct bsdk_obj *obj);
/* Fill *info with extern i. Before load, this resolves the externs against the running kernel
 * (reads its configuration, /proc/kallsyms and BTF; no bpf() call), once. The strings live as
 * long as the object. 0, -ERANGE for i past the count, or -errno when resolving fails as a
 * whole (no memory). */
int bsdk_obj_extern(const struct bsdk_obj *obj, size_t i, struct bsdk_extern_info *info);

/* ------------------------------------------------------------------ program */

const char *bsdk_prog_name(const struct bsdk_prog *prog);
const char *bsdk_prog_section(const struct bsdk_prog *prog);
/* enum bpf_prog_type chosen from the section name. */
int bsdk_prog_type(const struct bsdk_prog *prog);
/* enum bpf_attach_type the section name selects, given to BPF_PROG_LOAD as its expected attach
 * type (BPF_TRACE_FENTRY for fentry/, BPF_TRACE_ITER for iter/, ...); 0 for kinds that need
 * none. */
int bsdk_prog_expected_attach_type(const struct bsdk_prog *prog);
/* Readable name of the type, e.g. "tracepoint". */
const char *bsdk_prog_type_name(const struct bsdk_prog *prog);
/* What the section name says to attach to, e.g. "syscalls/sys_enter_write"
 * for "tracepoint/syscalls/sys_enter_write"; "" when nothing. */
const char *bsdk_prog_attach_target(const struct bsdk_prog *prog);
/* Instructions in the program's own section (no subprograms appended). */
size_t bsdk_prog_insn_count(const struct bsdk_prog *prog);
/* The fd after bsdk_obj_load(), -1 before or when not loaded. */
int bsdk_prog_fd(const struct bsdk_prog *prog);
/* Choose before bsdk_obj_load() whether this program is loaded (default: true), e.g. to load
 * only the variant of a program (kprobe or tracepoint) the running kernel supports. */
int bsdk_prog_set_autoload(struct bsdk_prog *prog, bool autoload);
bool bsdk_prog_autoload(const struct bsdk_prog *prog);

/* Attach the loaded program where its section name says. The caller owns the link;
 * bsdk_obj_close() destroys links not yet destroyed. NULL with errno: BSDK_ENOPROBE when the
 * probe point does not exist, BSDK_ENOTSUPP when the kernel lacks that kind of probe (e.g. no
 * kprobes), each with a message naming the target. */
struct bsdk_link *bsdk_prog_attach(struct bsdk_prog *prog);

/* bsdk_prog_attach() of n programs in the order given, links[i] the link of progs[i]: the
 * order is the tool's, e.g. an exit program before its entry, so that no entry is kept for an
 * exit nobody watches yet (bsdk_perfbuf_run_detach() destroys them the last first). 0, or the
 * first failure's negative errno (said by bsdk_prog_attach(); -EINVAL for a NULL program or
 * array), the links made until then left in links for the caller, or bsdk_obj_close(), to
 * destroy. */
int bsdk_progs_attach(struct bsdk_prog *const *progs, size_t n, struct bsdk_link **links);

/* Attach somewhere else than the section name says, in the same syntax as what follows its
 * prefix: "PATH:SYMBOL[+OFFSET]" for a uprobe whose binary is known only at run time,
 * "FUNC[+OFFSET]" for a kprobe, "CATEGORY/NAME" for a tracepoint. Any time before
 * bsdk_prog_attach() (before bsdk_obj_load() for tp_btf, fentry, fexit, fmod_ret, lsm and iter
 * programs, whose target the kernel takes at load); the string is copied, and bsdk_prog_attach_target() returns it from
 * then on. 0, or -EINVAL (NULL or empty target, or a kind such as perf_event that takes
 * none), -ENOMEM. */
int bsdk_prog_set_attach_target(struct bsdk_prog *prog, const char *target);

/* Whether the running kernel can attach this program's kind of probe
 * (kprobes: /sys/kernel/tracing/kprobe_events or the kprobe PMU exist). */
bool bsdk_prog_attach_supported(const struct bsdk_prog *prog);

/* Detach and free. NULL is ignored. */
void bsdk_link_destroy(struct bsdk_link *link);

/* ---- running a loaded program on input you give (BPF_PROG_TEST_RUN), to unit-test BPF code
 * without the event it normally runs on (loader/ext/maps/prog_test_run.c). Program types the
 * kernel can run this way include socket filters ("socket": data is a packet with its Ethernet
 * header, ctx a struct __sk_buff), raw tracepoints ("raw_tp/": ctx only, the u64 arguments; no
 * data, no repeat), XDP, tc and syscall programs; tracepoints, kprobes and perf_event programs
 * cannot. */
struct bsdk_test_run_opts {
	size_t sz;               /* sizeof(opts): fields are only appended */
	const void *data_in;     /* the input packet or data; may be NULL */
	uint32_t data_size_in;
	uint32_t data_size_out;  /* in: the room in data_out; out: the bytes the run produced */
	void *data_out;          /* may be NULL */
	const void *ctx_in;      /* the program's context (e.g. struct __sk_buff); may be NULL */
	uint32_t ctx_size_in;
	uint32_t ctx_size_out;   /* in: the room in ctx_out; out: the size written */
	void *ctx_out;           /* may be NULL */
	uint32_t repeat;         /* run it this many times (0 and 1: once) */
	uint32_t flags;          /* BPF_F_TEST_RUN_ON_CPU, BPF_F_TEST_XDP_LIVE_FRAMES */
	uint32_t cpu;            /* with BPF_F_TEST_RUN_ON_CPU */
	uint32_t retval;         /* out: what the program returned (on the last run) */
	uint32_t duration;       /* out: average time of one run, in ns (0 where not measured) */
};

/* Run the loaded program prog on opts' input and fill in its outputs. 0 when it ran (its
 * result is opts->retval), or negative errno with a message: -EBADF when prog is not loaded,
 * -EOPNOTSUPP when the kernel cannot test-run programs of its type, -ENOSPC when the output is
 * larger than data_out (opts->data_size_out says how large), -EINVAL for input the kernel
 * refuses for this type (e.g. repeat or data for a raw tracepoint), or what the kernel
 * returned. */
int bsdk_prog_test_run(const struct bsdk_prog *prog, struct bsdk_test_run_opts *opts);

/* The link's fd: the BPF link, or the perf event when the kernel had no BPF link for it. */
int bsdk_link_fd(const struct bsdk_link *link);

/* The newest link of prog not yet destroyed (made by bsdk_prog_attach(), bsdk_obj_attach_all()
 * or the calls below), or NULL with errno ENOENT. The object still owns it. */
struct bsdk_link *bsdk_prog_link(const struct bsdk_prog *prog);

/* For an iterator's link (section iter/NAME, e.g. iter/task): open a new run of the iterator,
 * an fd whose read(2) returns what the program writes with bpf_seq_printf() / BPF_SEQ_PRINTF(),
 * until read returns 0 at the end. The caller closes it; each call starts over. The fd, or a
 * negative errno (-EINVAL: not an iterator link) with a message. */
int bsdk_link_iter_create(const struct bsdk_link *link);

/* ---- attaching where the section name does not say */

/* Attach a loaded uprobe program (section uprobe, uretprobe, uprobe.s, ...: with or without a
 * target of its own) to the binary or library at path: at function func plus offset bytes, or,
 * with func NULL, at file offset offset. retprobe chooses a uretprobe (at the function's
 * return) over a uprobe; pid -1 probes every process, else only process pid. The caller owns
 * the link (as with bsdk_prog_attach()). NULL with errno: EINVAL for a program that is not a
 * uprobe or a NULL/empty path, BSDK_ENOPROBE when func is not a function symbol of path,
 * ESRCH when there is no process pid, BSDK_ENOTSUPP without uprobe support. */
struct bsdk_link *bsdk_prog_attach_uprobe(struct bsdk_prog *prog, bool retprobe, int pid,
					  const char *path, const char *func, uint64_t offset);

/* Attach a loaded USDT program (section usdt, with or without a target of its own) to every
 * site of the USDT probe provider:name in the binary or library at path (its .note.stapsdt
 * notes), raising the probe's semaphore if it has one; pid -1 probes every process, else only
 * process pid. Each site gets the argument spec its note describes in the object's
 * __bpf_usdt_specs map (usdt.bpf.h), and bpf_usdt_cookie() returns cookie there. One link holds
 * all the sites. NULL with errno: EINVAL for a program that is not USDT or missing names,
 * BSDK_ENOPROBE when path has no such probe, BSDK_ESECTION when the object lacks the spec map,
 * EOPNOTSUPP for an argument spec the loader cannot express, BSDK_ENOTSUPP without uprobes. */
struct bsdk_link *bsdk_prog_attach_usdt(struct bsdk_prog *prog, int pid, const char *path,
					const char *provider, const char *name, uint64_t cookie);

/* Attach a loaded program (section perf_event, or a kprobe or tracepoint program) to the perf
 * event perf_fd the caller opened with perf_event_open(2), e.g. a CPU-clock sampling event, and
 * enable the event. The link holds its own duplicate of perf_fd: the caller still owns and
 * closes perf_fd. NULL with errno: EINVAL for a program type that cannot take a perf event,
 * EBADF for a negative fd, or what the kernel returned. */
struct bsdk_link *bsdk_prog_attach_perf_event(struct bsdk_prog *prog, int perf_fd);

/* Attach a loaded perf_event program (section perf_event) to a CPU-clock sampling event on every
 * online CPU, each firing freq times a second on its CPU whatever runs there (perf_event_open(2)
 * with PERF_COUNT_SW_CPU_CLOCK, freq = 1), the way profilers sample (perf record -F freq). Each
 * CPU's event gets a link, owned by the object as with bsdk_prog_attach() (bsdk_obj_close()
 * detaches them); links, when not NULL, receives the first max of them and NULL after the
 * last, for a caller that detaches sooner (bsdk_link_destroy() on each): max =
 * bsdk_cpu_possible_count() is always enough. All or nothing: the number of CPUs attached, or
 * -errno with none attached and the reason logged: -EINVAL for a program that is not
 * perf_event, a freq of 0 or one above kernel.perf_event_max_sample_rate, -EACCES or -EPERM
 * without CAP_PERFMON, -EMFILE at the open files limit, or what the kernel returned. */
int bsdk_prog_attach_sampling(struct bsdk_prog *prog, unsigned int freq, struct bsdk_link **links,
			      int max);

/* ---- attach policy: attach every program the kernel can, leave out the rest */

enum bsdk_attach_flags {
	/* Any program that cannot be attached is an error, not a warning; so is
	 * a verifier rejection. */
	BSDK_ATTACH_REQUIRE_ALL = 1u << 0,
	/* Attach every twin (see bsdk_prog_twin_next()), not one of each group. */
	BSDK_ATTACH_ALL_TWINS = 1u << 1,
};

/* Twins: programs of one object that see the same event through different kinds of hook, of
 * which a tool loads one, the best its kernel supports (libbpf-tools turn the others off with
 * bpf_program__set_autoload()). The groups: a kernel function's entry through fentry/FUNC,
 * fmod_ret/FUNC (rank 0), ksyscall/NAME (1), kprobe/FUNC or kprobe/FUNC+0 (2); its return
 * through fexit (0), kretsyscall (1), kretprobe (2); a tracepoint through tp_btf/NAME (0),
 * raw_tp/NAME or raw_tracepoint/NAME (1), tracepoint/CAT/NAME or tp/CAT/NAME (2). A system
 * call's entry symbol is one function whatever its architecture prefix: ksyscall/openat,
 * kprobe/__x64_sys_openat and fentry/__arm64_sys_openat are twins. Programs of one kind on
 * one hook are in the group together but are not twins of each other: they go, or stay,
 * together. */

/* prog's rank in its group of twins (0 goes first), or -ENOENT when its kind or its hook has
 * none (a kprobe at an offset, a uprobe without PATH:FUNCTION, ...); a uprobe or uretprobe on
 * PATH:FUNCTION is of rank 0 in a group of its kind alone. Whether it has a twin:
 * bsdk_prog_twin_next(). */
int bsdk_prog_twin_rank(const struct bsdk_prog *prog);

/* The next program of prog's group of twins after prev (NULL: the first), prog itself left
 * out; NULL with errno ENOENT at the end, or when no other kind of hook shares the group. */
struct bsdk_prog *bsdk_prog_twin_next(const struct bsdk_prog *prog, const struct bsdk_prog *prev);

/* Entry and exit: the group of a function's entry (fentry, ksyscall, kprobe; a user
 * function's uprobe) and the group of its exit (fexit, kretsyscall, kretprobe; uretprobe) are
 * a pair when a program of one kind in each uses a map the other uses too, itself or in a
 * subprogram it calls (a kprobe saving what its kretprobe reads); the attach policy then
 * takes for both the best kind both can attach, so that the pair attaches whole. prog's
 * partner: the program of the same rank in the other group that shares a map with it (*map,
 * may be NULL); NULL with errno ENOENT when there is none. */
struct bsdk_prog *bsdk_prog_twin_partner(const struct bsdk_prog *prog,
					 const struct bsdk_map **map);

/* Whether bsdk_obj_attach_all() would attach prog on this kernel, as far as can be known
 * before loading: its kind has an attach point of its own (not perf_event, socket, tc, xdp, a
 * uprobe without PATH:FUNCTION), the kernel can attach that kind, and its tracepoint, BTF target
 * or kprobe function (in /proc/kallsyms) exists; for BTF-typed kinds (tp_btf, fentry, lsm,
 * iter, ...) an empty program of the kind is loaded at the target, so a kernel that refuses the
 * kind says so here. 0, or a negative errno with the reason, one line, in why (size bytes):
 * -EOPNOTSUPP (load-only kind, probe without a target), -BSDK_ENOTSUPP (the kernel lacks the
 * kind), -BSDK_ENOPROBE (no such target), or the kernel's errno when it refuses the kind
 * (-EPERM). Logs nothing. */
int bsdk_prog_attach_check(struct bsdk_prog *prog, char *why, size_t size);

/* Before bsdk_obj_load(): turn autoload off for each program bsdk_prog_attach_check() finds
 * cannot be attached here, with one warning line each, "'OBJ': program 'P' (section 'S'):
 * left out: WHY", so that none goes through the verifier in vain. With
 * BSDK_ATTACH_REQUIRE_ALL the first such program is an error instead (logged; its negative
 * errno returned). Of each group of twins among the programs whose autoload is on, only those
 * of the best rank that passes the check stay on (unless BSDK_ATTACH_ALL_TWINS); the others
 * are left out with one line each at BSDK_LOG_INFO, and kept as spares: one stands in when the
 * chosen program is rejected by the verifier (bsdk_obj_attach_load()) or cannot be attached
 * (bsdk_obj_attach_all()). A twin of a better rank that fails the check is said at
 * BSDK_LOG_INFO too, when a twin is used instead. Returns the number of programs still to
 * load (0: none could be attached), -EBUSY after load. */
int bsdk_obj_attach_prepare(struct bsdk_obj *obj, unsigned int flags);

/* bsdk_obj_load() as the attach policy does it: a program the verifier rejects is left out
 * with one warning, "'OBJ': program 'P' (section 'S'): left out: rejected by the verifier:
 * REASON", its detail lines (two spaces first) the C line it stopped at and any CO-RE or kfunc
 * explanation, the whole log at BSDK_LOG_DEBUG; a twin the prepare step kept as a spare is
 * loaded in its place; the other programs load. Any other failure fails the load, as
 * bsdk_obj_load(), and nothing stays loaded. With BSDK_ATTACH_REQUIRE_ALL it is
 * bsdk_obj_load(): a rejection is an error. Returns the number of programs loaded (0 when the
 * verifier rejected every one; the object is loaded all the same: its maps exist), or a
 * negative errno. */
int bsdk_obj_attach_load(struct bsdk_obj *obj, unsigned int flags);

/* Attach every loaded program where its section name says: open -> load -> attach all -> poll
 * -> clean up. When obj is not loaded yet, bsdk_obj_attach_prepare() and bsdk_obj_attach_load()
 * run first. When a program cannot be attached, a spare twin (bsdk_obj_attach_prepare()) is
 * loaded and attached in its place. A program that cannot be attached (its function is missing, the kernel refuses) is
 * left out with one warning line naming the object, the program and why; with
 * BSDK_ATTACH_REQUIRE_ALL it is an error: logged, the links made so far stay with the object,
 * and its negative errno is returned. Programs the caller did not load, or attached already
 * (e.g. a perf_event program to an event of its own), are skipped. Returns the
 * number of programs attached (0 when none could be), or a negative errno; the links belong
 * to the object (bsdk_obj_close() destroys them). */
int bsdk_obj_attach_all(struct bsdk_obj *obj, unsigned int flags);

/* How many of obj's programs hold a link now (made by bsdk_obj_attach_all(),
 * bsdk_obj_attach_skeleton(), bsdk_prog_attach() or the other attach calls): after a
 * skeleton's NAME__attach(), the number it attached. */
int bsdk_obj_attached_count(const struct bsdk_obj *obj);
/* Whether bsdk_obj_attach_all() (or a skeleton's attach) attached prog. */
bool bsdk_prog_attached(const struct bsdk_prog *prog);

/* libbpf's skeleton contract for NAME__attach() (bpf_object__attach_skeleton()):
 * bsdk_obj_attach_all(obj, 0), then 0 when the programs it should attach are attached, so that
 * `err = NAME__attach(skel); if (err) goto cleanup;` reads as with libbpf. Which count: a
 * program the attach policy leaves out (the kernel cannot attach its kind, its tracepoint or
 * function is missing, it is load-only: perf_event, xdp, a uprobe without PATH:FUNCTION) is a
 * warning, not an error, as long as another program is attached; nothing attached at all is
 * the error: logged ("'OBJ': no program attached: ..."), and the errno of the last program
 * left out returned (-BSDK_ENOPROBE when none was tried, -ENOENT for an object without
 * programs). Other errors as bsdk_obj_attach_all(). bsdk_obj_attached_count() gives the
 * count. */
int bsdk_obj_attach_skeleton(struct bsdk_obj *obj);

/* Destroy the links bsdk_obj_attach_all() (or a skeleton's NAME__attach()) made, without
 * closing anything else: the programs stay loaded and the maps stay, so that a final drain of
 * a perf or ring buffer after detaching reads what the programs wrote up to then, and nothing
 * after. Links the caller made itself (bsdk_prog_attach(), ...) are the caller's to destroy
 * and stay. The programs can be attached again. Returns how many links were destroyed. */
int bsdk_obj_detach_all(struct bsdk_obj *obj);

/* ---- what `bpfsdk inspect` shows of a program. Opening links each program once (its .text
 * subprograms appended, as load will do), so these describe the program the kernel gets. */

/* Instructions after linking: its own, then each .text subprogram it calls, even indirectly. */
size_t bsdk_prog_linked_insn_count(const struct bsdk_prog *prog);

/* BTF func_info and line_info records (from .BTF.ext) that load passes to the kernel with the
 * program; 0 without BTF. line_info is what lets the verifier's log show C source lines. */
size_t bsdk_prog_func_info_count(const struct bsdk_prog *prog);
size_t bsdk_prog_line_info_count(const struct bsdk_prog *prog);

enum bsdk_relo_kind {
	BSDK_RELO_MAP,   /* ld_imm64 of a map: becomes the map's fd */
	BSDK_RELO_DATA,  /* ld_imm64 of a global variable: its data map + offset */
	BSDK_RELO_CALL,  /* call of a .text subprogram */
	BSDK_RELO_FUNC,  /* ld_imm64 of a .text function's address (callbacks) */
	BSDK_RELO_KSYM,  /* ld_imm64 of a __ksym variable or kfunc: its kernel BTF ID or address */
	BSDK_RELO_KFUNC, /* call of a __ksym function (kfunc): its kernel BTF ID */
	BSDK_RELO_UNDECLARED, /* call of a function nothing declares (not a helper, not __ksym): a
	                       * misspelled helper or a missing include; the program does not load */
};

struct bsdk_relo_info {
	enum bsdk_relo_kind kind;
	const char *kind_name;         /* "map", "data", "call", "func", "ksym", "kfunc",
	                                * "undeclared" */
	size_t insn;                   /* instruction in the linked program */
	const char *symbol;            /* the ELF symbol it refers to */
	const struct bsdk_map *map;    /* MAP, DATA; NULL otherwise */
	uint64_t offset;               /* DATA: byte offset in the map value */
	size_t target;                 /* CALL, FUNC: where the callee starts; KSYM, KFUNC: the
	                                * extern's index for bsdk_obj_extern() */
};

/* The relocations applied to the linked program, by instruction. */
size_t bsdk_prog_relo_count(const struct bsdk_prog *prog);
/* Fill *info with relocation i (its strings and map live as long as the object). 0, or -ERANGE. */
int bsdk_prog_relo(const struct bsdk_prog *prog, size_t i, struct bsdk_relo_info *info);

/* ---- CO-RE relocations (.BTF.ext core_relo): what clang recorded for each access to a type
 * marked preserve_access_index (vmlinux.h's), and what it became against the kernel's BTF. */

/* What a relocation asks: the kernel's enum bpf_core_relo_kind. */
enum bsdk_core_kind {
	BSDK_CORE_FIELD_BYTE_OFFSET = 0,  /* where the field is */
	BSDK_CORE_FIELD_BYTE_SIZE,        /* its size (for bitfields: of the load that holds it) */
	BSDK_CORE_FIELD_EXISTS,           /* 1 or 0 */
	BSDK_CORE_FIELD_SIGNED,           /* 1 or 0 */
	BSDK_CORE_FIELD_LSHIFT_U64,       /* bitfields: shifts that extract it from a u64 */
	BSDK_CORE_FIELD_RSHIFT_U64,
	BSDK_CORE_TYPE_ID_LOCAL,          /* the type's ID in the object's BTF */
	BSDK_CORE_TYPE_ID_TARGET,         /* ... in the kernel's */
	BSDK_CORE_TYPE_EXISTS,            /* 1 or 0 */
	BSDK_CORE_TYPE_SIZE,
	BSDK_CORE_ENUMVAL_EXISTS,         /* 1 or 0 */
	BSDK_CORE_ENUMVAL_VALUE,
	BSDK_CORE_TYPE_MATCHES,           /* 1 or 0: the kernel's type has the local one's shape */
};

enum bsdk_core_state {
	BSDK_CORE_UNRESOLVED,  /* no kernel BTF to resolve against: load fails */
	BSDK_CORE_RESOLVED,    /* value is what the kernel's BTF says */
	BSDK_CORE_POISONED,    /* nothing in the kernel's BTF satisfies it: the instruction became an
			        * invalid call, so the verifier refuses the program if it can run */
	BSDK_CORE_ERROR,       /* cannot be applied (e.g. candidates that disagree): load fails */
};

struct bsdk_core_relo_info {
	enum bsdk_core_kind kind;
	const char *kind_name;        /* "field_byte_offset", ... */
	size_t insn;                  /* instruction in the linked program */
	const char *access;           /* clang's access string, "0:1:2" */
	const char *spec;             /* what it reads: "task_struct___mine.real_parent.tgid",
				       * "struct foo", "enum pid_type::PIDTYPE_TGID" */
	uint64_t local_value;         /* the value the object's own BTF gives */
	enum bsdk_core_state state;
	uint64_t value;               /* RESOLVED: the value patched in */
	uint32_t target_type_id;      /* the kernel type it matched, 0 when none */
	const char *target_type;      /* its name, "" when none */
	const char *note;             /* POISONED, ERROR, UNRESOLVED: why; "" otherwise */
};

/* The CO-RE relocations of the linked program, by instruction. */
size_t bsdk_prog_core_relo_count(const struct bsdk_prog *prog);
/* Fill *info with CO-RE relocation i (strings live as long as the object). 0, or -ERANGE. */
int bsdk_prog_core_relo(const struct bsdk_prog *prog, size_t i, struct bsdk_core_relo_info *info);

/* ---- a minimal BTF: what objects' CO-RE relocations read of a kernel's BTF (gen min-btf) */

struct bsdk_min_btf_stats {
	size_t types;         /* types written */
	size_t bytes;         /* the file's size */
	size_t source_types;  /* types of the source BTF */
	size_t relos;         /* CO-RE relocations served (bpf_core_type_id_local()'s need nothing) */
};

/* Write to path the part of the kernel BTF objs were opened against (their btf_path, the
 * same for all, or the running kernel's) that their CO-RE relocations read: the types each
 * resolution went through, a struct with only the members accessed (at their offsets, with
 * its size), under their names. Opened with that file as btf_path, each relocation resolves
 * to the same value. BTF attach points (tp_btf, fentry, lsm...) are not in it: they name the
 * kernel's own type IDs, which the file renumbers, and a kernel without BTF cannot load such
 * programs at all. 0, or -errno: BSDK_ENOTSUPP for a relocation a minimal BTF cannot serve
 * (bpf_core_type_id_kernel(), a module's type), BSDK_EBTF for one that did not resolve
 * against the source; *stats (may be NULL) filled on success. */
int bsdk_btf_write_min(struct bsdk_obj *const *objs, size_t n, const char *path,
		       struct bsdk_min_btf_stats *stats);

/* The helpers the linked program calls, as enum bpf_func_id (25: bpf_perf_event_output),
 * sorted, each once. */
size_t bsdk_prog_helper_count(const struct bsdk_prog *prog);
/* Helper i, or -ERANGE when i >= the count. */
int bsdk_prog_helper_id(const struct bsdk_prog *prog, size_t i);

/* The name of helper id (e.g. "bpf_perf_event_output") when the kernel lets only programs with
 * a GPL-compatible license call it; NULL when any license may (or the helper is unknown). A
 * program that calls one with a license bsdk_obj_gpl_compatible() rejects fails to load. */
const char *bsdk_helper_gpl_only(int id);

/* Whether the kernel counts the object's license as GPL-compatible: one of
 * "GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
 * "Dual MIT/GPL", "Dual MPL/GPL" (include/linux/license.h). */
bool bsdk_obj_gpl_compatible(const struct bsdk_obj *obj);

/* --------------------------------------------------------------------- map */

const char *bsdk_map_name(const struct bsdk_map *map);
/* enum bpf_map_type */
int bsdk_map_type(const struct bsdk_map *map);
/* "Did you mean": of count names, the one closest to word, a likely typo of it (at most a third
 * of word's letters inserted, deleted, replaced or swapped; one for a short word), or NULL when
 * none is that close. word itself is never returned. For messages about a name not found. */
const char *bsdk_name_closest(const char *word, const char *const *names, size_t count);
/* The name of helper id (enum bpf_func_id: 14 is "bpf_get_current_pid_tgid"), NULL for a number
 * this build does not know; and of the helpers, the one closest to name (as bsdk_name_closest()),
 * for a call to a function nothing declares (BSDK_RELO_UNDECLARED). Static strings. */
const char *bsdk_helper_name(int id);
const char *bsdk_helper_closest(const char *name);

/* The name of a map type (enum bpf_map_type) as bpftool spells it: "hash", "ringbuf", ...;
 * NULL for a number it does not know. Static. */
const char *bsdk_map_type_name(int type);
uint32_t bsdk_map_key_size(const struct bsdk_map *map);
uint32_t bsdk_map_value_size(const struct bsdk_map *map);
uint32_t bsdk_map_max_entries(const struct bsdk_map *map);
/* Where it was defined: ".maps", "maps", ".rodata", ".data", ".bss". */
const char *bsdk_map_origin(const struct bsdk_map *map);
/* The fd after bsdk_obj_load(), -1 before; -EINVAL for NULL (a bsdk_obj_map_find() that found
 * nothing), which bsdk_perfbuf_new() and bsdk_ringbuf_new() refuse with a message. */
int bsdk_map_fd(const struct bsdk_map *map);
/* 1 for maps declared with __uint(pinning, LIBBPF_PIN_BY_NAME): load reuses the map pinned at
 * /sys/fs/bpf/NAME when its definition matches, else creates and pins it there. 0 otherwise. */
uint32_t bsdk_map_pinning(const struct bsdk_map *map);
/* Override max_entries before load: a tool sizes a map its object declares with max_entries 0
 * (as libbpf's bpf_map__set_max_entries()). 0, or -EBUSY once created (or for a map opened
 * from its pin). */
int bsdk_map_set_max_entries(struct bsdk_map *map, uint32_t max_entries);
/* Override the value size before load, as libbpf's bpf_map__set_value_size(): a stack trace
 * map declared without one gets the tool's stack depth times 8. 0, -EBUSY once created, or
 * -EINVAL for .rodata, .data, .bss (their size is their section's). */
int bsdk_map_set_value_size(struct bsdk_map *map, uint32_t size);

/* ------------------------------------------------------------ map elements */

/*
 * Reading and writing a map's elements from user space (loader/ext/maps/map_ops.c), in the shape
 * of libbpf's bpf_map_*_elem() so code moves between the two without surprises, plus the sizes:
 * every call checks key_size and value_size against the map and refuses a mismatch with -EINVAL
 * and a message naming the map, the size given and the size expected. The map must be created
 * (bsdk_obj_load(), or bsdk_map_open_pinned()): before, -EBADF.
 *
 * Per-CPU maps (PERCPU_HASH, PERCPU_ARRAY, LRU_PERCPU_HASH, PERCPU_CGROUP_STORAGE) hold one
 * value per possible CPU, and user space reads and writes them all at once: the buffer is
 * bsdk_map_value_buf_size() = round_up(value_size, 8) * bsdk_cpu_possible_count() bytes, CPU
 * i's value at BSDK_PERCPU_VALUE(buf, value_size, i). For example, for a
 * BPF_MAP_TYPE_PERCPU_ARRAY of __u64:
 *
 *	int ncpus = bsdk_cpu_possible_count();
 *	uint64_t *vals = calloc(ncpus, sizeof(uint64_t)), sum = 0;
 *	uint32_t key = 0;
 *
 *	if (bsdk_map_lookup_elem(map, &key, sizeof(key), vals, ncpus * sizeof(uint64_t), 0) == 0)
 *		for (int i = 0; i < ncpus; i++)
 *			sum += *(uint64_t *)BSDK_PERCPU_VALUE(vals, sizeof(uint64_t), i);
 *
 * Maps without keys (QUEUE, STACK, BLOOM_FILTER) take key NULL and key_size 0.
 *
 * Each returns 0 or a negative errno, with errno set: -ENOENT for a missing key and at the end
 * of an iteration (not logged: it is an answer, not a failure), -EEXIST for BPF_NOEXIST on a
 * key present, -E2BIG when the map is full, else what the kernel returned.
 */

/* The byte offset of CPU cpu's value in a per-CPU value buffer of elements of value_size
 * bytes: the kernel rounds each CPU's slot up to 8 bytes. */
#define BSDK_PERCPU_STRIDE(value_size) (((size_t)(value_size) + 7) & ~(size_t)7)
#define BSDK_PERCPU_VALUE(buf, value_size, cpu) \
	((void *)((char *)(buf) + BSDK_PERCPU_STRIDE(value_size) * (size_t)(cpu)))

/* Whether map is of a per-CPU type (see above). */
bool bsdk_map_is_percpu(const struct bsdk_map *map);

/* The size of the value buffer the element calls take for map: value_size, or for a per-CPU
 * map round_up(value_size, 8) times the possible CPUs. 0 when the CPU count cannot be read
 * (errno set). */
size_t bsdk_map_value_buf_size(const struct bsdk_map *map);

/* Copy the value of key into value. flags: 0 or BPF_F_LOCK (the value has a bpf_spin_lock). */
int bsdk_map_lookup_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 void *value, size_t value_size, uint64_t flags);

/* Create or replace the element key. flags: BPF_ANY, BPF_NOEXIST (only create), BPF_EXIST
 * (only replace), possibly | BPF_F_LOCK. For QUEUE and STACK maps, key NULL pushes value. */
int bsdk_map_update_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 const void *value, size_t value_size, uint64_t flags);

/* Delete the element key (arrays cannot delete: -EINVAL from the kernel). flags: 0. */
int bsdk_map_delete_elem(const struct bsdk_map *map, const void *key, size_t key_size,
			 uint64_t flags);

/* Copy the value of key into value and delete the element in one step (hash maps since 5.14;
 * QUEUE and STACK pop with key NULL). */
int bsdk_map_lookup_and_delete_elem(const struct bsdk_map *map, const void *key, size_t key_size,
				    void *value, size_t value_size, uint64_t flags);

/* The key after cur_key into next_key, both key_size bytes; cur_key NULL for the first. At the
 * end: -ENOENT. In a hash map a cur_key deleted meanwhile restarts from the first key, so an
 * iteration that deletes should use bsdk_map_lookup_and_delete_elem() on the next key only
 * after getting it. Iterate:
 *
 *	uint32_t key, next;
 *	void *cur = NULL;
 *
 *	while (bsdk_map_get_next_key(map, cur, &next, sizeof(next)) == 0) {
 *		key = next;
 *		cur = &key;
 *		... bsdk_map_lookup_elem(map, &key, sizeof(key), ...) ...
 *	}
 */
int bsdk_map_get_next_key(const struct bsdk_map *map, const void *cur_key, void *next_key,
			  size_t key_size);

/* Read many elements per system call with BPF_MAP_LOOKUP_BATCH (hash and array maps, kernel
 * 5.6+), or, where the kernel or the map type lacks it, key by key with get_next_key + lookup:
 * the caller sees no difference. Up to *count elements go to keys (key_size bytes each, the
 * map's key size) and values (value_size each: bsdk_map_value_buf_size()); *count becomes the
 * number read. in_batch is NULL for the first call, then the out_batch of the previous one;
 * both are batch_size bytes, at least bsdk_map_batch_size(map). Returns 0 when more may
 * follow, -ENOENT when this call reached the end (*count may still be > 0), -ENOSPC when *count
 * is too small for one hash bucket (retry with more room), or another negative errno. flags:
 * 0 or BPF_F_LOCK. As with iteration, elements added or deleted meanwhile may be missed or
 * seen twice.
 *
 *	uint8_t batch[64];   // >= bsdk_map_batch_size(map)
 *	void *in = NULL;
 *	int err;
 *
 *	do {
 *		uint32_t n = CAP;
 *		err = bsdk_map_lookup_batch(map, in, batch, sizeof(batch), keys, sizeof(*keys),
 *					    vals, sizeof(*vals), &n, 0);
 *		if (err && err != -ENOENT)
 *			break;
 *		... use the n keys and vals ...
 *		in = batch;
 *	} while (!err);
 */
int bsdk_map_lookup_batch(const struct bsdk_map *map, const void *in_batch, void *out_batch,
			  size_t batch_size, void *keys, size_t key_size, void *values,
			  size_t value_size, uint32_t *count, uint64_t flags);

/* The size of the in_batch and out_batch buffers of bsdk_map_lookup_batch(): the larger of the
 * key size and 8. */
size_t bsdk_map_batch_size(const struct bsdk_map *map);

/* A map read whole by bsdk_map_snapshot(): n elements, element i's key at keys + i * key_size,
 * its value at values + i * value_size (bsdk_map_value_buf_size(): every CPU's value, each
 * BSDK_PERCPU_STRIDE() apart, for a per-CPU map). */
struct bsdk_map_snapshot {
	size_t n;
	size_t key_size, value_size;
	unsigned char *keys, *values;
};

/* Read every element of a map, as `bpfsdk run`'s map views and the metrics do: through
 * bsdk_map_lookup_batch(), 4,096 elements a call (more when one hash bucket holds more) where
 * the kernel has BPF_MAP_LOOKUP_BATCH, else key by key, an element deleted between
 * get_next_key and lookup skipped. A map that changes while it is read gives what the walk
 * saw: an element added or deleted meanwhile may be missing or, in a hash map, seen twice (and
 * an LPM trie's, read key by key, looked up by longest prefix: a prefix deleted meanwhile may
 * come with a shorter one's value); the walk stops after about 2 * max_entries + 16 elements,
 * however the map keeps changing. 0 with
 * *s filled (n may be 0; free it with bsdk_map_snapshot_free()), or a negative errno with *s
 * empty. */
int bsdk_map_snapshot(const struct bsdk_map *map, struct bsdk_map_snapshot *s);
/* Free what bsdk_map_snapshot() filled in; *s is left empty. NULL is a no-op. */
void bsdk_map_snapshot_free(struct bsdk_map_snapshot *s);

/* Open the map another program pinned at path (on bpffs, e.g. /sys/fs/bpf/NAME), for tools
 * that read shared maps. Its name (bsdk_map_name()) is the last component of path; its type
 * and sizes are the kernel's; the element calls above work on it. The caller owns it: free it
 * with bsdk_map_close(). NULL with errno: ENOENT when nothing is pinned there, EINVAL when what
 * is pinned is not a map, or what the kernel returned; the log says which. */
struct bsdk_map *bsdk_map_open_pinned(const char *path);

/* Close a map from bsdk_map_open_pinned() and free it; NULL is ignored, and so is a map that
 * belongs to an object (bsdk_obj_close() closes those). */
void bsdk_map_close(struct bsdk_map *map);

/* ------------------------------------------------------------- perf buffer */

/*
 * The per-CPU consumer of a BPF_MAP_TYPE_PERF_EVENT_ARRAY: one
 * PERF_COUNT_SW_BPF_OUTPUT event per online CPU, each with its own mmapped
 * ring, stored in slot cpu of the map so that bpf_perf_event_output(ctx,
 * &map, BPF_F_CURRENT_CPU, ...) lands in the ring of the CPU it runs on.
 *
 * The defaults serve throughput and latency with no tuning: each CPU has an
 * event that wakes the consumer per record and one with a watermark (a
 * quarter of the ring), both writing into its ring; its map slot holds the
 * first while records are rare (delivered at once) and the second while they
 * stream in, when bsdk_perfbuf_poll() drains every max_latency_ms (5 ms) -
 * which needs no system call: it reads data_head in the mapped page. An idle
 * consumer runs no timer (docs/architecture.md).
 *
 * Rings are opened for the CPUs online at bsdk_perfbuf_new(); a program on
 * a CPU that comes online later gets -ENOENT from bpf_perf_event_output()
 * until bsdk_perfbuf_rescan() (see docs/architecture.md).
 */
struct bsdk_perfbuf;

/* One record a BPF program sent. data is valid only during the call and is
 * 4-byte aligned (the kernel puts a u32 size before it); size is what the
 * kernel reports, which includes the padding to 8 bytes of size + data (16
 * bytes sent arrive as size 20). cpu is the ring's, -1 for a bsdk_ringbuf. */
typedef void (*bsdk_perfbuf_sample_fn)(void *ctx, int cpu, const void *data, uint32_t size);
/* The kernel dropped count records on cpu because the ring was full
 * (PERF_RECORD_LOST), reported with the next record that fits. */
typedef void (*bsdk_perfbuf_lost_fn)(void *ctx, int cpu, uint64_t count);
/* The same two with libbpf's types (perf_buffer_sample_fn, perf_buffer_lost_fn), for a
 * handler written for libbpf's perf_buffer__new(): set sample_cb (and lost_cb) instead of
 * on_sample (on_lost). data points into the ring, valid during the call only: do not write
 * to it. Added in 0.1 as appended fields, so the ABI did not change (same soname). */
typedef void (*bsdk_perfbuf_sample_cb)(void *ctx, int cpu, void *data, __u32 size);
typedef void (*bsdk_perfbuf_lost_cb)(void *ctx, int cpu, __u64 cnt);

struct bsdk_perfbuf_opts {
	size_t sz;               /* sizeof(opts): fields are only appended */
	unsigned int pages;      /* data pages per CPU, a power of two; 0:
				  * 8 MiB split across the possible CPUs,
				  * 16 to 256 pages each, halved down to 8
				  * while the locked-memory limit refuses it */
	bsdk_perfbuf_sample_fn on_sample;
	bsdk_perfbuf_lost_fn on_lost;   /* may be NULL: losses still counted */
	void *ctx;               /* passed to both callbacks */

	/* While records stream in, the kernel wakes the consumer when
	 * wakeup_bytes are ready in a ring. wakeup_events > 0 instead wakes it
	 * every wakeup_events records always (1 costs the producer an
	 * interrupt per record), with no switching by the rate. */
	unsigned int wakeup_events;   /* 0: use the watermark */
	unsigned int wakeup_bytes;    /* 0: a quarter of the ring */

	/* While records stream in, how long a record may wait in a ring while
	 * the caller sits in bsdk_perfbuf_poll(): 0: 5 ms. Negative: no
	 * periodic drain and no switching: the watermark only. */
	int max_latency_ms;

	/* Deliver the records of one drain in the order of the u64 timestamp
	 * (e.g. bpf_ktime_get_ns()) ts_offset bytes into each, instead of CPU
	 * by CPU; see docs/architecture.md for what the order guarantees. */
	bool merge_by_ts;
	unsigned int ts_offset;

	/* Set these instead of on_sample and on_lost to use libbpf's callback types; ctx is
	 * passed to them. Setting both sample_cb and on_sample is EINVAL. */
	bsdk_perfbuf_sample_cb sample_cb;
	bsdk_perfbuf_lost_cb lost_cb;
};

struct bsdk_perfbuf_stats {
	uint64_t received;       /* samples handed to on_sample */
	uint64_t lost;           /* sum of PERF_RECORD_LOST counts */
	uint64_t unknown;        /* records of other types, skipped */
	uint64_t corrupt;        /* bad headers; each dropped what was ready */
	uint64_t corrupt_bytes;  /* bytes dropped that way */
	uint64_t nomem;          /* wrapped records dropped: no memory */
	uint64_t copied;         /* records that wrapped and were copied */
	uint64_t wakeups;        /* epoll waits that ended with a ring ready */
	uint64_t drains;         /* passes over all rings */
	unsigned int cpus;       /* rings open */
	unsigned int pages;      /* data pages per ring, as chosen */
	uint64_t switches;       /* slots switched between per-record and watermark wakeups */
	unsigned int streaming;  /* rings draining on the timer now */
};

/* Open one PERF_COUNT_SW_BPF_OUTPUT event per online CPU, store each in slot cpu of the
 * PERF_EVENT_ARRAY map_fd, mmap its ring (1 + pages pages) and add it to an epoll set. opts
 * (copied) must set on_sample. NULL with errno: EINVAL for bad options (pages not a power of
 * two, unknown trailing opts bytes not zero) or a map_fd not a PERF_EVENT_ARRAY, or what the
 * kernel returned. */
struct bsdk_perfbuf *bsdk_perfbuf_new(int map_fd, const struct bsdk_perfbuf_opts *opts);

/* Wait up to timeout_ms (-1: forever, 0: not at all) for records, then consume every ready
 * record of every CPU; while waiting, drain all rings every max_latency_ms and return as soon
 * as a drain found records. The number of samples consumed (0 on timeout), or negative errno:
 * -EINTR when a signal arrived (not an error for a caller that stops on Ctrl-C). */
int bsdk_perfbuf_poll(struct bsdk_perfbuf *pb, int timeout_ms);

/* Consume every ready record of every CPU without waiting; the number of samples consumed. */
int bsdk_perfbuf_consume(struct bsdk_perfbuf *pb);

/* The epoll fd, for the caller's own event loop, which must call bsdk_perfbuf_consume() when it
 * is readable and whenever bsdk_perfbuf_timeout_ms() has passed, to keep the latency bound. */
int bsdk_perfbuf_epoll_fd(const struct bsdk_perfbuf *pb);

/* Milliseconds until the next periodic drain is due (0 if overdue), or -1
 * when periodic drains are off; -EINVAL for NULL. */
int bsdk_perfbuf_timeout_ms(const struct bsdk_perfbuf *pb);

/* Open rings for CPUs that came online since bsdk_perfbuf_new(); the
 * number of rings added, or negative errno. */
int bsdk_perfbuf_rescan(struct bsdk_perfbuf *pb);

/* Copy the counters into *stats. */
void bsdk_perfbuf_stats(const struct bsdk_perfbuf *pb, struct bsdk_perfbuf_stats *stats);

/* Empty the map slots it filled, unmap, close; NULL is ignored. */
void bsdk_perfbuf_free(struct bsdk_perfbuf *pb);

/* ------------------------------------------------------------- ring buffer */

/*
 * The consumer of BPF_MAP_TYPE_RINGBUF maps (kernel 5.8+): one ring shared by all CPUs, filled
 * by bpf_ringbuf_output() or bpf_ringbuf_reserve() and _submit(). One consumer reads any number
 * of them (bsdk_ringbuf_add()) through one epoll set.
 *
 * The kernel wakes a consumer when a record is committed exactly where the consumer said it
 * stands (consumer_pos). The consumer uses that as its lever, with no change to the BPF program:
 * while records are rare it publishes all it has read and is woken for the next one at once;
 * while they stream in it holds the last record back, so no commit wakes it, and drains every
 * max_latency_ms instead (docs/architecture.md). The kernel does not report records the
 * producer could not reserve: count bpf_ringbuf_reserve() failures on the BPF side.
 */
struct bsdk_ringbuf;

/* One record, valid during the call only (8-byte aligned, the exact length the program gave).
 * Return 0 to go on; non-zero stops the drain after this record: bsdk_ringbuf_consume() and
 * _poll() then return it when it is negative, else the number of records handed out. */
typedef int (*bsdk_ringbuf_record_fn)(void *ctx, const void *data, uint32_t size);
/* The same with libbpf's type (ring_buffer_sample_fn), for a handler written for libbpf's
 * ring_buffer__new(): set sample_cb instead of on_record. data points into the ring, mapped
 * read-only: do not write to it. Added in 0.1 as an appended field, so the ABI did not change
 * (same soname). */
typedef int (*bsdk_ringbuf_sample_cb)(void *ctx, void *data, size_t size);

struct bsdk_ringbuf_opts {
	size_t sz;               /* sizeof(struct bsdk_ringbuf_opts) */
	bsdk_perfbuf_sample_fn on_sample;  /* called with cpu == -1 */
	void *ctx;
	/* While records stream in, drain every max_latency_ms (0: 5 ms). Negative: never hold
	 * back, so the kernel wakes the consumer whenever it had caught up (libbpf's way). */
	int max_latency_ms;
	/* Set one of on_sample and on_record: on_record can stop a drain. */
	bsdk_ringbuf_record_fn on_record;
	/* > 0: also drain this often while nothing streams, for producers that pass
	 * BPF_RB_NO_WAKEUP (nothing else wakes the consumer for them). 0: while idle, sleep until
	 * the kernel wakes the consumer, at no cost. */
	int idle_drain_ms;
	/* libbpf's callback type, as on_record; set exactly one of on_sample, on_record and
	 * sample_cb. */
	bsdk_ringbuf_sample_cb sample_cb;
};

struct bsdk_ringbuf_stats {
	uint64_t received;       /* records handed to the callback */
	uint64_t discarded;      /* records the producer discarded */
	uint64_t corrupt;        /* bad lengths; each dropped what was ready */
	uint64_t wakeups;        /* epoll waits that ended with data */
	uint64_t drains;         /* passes over the rings */
	uint64_t switches;       /* changes between woken-per-record and timer drains */
	unsigned int rings;      /* maps read */
	unsigned int streaming;  /* rings draining on the timer now */
};

/* mmap the ring of the BPF_MAP_TYPE_RINGBUF map_fd and add it to an epoll set. opts (copied)
 * must set on_sample or on_record. NULL with errno (EINVAL: not a RINGBUF map, or bad opts). */
struct bsdk_ringbuf *bsdk_ringbuf_new(int map_fd, const struct bsdk_ringbuf_opts *opts);

/* Read the BPF_MAP_TYPE_RINGBUF map_fd too, in the same epoll set. opts NULL: with the
 * callbacks and ctx of bsdk_ringbuf_new(); else with opts' on_sample or on_record and ctx, and
 * its max_latency_ms and idle_drain_ms must be 0 (they belong to the consumer). 0, or negative
 * errno (-EINVAL: not a RINGBUF map, bad opts). */
int bsdk_ringbuf_add(struct bsdk_ringbuf *rb, int map_fd, const struct bsdk_ringbuf_opts *opts);

/* Wait up to timeout_ms (-1: forever, 0: not at all) for records, then consume every
 * committed record of every ring; while records stream in, drain every max_latency_ms and
 * return as soon as a drain found records. The number consumed (0 on timeout), a callback's
 * negative stop value, or negative errno (-EINTR when a signal arrived). */
int bsdk_ringbuf_poll(struct bsdk_ringbuf *rb, int timeout_ms);
/* Consume every committed record without waiting; as bsdk_ringbuf_poll(). */
int bsdk_ringbuf_consume(struct bsdk_ringbuf *rb);
/* The epoll fd, for the caller's own event loop, which must call bsdk_ringbuf_consume() when
 * it is readable and when bsdk_ringbuf_timeout_ms() has passed. */
int bsdk_ringbuf_epoll_fd(const struct bsdk_ringbuf *rb);
/* Milliseconds until the next timer drain is due (0 if overdue), or -1 when nothing streams
 * (and idle_drain_ms is 0): then only the kernel's wakeup needs a drain. */
int bsdk_ringbuf_timeout_ms(const struct bsdk_ringbuf *rb);
void bsdk_ringbuf_stats(const struct bsdk_ringbuf *rb, struct bsdk_ringbuf_stats *stats);
/* Unmap and close; NULL is ignored. */
void bsdk_ringbuf_free(struct bsdk_ringbuf *rb);

/* --------------------------------------------------------- the poll loop */

/*
 * What every tracing tool's main loop does, so that a program reads open -> load -> attach ->
 * run -> clean up. bsdk_signals_catch() makes SIGINT and SIGTERM set a flag, and
 * bsdk_perfbuf_run() or bsdk_ringbuf_run() polls until that flag is set, a duration has
 * passed, or the reader of the output has gone (`tool | head`: fflush() fails with EPIPE),
 * and says which. Then the caller detaches (bsdk_obj_detach_all(), a skeleton's NAME__detach(),
 * or bsdk_link_destroy() of its own links) and takes what is left with bsdk_perfbuf_drain().
 *
 *	bsdk_signals_catch();
 *	...load, open the perf buffer, attach...
 *	end = bsdk_perfbuf_run(pb, &(struct bsdk_run_opts){ .sz = sizeof(struct bsdk_run_opts),
 *				      .duration = secs, .out = stdout });
 *	...detach: bsdk_obj_detach_all(obj)...
 *	if (end > 0 && end != BSDK_RUN_CLOSED)
 *		end = bsdk_perfbuf_drain(pb, stdout);
 */

/* Why a run ended; positive, so that a negative errno stays an error. */
enum bsdk_run_end {
	BSDK_RUN_SIGNAL = 1,    /* SIGINT or SIGTERM came: bsdk_signals_caught() says which */
	BSDK_RUN_DURATION = 2,  /* opts.duration seconds have passed */
	BSDK_RUN_CLOSED = 3,    /* writing opts.out failed with EPIPE: its reader has gone */
};

struct bsdk_run_opts {
	size_t sz;              /* sizeof(struct bsdk_run_opts) */
	double duration;        /* seconds to run; <= 0: until a signal or a closed output */
	FILE *out;              /* fflush()ed after every poll (what the callbacks printed);
	                         * NULL: no output to watch */
	int poll_ms;            /* the longest wait of one poll, so a duration ends on time;
	                         * <= 0: 100 */
};

/* Catch SIGINT and SIGTERM with a handler that records the signal (see bsdk_signals_caught()),
 * with SA_RESTART as signal() sets it, and ignore SIGPIPE, so that a closed output is an EPIPE
 * error the run loop sees rather than the end of the process. Process-wide: it replaces any
 * handler the program had for the three. 0, or negative errno from sigaction(). */
int bsdk_signals_catch(void);

/* The signal that asked to stop (SIGINT or SIGTERM), 0 while none has come. Safe to call at
 * any time; a program typically checks it before a long step (load) and uses 128 + it as the
 * exit status when the signal came before the work began. Loading looks at it after every
 * bpf(BPF_PROG_LOAD): once it is set, bsdk_obj_load() runs the verifier no more and fails
 * with -EINTR, whatever the kernel answered (a run the signal cut short may end in ENOSPC). */
int bsdk_signals_caught(void);

/* Record sig as bsdk_signals_catch()'s handler does, for a program with a handler of its own
 * (e.g. one without SA_RESTART): call it there, so that the poll loop stops and a load stops
 * between two runs of the verifier. Async-signal-safe: one store. */
void bsdk_signals_note(int sig);

/* A tool's exit status: status, unless it is a failure (not 0) and a signal came, which then
 * stopped the work before it began: 128 + the signal, the shell's code (130 for Ctrl-C). */
int bsdk_signals_exit_status(int status);

/* Seconds on CLOCK_MONOTONIC, for measuring how long a run took. */
double bsdk_time_now(void);

/* Poll pb (bsdk_perfbuf_poll()) until a caught signal, opts->duration or a closed opts->out,
 * flushing opts->out after each poll; opts may be NULL (until a signal). A signal ends the run
 * within a poll (epoll_wait() returns EINTR), a duration within poll_ms. Returns the reason, a
 * positive BSDK_RUN_*, or negative errno, logged ("reading the perf buffer: ...", "writing the
 * output: ..."): -EINVAL for a NULL pb or an opts.sz too small, what the poll or fflush()
 * failed with. Records consumed before an error or a closed output have been handed to the
 * callbacks. */
int bsdk_perfbuf_run(struct bsdk_perfbuf *pb, const struct bsdk_run_opts *opts);
/* The same for a ring buffer (bsdk_ringbuf_poll()); a callback's negative stop value is
 * returned as an error. */
int bsdk_ringbuf_run(struct bsdk_ringbuf *rb, const struct bsdk_run_opts *opts);

/* After detaching: consume every record still in the rings (bsdk_perfbuf_consume()), then
 * flush out (NULL: nothing to flush). 0, BSDK_RUN_CLOSED when out's reader has gone, or
 * negative errno (logged): -EINVAL for a NULL pb, what fflush() failed with. */
int bsdk_perfbuf_drain(struct bsdk_perfbuf *pb, FILE *out);
/* The same for a ring buffer (bsdk_ringbuf_consume()). */
int bsdk_ringbuf_drain(struct bsdk_ringbuf *rb, FILE *out);

/* The end of a tracing tool in one call: bsdk_perfbuf_run(pb, opts); then bsdk_link_destroy()
 * of the nlinks links, the last first, each set to NULL, so that no new record comes; then,
 * unless the reader of opts->out has gone, bsdk_perfbuf_drain(pb, opts->out). The run's end
 * (BSDK_RUN_*; BSDK_RUN_CLOSED also when the drain found the reader gone), or a negative
 * errno (logged): -EINVAL for a NULL pb, or links NULL with nlinks; the links are left
 * attached when the run itself failed. */
int bsdk_perfbuf_run_detach(struct bsdk_perfbuf *pb, const struct bsdk_run_opts *opts,
			    struct bsdk_link **links, size_t nlinks);
/* What a tracing tool counts of its records. As the first member of the ctx its perf buffer
 * callbacks get, bsdk_tally_lost() can be its on_lost. */
struct bsdk_tally {
	uint64_t received;	/* records that came */
	uint64_t shown;		/* those the tool printed (after its own filters) */
	uint64_t lost;		/* those the kernel dropped for a full ring */
	uint64_t bad;		/* those too short or inconsistent to print */
};

/* A bsdk_perfbuf_lost_fn for a ctx that begins with a struct bsdk_tally: adds count to its
 * lost, and logs "lost: cpu N dropped C records" at BSDK_LOG_INFO (a tool's -v). */
void bsdk_tally_lost(void *ctx, int cpu, uint64_t count);

/* The lines a tracing tool ends with, on f (stderr): "received R, shown S, lost L", then, when
 * bad records came, "error: B malformed records". The exit status: 0, or 1 when bad. */
int bsdk_tally_report(FILE *f, const struct bsdk_tally *r);

/* The start of an on_sample: counts the record as received, and whether it holds the tool's
 * head of head_size bytes. false for a shorter one: counted as bad, and the first five said
 * with a warning ("cpu N: record of S bytes, shorter than the H-byte head"). */
bool bsdk_tally_check(struct bsdk_tally *r, int cpu, uint32_t size, size_t head_size);

/* A record that came from cpu whole but does not hold together (a length past its end, a
 * kind the tool does not know): counts it as bad and, for the first five bad records of r,
 * logs a warning "cpu N: " and the printf-style message ("warning: cpu 2: len 9000 does not
 * fit a 64-byte record" on stderr by default). The tool then leaves the record alone. */
void bsdk_tally_bad(struct bsdk_tally *r, int cpu, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The end of a tool that prints records to stdout and counts them in counts, in one call:
 * bsdk_perfbuf_run_detach() with duration (seconds; <= 0: until a signal or a closed stdout)
 * and stdout as the output, then bsdk_tally_report(stderr, counts). Returns the tool's exit
 * status: 0; 1 when bad records came, when the run failed (logged; no report then), or for a
 * NULL pb or counts (errno EINVAL). Call bsdk_signals_exit_status() on it as on any other. */
int bsdk_perfbuf_run_report(struct bsdk_perfbuf *pb, double duration, struct bsdk_link **links,
			    size_t nlinks, const struct bsdk_tally *counts);

/* ---- command-line values: the checks and messages a tool's options share. Each logs one
 * error line naming the option and the value ("--pid 'x' is not a process id") and returns
 * -EINVAL, so a getopt_long() loop says `if (bsdk_arg_parse_pid("--pid", optarg, &o->pid))
 * return 2;`. -EINVAL without a message for NULL arguments. */

/* A number of seconds in (0, max] (strtod() syntax, the whole of arg): a --duration or an
 * interval. On success *secs is set; on failure it is left alone. */
int bsdk_arg_parse_seconds(const char *opt, const char *arg, double max, double *secs);

/* A process id: a decimal number from 1 to INT_MAX, the whole of arg. On success *pid is set. */
int bsdk_arg_parse_pid(const char *opt, const char *arg, uint32_t *pid);

/* A command name that fits a buffer of size bytes with its NUL (the kernel's TASK_COMM_LEN is
 * 16: 1 to 15 characters), so that a filter on it can match. 0 when it fits. */
int bsdk_arg_parse_comm(const char *opt, const char *arg, size_t size);

/* What getopt_long() (with opterr = 0 and a leading ':' in its optstring) could not place:
 * c == ':' an option without its value ("option '-d' needs a value (try 'TOOL --help')"),
 * another c an unknown option, c == -1 an argument left after the options (argv[optind]).
 * Logs that line and returns -EINVAL. */
int bsdk_arg_reject(const char *tool, int c, int optind, char **argv);

/* ---- a tool's whole command line from a table, the way every sample reads its own: each
 * option a row that says its names, how its value is checked and where it goes. The parsing is
 * getopt_long()'s, so the options take the forms of any Linux tool (--pid 5, --pid=5, -p5, -jv,
 * an unambiguous prefix such as --dur, and -- before the arguments); -h and --help print the
 * usage text; what cannot be placed gets bsdk_arg_reject()'s line. */

enum bsdk_opt_type {
	BSDK_OPT_FLAG,		/* no value: *(bool *)dest = true */
	BSDK_OPT_VERBOSE,	/* no value, may repeat: ++*(int *)dest; once parsed, -v sets the
				 * log level to BSDK_LOG_INFO, -vv (or more) to BSDK_LOG_DEBUG */
	BSDK_OPT_STRING,	/* *(const char **)dest = the value, a pointer into argv */
	BSDK_OPT_SECONDS,	/* bsdk_arg_parse_seconds() up to max: *(double *)dest */
	BSDK_OPT_PID,		/* bsdk_arg_parse_pid(): *(uint32_t *)dest */
	BSDK_OPT_COMM,		/* bsdk_arg_parse_comm() for a buffer of max bytes: *(const char **)dest */
	BSDK_OPT_UINT,		/* a decimal integer from min to max (strtol() syntax, the whole value):
				 * *(unsigned int *)dest; else the error line "--NAME 'VALUE' is not WHAT" */
	BSDK_OPT_POW2,		/* the same, and a power of two */
	BSDK_OPT_CALL,		/* parse(opt, value, dest) checks and stores the value */
	BSDK_OPT_ACTION,	/* no value: parse(opt, NULL, dest) */
	/* Not an option of its own: one of the shared options the tool takes (a
	 * BSDK_ARGS_* bit, by its long name), placed here in --help's list with this row's
	 * arg and help, when given, instead of the library's. Only name, arg and help are
	 * read. */
	BSDK_OPT_COMMON,
};

struct bsdk_opt {
	const char *name;	/* the long name, without "--"; NULL ends the table */
	char short_name;	/* 0 for none */
	enum bsdk_opt_type type;
	void *dest;		/* where the value goes, as the type says */
	long min, max;		/* UINT, POW2: the range (within 0..UINT_MAX); SECONDS: the most;
				 * COMM: the buffer's size */
	const char *what;	/* UINT, POW2: what the value must be, for the error line */
	/* CALL, ACTION: 0 to go on, a positive number to stop parsing and exit with status 0 (an
	 * option such as --list that did its work), or -EINVAL after one error line of its own. */
	int (*parse)(const char *opt, const char *value, void *dest);
	/* Appended: a table written without them compiles as it was, with them zero (the row
	 * grew, so a program built against an older bpfsdk.h is rebuilt). What --help says of
	 * the row, for a usage printed from the table, as `bpfsdk CMD --help` is: arg names the
	 * value ("N", "NAME=VALUE"); help is the paragraph under the option's line, its lines
	 * unindented and at most 72 columns, to fit 80 once indented; a row whose help is NULL
	 * is named on the next row's line. */
	const char *arg;
	const char *help;
	/* A number of the caller's own for the row, for a parser that returns it instead of
	 * storing the value (bpfsdk's commands); bsdk_args_parse() does not read it. */
	int id;
};

/* The options most tools take, chosen by the bits of bsdk_args.common_opts, their values in
 * struct bsdk_args_common: no tool writes their rows, checks or messages again. */
enum {
	BSDK_ARGS_PID = 1 << 0,		/* -p, --pid PID: a process id (bsdk_arg_parse_pid()) */
	BSDK_ARGS_COMM = 1 << 1,	/* -c, --comm COMM: 1 to 15 characters (TASK_COMM_LEN) */
	BSDK_ARGS_DURATION = 1 << 2,	/* -d, --duration SEC: up to 86400 seconds */
	BSDK_ARGS_JSON = 1 << 3,	/* -j, --json */
	BSDK_ARGS_OBJECT = 1 << 4,	/* -o, --object PATH */
	BSDK_ARGS_VERBOSE = 1 << 5,	/* -v, --verbose, repeated: BSDK_OPT_VERBOSE */
	/* What a tracing tool takes: a process to watch, how long, JSON, another build of its
	 * object, -v; --comm where it filters by name too (BSDK_ARGS_TRACER | BSDK_ARGS_COMM). */
	BSDK_ARGS_TRACER = BSDK_ARGS_PID | BSDK_ARGS_DURATION | BSDK_ARGS_JSON | BSDK_ARGS_OBJECT |
			   BSDK_ARGS_VERBOSE,
};

struct bsdk_args_common {
	uint32_t pid;		/* 0 when not given */
	const char *comm;	/* NULL when not given */
	double duration;	/* 0 when not given */
	bool json;
	const char *object;	/* NULL when not given */
	int verbose;		/* how many times */
};

struct bsdk_args {
	const char *tool;	/* the program's name, for "(try 'TOOL --help')" */
	const char *usage;	/* printed to stdout by -h and --help (see usage_end) */
	const struct bsdk_opt *opts;	/* the tool's own: ends with a row whose name is NULL */
	unsigned int common_opts;	/* BSDK_ARGS_* bits: the shared options it takes too */
	struct bsdk_args_common *common;	/* their values; needed when common_opts is not 0 */
	/* The arguments left after the options (n may be 0): the number it took, or -EINVAL after
	 * one error line. The rest are refused. NULL: the tool takes no arguments. */
	int (*operands)(int n, char **args, void *ctx);
	void *ctx;		/* for operands */
	/* Appended (a tool built without it prints usage alone): when set, --help prints
	 * usage, then "options:" and a line per row, made from the rows - the tool's in its
	 * table's order, each "  -s, --name ARG" and its help beside it from column 24
	 * (continued there), the shared ones it did not place after them with the library's
	 * words, "-h, --help" last - then usage_end. The text and the parser cannot drift. */
	const char *usage_end;
};

/* Parse argv[1..argc-1] by args (argv itself is reordered, as getopt_long() does; 32 options
 * at most; a second call reads its argv afresh). 0: go on; BSDK_ARGS_EXIT (positive) after --help or an ACTION's work:
 * exit with status 0; -EINVAL after one error line: a usage error, exit with status 2. */
#define BSDK_ARGS_EXIT 1
int bsdk_args_parse(const struct bsdk_args *args, int argc, char **argv);

/* ------------------------------------------------------------ BTF values */

/*
 * The types an object's BTF describes, and a printer that shows bytes as
 * the value of one of them: how `bpfsdk run --format json|text` decodes
 * records and maps with no code of the program's own. Type IDs are the
 * object's; 0 is void.
 */
struct bsdk_btf;

/* The object's .BTF, parsed and checked at open; lives as long as obj. NULL with errno ENOENT
 * when the object has none. */
const struct bsdk_btf *bsdk_obj_btf(const struct bsdk_obj *obj);

/* Parse a raw .BTF blob (e.g. /sys/kernel/btf/vmlinux), copied. NULL with errno (BSDK_EBTF:
 * malformed, the reason logged). Free with bsdk_btf_free(). */
struct bsdk_btf *bsdk_btf_new(const void *data, size_t size);
/* Free what bsdk_btf_new() returned; NULL is ignored. Never pass bsdk_obj_btf()'s. */
void bsdk_btf_free(struct bsdk_btf *btf);

/* Number of type IDs, including 0 (void): valid IDs are 1 .. count - 1. */
uint32_t bsdk_btf_type_count(const struct bsdk_btf *btf);

/* The ID of the type called name: a struct or union first (name is the tag: "event" for
 * struct event), else a typedef, enum or any other named type. -ENOENT when none. */
int bsdk_btf_find_type(const struct bsdk_btf *btf, const char *name);

/* What a type (name NULL) or one of its members (name: a member of the struct or union id,
 * found in anonymous inner structs and unions too) is, typedefs and qualifiers skipped. */
struct bsdk_btf_info {
	uint32_t type_id;      /* the resolved type */
	int kind;              /* its BTF_KIND_* (linux/btf.h) */
	const char *name;      /* its name, "" when anonymous */
	uint64_t size;         /* bytes (arrays multiplied out) */
	uint64_t offset;       /* member: bytes from the start of id; 0 for a type */
	uint32_t bitfield;     /* member: bits when it is a bitfield, else 0 */
	bool is_signed;        /* integers and enums */
	bool is_string;        /* an array of char, printed as a string */
	uint32_t nelems;       /* arrays: elements, else 0 */
	uint32_t elem_type_id; /* arrays: the element type, resolved */
	uint64_t elem_size;    /* arrays: bytes per element */
	bool flat;             /* a struct or union whose members are all integers, enums,
			        * pointers, floats or strings: one column each */
	const char *member;    /* bsdk_btf_member(), or a member found by name: its name */
	uint64_t fixed_size;   /* a struct whose last member is an array: the bytes before it
				* (records that send only what the array holds may stop inside
				* it); otherwise size */
};
/* Fill *info. 0; -ENOENT when id has no member name; -BSDK_EBTF for a type that cannot be
 * resolved or sized (a loop, an overflowing array, a kind without a size). */
int bsdk_btf_info(const struct bsdk_btf *btf, uint32_t id, const char *name,
		  struct bsdk_btf_info *info);

/* Fill *info with member i (0, 1, ...) of the struct or union id, in declaration order;
 * anonymous members are listed as they are (member ""). 0; -ERANGE past the last; -EINVAL when
 * id is not a struct or union; -BSDK_EBTF as bsdk_btf_info(). */
int bsdk_btf_member(const struct bsdk_btf *btf, uint32_t id, uint32_t i,
		    struct bsdk_btf_info *info);

/* Whether info (bsdk_btf_info(), bsdk_btf_member()) is an integer or enum of 1, 2, 4 or 8 bytes
 * that is no bitfield: a number a map view or a metric can read as it lies. */
bool bsdk_btf_is_int(const struct bsdk_btf_info *info);
/* Whether info is an array of such integers (not a char[] string): BCC's log2 "slots". */
bool bsdk_btf_is_int_array(const struct bsdk_btf *btf, const struct bsdk_btf_info *info);

/* The BTF type IDs of a map's key and value, as its definition in ".maps" gives them
 * (__type(key, ...), __type(value, ...)); 0 when it has none (legacy maps, key_size only). */
uint32_t bsdk_map_btf_key_type(const struct bsdk_map *map);
uint32_t bsdk_map_btf_value_type(const struct bsdk_map *map);

/* The struct a map's records have, from BPFSDK_RECORD(NAME) in front of the map (a
 * "bpfsdk.record:NAME" decl tag on its BTF variable): its ID, -ENOENT without the annotation,
 * -BSDK_EBTF when the annotation names no struct of the object. */
int bsdk_map_record_type(const struct bsdk_map *map);

/* ---- Record types (loader/readers/records/record_type.c): which struct a PERF_EVENT_ARRAY's
 * or RINGBUF's records have when BPFSDK_RECORD() does not say. clang leaves a struct that lives
 * only on the stack or behind bpf_ringbuf_reserve() out of .BTF; the object's DWARF (clang -g),
 * read through elfutils' libdw, has it. A type found there is converted into a BTF of its own,
 * so bsdk_btf_print() and the other bsdk_btf_*() calls work on it. */

enum bsdk_record_source {
	BSDK_RECORD_NONE,        /* nothing known: bsdk_records_by_size() at the first record */
	BSDK_RECORD_ANNOTATION,  /* BPFSDK_RECORD(NAME) on the map */
	BSDK_RECORD_DWARF_LOCAL, /* the variable whose address (or value, a pointer) a program
				  * passes to bpf_perf_event_output()/bpf_ringbuf_output() for the
				  * map, or gets from bpf_ringbuf_reserve(): every such call agrees */
	BSDK_RECORD_SIZE,        /* the only struct of the program's own files the record fits */
	BSDK_RECORD_AMBIGUOUS,   /* several candidates: none chosen, candidates names them */
	BSDK_RECORD_NAMED,       /* bsdk_records_find(): asked for by name */
};

struct bsdk_record_type {
	enum bsdk_record_source source;
	const char *source_name;     /* "annotation", "DWARF local", "size rule", "ambiguous",
				      * "none", "by name" */
	const struct bsdk_btf *btf;  /* the BTF type_id is in: the object's, or one converted
				      * from DWARF; NULL when none was chosen */
	uint32_t type_id;
	const char *name;            /* the type's name */
	const char *layout;          /* where its layout was read: "BTF" or "DWARF" */
	const char *prog;            /* DWARF_LOCAL: the function (program or subprogram) whose
				      * call named it */
	const char *variable;        /* DWARF_LOCAL: that variable's name (may be NULL) */
	const char *candidates;      /* AMBIGUOUS: the candidates, ", "-separated */
};

/* Never a kernel struct by guess: a struct declared in vmlinux*.h, a system header (/usr/...)
 * or a BPF SDK header (bpf_*.h), or read by a CO-RE relocation (its name or a ___flavour of
 * it), is not the program's own, and neither the call-site scope rule nor the size rule choose
 * it. Only a variable whose stack slot is exactly the data a call passes names any struct. */

struct bsdk_records;

/* The record types of obj's maps, found on demand; lives no longer than obj. An object
 * without DWARF gives no DWARF_LOCAL, and its size rule keeps to .BTF's structs that no CO-RE
 * relocation reads. NULL with errno ENOMEM. */
struct bsdk_records *bsdk_records_new(const struct bsdk_obj *obj);
void bsdk_records_free(struct bsdk_records *r);
/* Whether the object has DWARF to read. */
bool bsdk_records_have_dwarf(const struct bsdk_records *r);
/* What is known of map's record type before any record: ANNOTATION, DWARF_LOCAL, AMBIGUOUS
 * (its calls name different structs) or NONE. Strings and BTF live as long as r. 0; -EINVAL;
 * -ENOMEM; -BSDK_EBTF when BPFSDK_RECORD() names no struct (logged). */
int bsdk_records_map_type(struct bsdk_records *r, const struct bsdk_map *map,
			  struct bsdk_record_type *t);
/* The size rule, for a record of size bytes of map (a PERF_EVENT_ARRAY's may carry up to 7
 * bytes of padding): SIZE with the only fitting struct of the program's own, AMBIGUOUS with the
 * candidates, or NONE. 0, -EINVAL or -ENOMEM. */
int bsdk_records_by_size(struct bsdk_records *r, const struct bsdk_map *map, uint64_t size,
			 struct bsdk_record_type *t);
/* The struct, union or typedef called name: from .BTF, else from DWARF (any file). 0;
 * -ENOENT; -EOPNOTSUPP when BTF cannot hold it (logged); -ENOMEM. */
int bsdk_records_find(struct bsdk_records *r, const char *name, struct bsdk_record_type *t);
/* The programs whose own instructions send records to map (a PERF_EVENT_ARRAY or RINGBUF)
 * through bpf_perf_event_output(), bpf_ringbuf_output() or bpf_ringbuf_reserve(): up to max
 * of them into progs, in the object's order; how many there are, or -EINVAL, -ENOMEM. Calls
 * in a subprogram count for no program. Programs on different hooks that send one map's
 * records may be alternative modes of a tool, which loads one of them (sigsnoop). */
int bsdk_map_senders(const struct bsdk_map *map, const struct bsdk_prog **progs, size_t max);

struct bsdk_btf_field_view;
/* Where the programs got the values they store in map's records (loader/readers/records/record_kfields.c):
 * a member of struct id of btf stored from a big-endian kernel field (a CO-RE read of __be16
 * skc_dport, not swapped by bpf_ntohs() on the way) is NTOH; one copied from a kernel address
 * (__be32 skc_daddr, struct in6_addr skc_v6_daddr, a tracepoint's __u8 saddr[4]) is INET; one
 * the program swapped itself, or that got both kinds, is STORED. *views (malloc'ed, names in
 * btf; NULL when there are none) and *n. 0, -EINVAL or -ENOMEM. */
int bsdk_records_views(struct bsdk_records *r, const struct bsdk_map *map,
		       const struct bsdk_btf *btf, uint32_t id, struct bsdk_btf_field_view **views,
		       size_t *n);

enum bsdk_btf_format {
	BSDK_BTF_JSON,     /* one JSON value on one line: objects, arrays, numbers, strings */
	BSDK_BTF_TEXT,     /* name=value, nested as {a=1 b=2} and [1, 2] */
	BSDK_BTF_COLUMNS,  /* a flat struct: each member padded to its column's width and preceded
			    * by two blanks; bsdk_btf_print_header() prints the names the same way */
};

enum bsdk_btf_print_flags {
	/* A struct or union prints as its members alone, a data section (DATASEC) as its
	 * variables, each preceded by ',' (JSON) or ' ' (TEXT), to continue an object the caller
	 * started; other types as one member "value". */
	BSDK_BTF_MEMBERS   = 1 << 0,
	/* TEXT and COLUMNS: an unsigned 64-bit member whose name ends in "_ns" as a duration
	 * ("1.250ms"). JSON keeps the number. */
	BSDK_BTF_DURATIONS = 1 << 1,
	/* Addresses and ports as the tools that send them print them (docs/bpfsdk-run.md,
	 * "Addresses and ports"): what the BTF says - a __be16/__be32/__be64 typedef in host
	 * order, struct in_addr, struct in6_addr and a 16-byte member named *addr* (or a 4-byte
	 * one beside a family member) as "127.0.0.1" or "::1", by the record's family member
	 * (family, af, *_family: AF_INET, AF_INET6) when it has one - and what the views say. */
	BSDK_BTF_NET       = 1 << 2,
};

/* How one member is shown, overriding what BSDK_BTF_NET reads from the BTF. */
enum bsdk_btf_view {
	BSDK_VIEW_DEFAULT,   /* what the flags say */
	BSDK_VIEW_STORED,    /* as stored: the integer, the array */
	BSDK_VIEW_INET,      /* an address: by the family member, else by its size (4, 16) */
	BSDK_VIEW_NTOH,      /* a big-endian integer (2, 4 or 8 bytes), in host order */
};

/* A member (of the top struct, or of an anonymous struct or union inlined in it) by name. */
struct bsdk_btf_field_view {
	const char *name;
	enum bsdk_btf_view view;
};

/*
 * Print the size bytes at data as a value of type id to f, in format with flags. Integers of
 * every size and signedness, bool, char arrays as strings (up to the first NUL, escaped: JSON
 * \u00XX for control bytes and \udcXX for each byte that is not UTF-8, as bsdk_json_string()
 * does, so that every output is valid JSON; TEXT \xNN) - but a command line, a member char
 * array named args or argv or counted by a member NAME_count or NAME_cnt (argv, as execsnoop
 * packs it), always as a list of its NUL-terminated strings (JSON ["a","b"], ["a"], [], TEXT
 * ["a" "b"], COLUMNS a b; what follows the last NUL, and trailing empty or binary pieces,
 * left out) -, other arrays as lists, structs and unions (anonymous members inlined), enums
 * by name (values outside the enum as numbers), pointers as hex, bitfields, floats. The bytes
 * are read from data only: a member past size is printed as null (TEXT '?'). Work is linear in
 * size whatever the BTF: loops, deep nesting and huge arrays stop with the output still well
 * formed. data needs no alignment.
 *
 * 0 when everything was printed; -ERANGE when part of the type lay past size; -BSDK_EBTF when
 * part of it could not be printed (a loop, a kind without a value, too deep); -EINVAL for bad
 * arguments (nothing printed). Write errors show in ferror(f).
 */
int bsdk_btf_print(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		   enum bsdk_btf_format format, unsigned int flags, FILE *f);

/* The same into buf, snprintf-style: at most buf_size - 1 bytes and a NUL; returns the length
 * of the whole output (a larger buffer takes it all when that is >= buf_size), or -EINVAL for
 * bad arguments. *err (may be NULL) gets what bsdk_btf_print() would return. For callers that
 * build a line around the value and write it at once. */
long bsdk_btf_snprint(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		      enum bsdk_btf_format format, unsigned int flags, char *buf, size_t buf_size,
		      int *err);

/* bsdk_btf_print() and bsdk_btf_snprint() with views (n of them; NULL, 0 for none): each
 * names a member of the top struct and how it is shown. */
int bsdk_btf_print_views(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
			 enum bsdk_btf_format format, unsigned int flags,
			 const struct bsdk_btf_field_view *views, size_t n, FILE *f);
long bsdk_btf_snprint_views(const struct bsdk_btf *btf, uint32_t id, const void *data,
			    size_t size, enum bsdk_btf_format format, unsigned int flags,
			    const struct bsdk_btf_field_view *views, size_t n, char *buf,
			    size_t buf_size, int *err);

/* What BSDK_BTF_NET's rule makes of member i of struct or union id: BSDK_VIEW_INET,
 * BSDK_VIEW_NTOH or BSDK_VIEW_DEFAULT (a number, a string: what it is). */
enum bsdk_btf_view bsdk_btf_member_view(const struct bsdk_btf *btf, uint32_t id, uint32_t i);
/* Member i of struct or union id, at the start of the size bytes at data, as TEXT with
 * BSDK_BTF_NET (an address by the struct's family member), into buf as bsdk_btf_snprint()
 * does: the length of the whole output, or -EINVAL. For one label of a key. */
long bsdk_btf_snprint_member(const struct bsdk_btf *btf, uint32_t id, uint32_t i,
			     const void *data, size_t size, char *buf, size_t buf_size);

/* COLUMNS: the header line's names, padded as bsdk_btf_print() pads the values, each after
 * two blanks, without a newline. 0, or -EINVAL when id is not a flat struct or union. */
int bsdk_btf_print_header(const struct bsdk_btf *btf, uint32_t id, unsigned int flags, FILE *f);

/* Write into buf (size bytes, NUL-terminated, truncated as snprintf() does) the C declaration
 * of a variable called name of type id, as user space declares it
 * (loader/readers/print/btf_decl.c): qualifiers (const, volatile) dropped; the fixed-size
 * integer typedefs of <linux/types.h> and <stdint.h> (__u32, uint64_t, ...) and bool kept,
 * other typedefs replaced by what they name; named structs and unions as `struct NAME` (whose
 * definition the caller must have, as with libbpf's skeletons), anonymous ones written out;
 * enums and pointers as integers of their size (a BPF pointer is 8 bytes on every host); an
 * integer by its BTF name only when that is a C integer type of its size on this host ("int",
 * "long unsigned int"), else as __s32, __u64... E.g. "__u32 counts[16]". The length the whole
 * declaration needs (as snprintf()), or -BSDK_EBTF for a type with no such declaration (a
 * function, a loop, a bad ID, or a name, a struct tag or member that is a C keyword or no C
 * identifier). */
int bsdk_btf_c_decl(const struct bsdk_btf *btf, uint32_t id, const char *name, char *buf,
		    size_t size);

/* ------------------------------------------------------------------ symbols */

/*
 * Addresses to function names, for stack traces (loader/tool/syms.c): the kernel's from
 * /proc/kallsyms, a process's through libdw (dwfl): the files it maps (/proc/PID/maps, read on
 * the first lookup in that process and kept: look up while the process still runs), named from
 * their symbol tables or from their separate debug info, found by build-id or .gnu_debuglink
 * under /usr/lib/debug as gdb finds it (and, with DEBUGINFOD_URLS set, possibly fetched from
 * those servers by libdw), which also gives source lines and inlined functions. Works
 * for position-independent executables and shared libraries wherever they were loaded. At most
 * 32 processes are kept read; the least recently used is read again when needed.
 */
struct bsdk_syms;

/* An empty cache; files are read on first use. NULL with errno ENOMEM. */
struct bsdk_syms *bsdk_syms_new(void);

/* The name of the function holding addr: in the kernel when pid is 0, else in process pid.
 * The string lives as long as syms. For an address in a mapped file that has no symbol for
 * it, "[FILE]" (the file's base name in brackets), with *offset the offset from the start of
 * the file's mapping; otherwise *offset (may be NULL) is addr's distance from the function's
 * start. NULL with errno: ENOENT when addr is in no known function or executable mapping, ESRCH
 * when process pid is gone, EACCES or ENOMEM when /proc or memory fails. */
const char *bsdk_syms_lookup(struct bsdk_syms *syms, int pid, uint64_t addr, uint64_t *offset);

/* The source file (as the DWARF line table names it, often an absolute path) and line of
 * addr in process pid, when the file mapped there has DWARF line information (built with -g,
 * or its debug info installed). For the return address of a caller's frame, pass addr - 1:
 * the call, not the line after it. 0, or -ENOENT when there is no line information (and
 * always for the kernel, pid 0), -ESRCH when process pid is gone, -ENOMEM. *file lives as long
 * as syms. */
int bsdk_syms_source(struct bsdk_syms *syms, int pid, uint64_t addr, const char **file, int *line);

/* One function at an address, as the DWARF of a process's file describes it. */
struct bsdk_sym_frame {
	const char *name;	/* the function's name in the source; NULL if it has none */
	const char *file;	/* where in it addr is (or the inlined call is); NULL if unknown */
	int line;		/* 0 if unknown */
};

/* The functions at addr in process pid, innermost first, up to max of them: where code was
 * inlined, the inlined function at its own line, then each function it was inlined into at the
 * line of the inlined call, the last one the function the code is in. Needs DWARF (built with -g,
 * or its debug info installed). The number filled (1 when nothing is inlined there), or
 * -ENOENT without DWARF for addr (and always for the kernel, pid 0), -ESRCH when process pid is
 * gone, -EINVAL for max < 1. The strings live as long as syms. */
int bsdk_syms_inlined(struct bsdk_syms *syms, int pid, uint64_t addr, struct bsdk_sym_frame *frames,
		      int max);

/* Free the cache and every name it returned; NULL is ignored. */
void bsdk_syms_free(struct bsdk_syms *syms);

/* --------------------------------------------------------------- histograms */

/*
 * A log2 histogram as BCC's tools and the samples draw it: one row per power of two from the
 * first to the last non-empty slot, "LOW -> HIGH : COUNT |****  |", the bar scaled to the
 * largest count. Slot 0 holds 0 and 1, slot k >= 1 the values in [2^k, 2^(k+1) - 1]. unit
 * names the values in the header ("usecs"); nothing is printed when every slot is 0. Returns
 * the sum of the counts.
 */
uint64_t bsdk_hist_print_log2(FILE *f, const uint64_t *slots, size_t nslots, const char *unit);

/* The unit a name (a map's, a value type's) says a histogram's values have: "usecs" for a name
 * holding "usecs" or the word "_us" ("lat_us", "lat_us_hist", not "_usage"), "nsecs" (nsecs,
 * _ns), "msecs" (msecs, _ms), "bytes", or NULL. *at and *len (may be NULL) get the offset and
 * length of the part of name that says it. How `bpfsdk run` labels its charts and scales its
 * metrics. */
const char *bsdk_hist_unit(const char *name, size_t *at, size_t *len);

/* Where a map's value keeps BCC's log2 histogram: its "slots". */
struct bsdk_hist_slots {
	uint32_t off;	/* bytes from the start of the value */
	uint32_t n;	/* slots, at most 64 */
	uint32_t size;	/* bytes of one slot: 1, 2, 4 or 8 */
};
/* Whether a map whose values have BTF type value_type (value_size bytes) holds a log2
 * histogram, and where (*slots, zeroed when not): the value is a struct of value_size bytes
 * with a member of its own named "slots", an array of 1-, 2-, 4- or 8-byte integers (not a
 * char[] string) wholly inside the value; its first 64 elements are the slots. The one rule of
 * `bpfsdk run`'s charts and of the metrics' histograms. */
bool bsdk_hist_slots(const struct bsdk_btf *btf, uint32_t value_type, size_t value_size,
		     struct bsdk_hist_slots *slots);

/* ------------------------------------------------------------------ metrics */

/*
 * Maps as Prometheus metrics, by their BTF, with no configuration (loader/metrics*.c;
 * docs/metrics.md says it for users). Each map is one or more metric families named
 * PREFIX_MAP (PREFIX "bpfsdk" unless opts say otherwise; bytes other than letters, digits, '_'
 * and ':' become '_'):
 *
 *  - a value struct with an integer array member "slots" (BCC's log2 histogram: slot 0 holds
 *    0 and 1, slot k >= 1 the values in [2^k, 2^(k+1) - 1]) is a histogram: cumulative
 *    PREFIX_MAP_bucket{le="..."} for every slot, le being slot k's largest value 2^(k+1) - 1
 *    (exact for integer values), le="+Inf", _count (the slots added up) and _sum from a
 *    member named "sum", "sum_*" or "*_sum" when the value has one. A histogram whose unit
 *    (opts->unit, else what its map's name says, else its value type's name) is usecs, _us,
 *    nsecs, _ns, msecs or _ms has its le and sum in seconds, written as exact decimals, and is
 *    named PREFIX_MAP_seconds with the unit's word taken out of MAP (latency_us: PREFIX_latency_seconds, and its other
 *    members' families PREFIX_latency_M); bytes stay bytes; anything else is the raw number.
 *  - every other integer member M of the value is a counter PREFIX_MAP_M_total (an integer
 *    value: PREFIX_MAP_total), or a gauge PREFIX_MAP_M for a map named *_gauge or *_gauges or
 *    listed in opts->gauges. Members that are no integer are left out, with one warning.
 *  - the key's struct members are labels: integers in decimal, enums by enumerator name,
 *    char[] as strings (escaped as the format says; bytes that are not UTF-8 as U+FFFD),
 *    nested structs flattened (outer_inner); unions, other arrays and bitfields are left out
 *    with one warning. A scalar key is the label "key"; a key without BTF, "key" in decimal
 *    (1, 2, 4 or 8 bytes) or hex; an array of one entry has no key label. Label names that
 *    the series' own labels take (object, cpu, le, overflow) or that start with "__" become
 *    key_NAME.
 *  - per-CPU values are added up, or with BSDK_METRICS_PER_CPU one series per CPU (label
 *    cpu). Arrays of more than one entry leave out the entries whose value is all zero.
 *  - every series has the label object="NAME" when an object name is given.
 *  - at most opts->max_series keys per map (with BSDK_METRICS_PER_CPU, series = keys x CPUs):
 *    the keys kept are the smallest by their bytes, the same at every render; the others are
 *    added up into one series labelled overflow="true", and their number is the gauge
 *    PREFIX_MAP_metrics_keys_folded.
 *  - bsdk_metrics_set_records() adds PREFIX_records_total and PREFIX_records_lost_total
 *    {object, map}: the records a program's channels delivered and lost.
 *
 * A render reads each map whole before writing it, so that its series agree with each other
 * (a histogram's +Inf bucket is its _count); maps are read one after another.
 */

enum bsdk_metrics_flags {
	/* render: OpenMetrics 1.0.0 (a counter's family named without _total, "# EOF" at the
	 * end) instead of the text format 0.0.4 */
	BSDK_METRICS_OPENMETRICS = 1 << 0,
	/* opts: per-CPU maps as one series per CPU, label cpu, instead of the sum */
	BSDK_METRICS_PER_CPU = 1 << 1,
};

#define BSDK_METRICS_MAX_SERIES 10000

struct bsdk_metrics_opts {
	size_t sz;              /* sizeof(struct bsdk_metrics_opts): fields are only appended */
	const char *prefix;     /* the names' first word; NULL: "bpfsdk" */
	const char *gauges;     /* "MAP,MAP": maps whose integers are gauges; NULL: none */
	size_t max_series;      /* per map; 0: BSDK_METRICS_MAX_SERIES */
	unsigned int flags;     /* BSDK_METRICS_PER_CPU */
	const char *unit;       /* the unit of every histogram ("usecs", "nsecs", "msecs"), before
				 * the one its map's name says; NULL: the name's, else its value
				 * type's (as bpfsdk run's --unit) */
};

struct bsdk_metrics;

/* An empty set of maps to export; opts may be NULL (the defaults) and is copied. NULL with
 * errno: EINVAL for a prefix that is no metric name (logged) or an opts.sz too small, ENOMEM. */
struct bsdk_metrics *bsdk_metrics_new(const struct bsdk_metrics_opts *opts);

/* Add map (a hash or array map, per-CPU or not, created: after load, or pinned) with its BTF
 * (btf may be NULL: keys and values by their sizes); object (may be NULL: no label) is the
 * object's name or path (bsdk_obj_name()), whose file name without ".bpf.o" or ".o" is the
 * object label's value (object="runqlat" for build/bpf/runqlat.bpf.o). The plan is made here, from the BTF, once. 0; negative errno: -EINVAL for another kind
 * of map or a value with nothing to export, -EEXIST when its names are another map's (both
 * logged as a warning, the set unchanged), -ENOMEM. The map must outlive the set. */
int bsdk_metrics_add_map(struct bsdk_metrics *m, const struct bsdk_map *map,
			 const struct bsdk_btf *btf, const char *object);

/* Every hash and array map of obj's .maps (and legacy maps), labelled with the object's name.
 * The number added (maps with nothing to export are left out with a warning), or -ENOMEM. */
int bsdk_metrics_add_obj(struct bsdk_metrics *m, const struct bsdk_obj *obj);

/* Set the record counters of map (a perf buffer's or ring buffer's; object labelled as
 * bsdk_metrics_add_map() does) to received and lost;
 * lost UINT64_MAX: the channel cannot know (a ring buffer's reader is told of no loss), and the
 * map has no PREFIX_records_lost_total series. Safe while another thread renders: it waits only
 * for the numbers' copy. 0 or -ENOMEM. */
int bsdk_metrics_set_records(struct bsdk_metrics *m, const char *object, const char *map,
			     uint64_t received, uint64_t lost);

/* Read every map of the set and write its metrics to f, then fflush(f). flags: 0 or
 * BSDK_METRICS_OPENMETRICS. Renders of one set from several threads run one at a time. 0, or
 * negative errno: a map that cannot be read (logged), the write's error (EIO when f has none),
 * -EINVAL for bad arguments. */
int bsdk_metrics_render(struct bsdk_metrics *m, unsigned int flags, FILE *f);

/* The same render into memory: *text (NUL-terminated, free() it) and its length *len, without
 * a copy through stdio - what a server that keeps the text uses. 0 or negative errno, as
 * bsdk_metrics_render(). */
int bsdk_metrics_render_text(struct bsdk_metrics *m, unsigned int flags, char **text,
			     size_t *len);

/* Render (text format 0.0.4) into path atomically: a temporary file in the same directory,
 * then rename(), so a reader such as node_exporter's textfile collector sees the old file or
 * the new one whole. The file is mode 0644. 0 or negative errno (logged). */
int bsdk_metrics_write_file(struct bsdk_metrics *m, const char *path);

/* Free the set; NULL is ignored. Stop its server first. */
void bsdk_metrics_free(struct bsdk_metrics *m);

/* One call for one map, or all of an object's maps (bsdk_metrics_add_obj()): a set made,
 * rendered to f with flags, and freed. 0 or negative errno. */
int bsdk_map_metrics_render(const struct bsdk_map *map, const struct bsdk_btf *btf,
			    const struct bsdk_metrics_opts *opts, unsigned int flags, FILE *f);
int bsdk_obj_metrics_render(const struct bsdk_obj *obj, const struct bsdk_metrics_opts *opts,
			    unsigned int flags, FILE *f);

/* A socket listening at addr for a metrics server: "ADDR:PORT", "[IPV6]:PORT", or ":PORT" and
 * "PORT" for 127.0.0.1 (loopback unless an address is named); port 0 takes a free one. The
 * file descriptor (close-on-exec), or negative errno, logged with what to change: -EINVAL for
 * an address that is not one or does not resolve, what bind() said (-EADDRINUSE...). */
int bsdk_metrics_listen(const char *addr);

/* The server that answers GET /metrics on that socket is bpfsdk_http.h's, in libbpfsdk-http.a. */

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* BPFSDK_H */
