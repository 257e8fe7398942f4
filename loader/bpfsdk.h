/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpfsdk.h - the public API of the bpfsdk loader library.
 *
 * The library takes a BPF ELF object as clang writes it, creates its maps,
 * relocates and loads its programs, attaches them by section name, and reads
 * what they send with bpf_perf_event_output() out of per-CPU perf rings.
 *
 * The API reads like a table of contents: every name is bsdk_ + object + verb.
 *
 *   bsdk_obj_*      an opened ELF object and the programs and maps inside it
 *   bsdk_prog_*     one BPF program (one ELF section of executable code)
 *   bsdk_map_*      one BPF map
 *   bsdk_link_*     an attachment of a program to a hook
 *   bsdk_perfbuf_*  the per-CPU consumer of a BPF_MAP_TYPE_PERF_EVENT_ARRAY
 *   bsdk_ringbuf_*  the consumer of a BPF_MAP_TYPE_RINGBUF
 *
 * Errors: functions returning int return 0 (or a count) on success and a
 * negative errno on failure; functions returning a pointer return NULL and set
 * errno. Besides the system's errno values the library uses the BSDK_E* codes
 * below; bsdk_strerror() names both. A human-readable message explaining the
 * failure is always sent through the log hook (bsdk_set_log()) before the
 * function returns; the library itself never prints.
 *
 * Types are opaque; their layout lives in the .c files.
 */
#ifndef BPFSDK_H
#define BPFSDK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
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

/* Receives each message, one line without a trailing newline. */
typedef void (*bsdk_log_fn)(enum bsdk_log_level level, const char *msg,
			    void *ctx);

/* Send the library's messages to fn (NULL restores the default, which writes
 * "error: ", "warning: " or nothing before the message to stderr). */
void bsdk_set_log(bsdk_log_fn fn, void *ctx);

/* Messages above this level are dropped before formatting. Default:
 * BSDK_LOG_WARN. Returns the previous level. */
enum bsdk_log_level bsdk_set_log_level(enum bsdk_log_level level);

/* -------------------------------------------------------------- the system */

/* Number of possible CPUs (/sys/devices/system/cpu/possible): the size of
 * per-CPU maps and of a PERF_EVENT_ARRAY with one slot per CPU. Negative
 * errno on failure. */
int bsdk_cpu_possible_count(void);

/* Whether CPU cpu is online now. */
bool bsdk_cpu_is_online(int cpu);

/* Mount tracefs on /sys/kernel/tracing and bpffs on /sys/fs/bpf when they
 * are not mounted yet. 0 or negative errno. */
int bsdk_mount_fs(void);

/* Try to lift RLIMIT_MEMLOCK for kernels that charge BPF memory to it.
 * Kernels with memcg accounting refuse or ignore this, which is harmless:
 * the result is only logged at debug level. */
void bsdk_bump_memlock(void);

/* ------------------------------------------------------------------ object */

struct bsdk_obj;
struct bsdk_prog;
struct bsdk_map;
struct bsdk_link;

/* Open the ELF object at path: parse sections, symbols, license, version,
 * BTF, maps and programs, and check every relocation. Nothing is created in
 * the kernel yet. NULL with errno on failure; the log says why. */
struct bsdk_obj *bsdk_obj_open(const char *path);

/* The same from memory. name is used in messages (may be NULL). The buffer
 * is copied; the caller may free it after the call. */
struct bsdk_obj *bsdk_obj_open_mem(const void *buf, size_t size,
				   const char *name);

/* Create the maps, relocate and load every program whose autoload is on.
 * On failure nothing stays loaded. 0 or negative errno; a verifier rejection
 * is -BSDK_EVERIFIER with the log sent at error level. */
int bsdk_obj_load(struct bsdk_obj *obj);

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
struct bsdk_prog *bsdk_obj_prog_next(const struct bsdk_obj *obj,
				     const struct bsdk_prog *prev);
struct bsdk_map *bsdk_obj_map_next(const struct bsdk_obj *obj,
				   const struct bsdk_map *prev);

/* Find by name (the C function name / the map variable name); NULL with
 * errno ENOENT when absent. */
struct bsdk_prog *bsdk_obj_prog_find(const struct bsdk_obj *obj,
				     const char *name);
struct bsdk_map *bsdk_obj_map_find(const struct bsdk_obj *obj,
				   const char *name);

/* ------------------------------------------------------------------ program */

const char *bsdk_prog_name(const struct bsdk_prog *prog);
const char *bsdk_prog_section(const struct bsdk_prog *prog);
/* enum bpf_prog_type chosen from the section name. */
int bsdk_prog_type(const struct bsdk_prog *prog);
/* Readable name of the type, e.g. "tracepoint". */
const char *bsdk_prog_type_name(const struct bsdk_prog *prog);
/* What the section name says to attach to, e.g. "syscalls/sys_enter_write"
 * for "tracepoint/syscalls/sys_enter_write"; "" when nothing. */
const char *bsdk_prog_attach_target(const struct bsdk_prog *prog);
/* Instructions in the program's own section (before subprograms are
 * appended). */
size_t bsdk_prog_insn_count(const struct bsdk_prog *prog);
/* The fd after bsdk_obj_load(), -1 before or when not loaded. */
int bsdk_prog_fd(const struct bsdk_prog *prog);
/* Choose before bsdk_obj_load() whether this program is loaded (default:
 * true). A sample with a kprobe and a tracepoint variant of one program
 * loads only the one the running kernel supports. */
int bsdk_prog_set_autoload(struct bsdk_prog *prog, bool autoload);
bool bsdk_prog_autoload(const struct bsdk_prog *prog);

/* Attach the loaded program where its section name says. The link stays
 * owned by the caller; bsdk_obj_close() destroys links not yet destroyed.
 * NULL with errno; -BSDK_ENOPROBE when the probe point does not exist and
 * -BSDK_ENOTSUPP when the kernel lacks that kind of probe (e.g. no kprobes),
 * each with a message naming the target. */
struct bsdk_link *bsdk_prog_attach(struct bsdk_prog *prog);

/* Whether the running kernel can attach this program's kind of probe
 * (kprobes: /sys/kernel/tracing/kprobe_events or the kprobe PMU exist). */
bool bsdk_prog_attach_supported(const struct bsdk_prog *prog);

/* Detach and free. NULL is ignored. */
void bsdk_link_destroy(struct bsdk_link *link);

/* --------------------------------------------------------------------- map */

const char *bsdk_map_name(const struct bsdk_map *map);
/* enum bpf_map_type */
int bsdk_map_type(const struct bsdk_map *map);
uint32_t bsdk_map_key_size(const struct bsdk_map *map);
uint32_t bsdk_map_value_size(const struct bsdk_map *map);
uint32_t bsdk_map_max_entries(const struct bsdk_map *map);
/* Where the definition came from: ".maps", "maps", ".rodata", ".data",
 * ".bss". */
const char *bsdk_map_origin(const struct bsdk_map *map);
/* The fd after bsdk_obj_load(), -1 before. */
int bsdk_map_fd(const struct bsdk_map *map);
/* Override max_entries before load. */
int bsdk_map_set_max_entries(struct bsdk_map *map, uint32_t max_entries);

/* ------------------------------------------------------------- perf buffer */

struct bsdk_perfbuf;

/* One record a BPF program sent with bpf_perf_event_output(). data is valid
 * only during the call. */
typedef void (*bsdk_perfbuf_sample_fn)(void *ctx, int cpu, const void *data,
				       uint32_t size);
/* The kernel overwrote nothing but had to drop count records on cpu because
 * the ring was full (PERF_RECORD_LOST). */
typedef void (*bsdk_perfbuf_lost_fn)(void *ctx, int cpu, uint64_t count);

struct bsdk_perfbuf_opts {
	size_t sz;               /* sizeof(struct bsdk_perfbuf_opts) */
	unsigned int pages;      /* data pages per CPU, a power of two; 0: 64 */
	bsdk_perfbuf_sample_fn on_sample;
	bsdk_perfbuf_lost_fn on_lost;   /* may be NULL: losses still counted */
	void *ctx;               /* passed to both callbacks */
};

struct bsdk_perfbuf_stats {
	uint64_t received;       /* samples handed to on_sample */
	uint64_t lost;           /* sum of PERF_RECORD_LOST counts */
	uint64_t unknown;        /* records of other types, skipped */
};

/* Open one PERF_COUNT_SW_BPF_OUTPUT event per online CPU, store each into
 * slot cpu of the PERF_EVENT_ARRAY map_fd, mmap its ring and register it
 * with an epoll set. NULL with errno on failure. */
struct bsdk_perfbuf *bsdk_perfbuf_new(int map_fd,
				      const struct bsdk_perfbuf_opts *opts);

/* Wait up to timeout_ms (-1: forever) for records, then consume every ready
 * record of every CPU. Returns the number of records consumed, or negative
 * errno; -EINTR when a signal arrived (not an error for a caller that
 * stops on Ctrl-C). */
int bsdk_perfbuf_poll(struct bsdk_perfbuf *pb, int timeout_ms);

/* Consume every ready record of every CPU without waiting. */
int bsdk_perfbuf_consume(struct bsdk_perfbuf *pb);

/* The epoll fd, to embed the buffer in the caller's own event loop. */
int bsdk_perfbuf_epoll_fd(const struct bsdk_perfbuf *pb);

void bsdk_perfbuf_stats(const struct bsdk_perfbuf *pb,
			struct bsdk_perfbuf_stats *stats);

/* Unmap, close the events; NULL is ignored. */
void bsdk_perfbuf_free(struct bsdk_perfbuf *pb);

#ifdef __cplusplus
}
#endif
#endif /* BPFSDK_H */
