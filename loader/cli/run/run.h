/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * run.h - the parts of `bpfsdk run` that each do one job, for its command
 * files (run.c, run_args.c, run_poll.c...): records as hex (hexdump.c) and
 * decoded by BTF (decode.c), the maps that hold results (mapview.c), the
 * CPU-clock event of perf_event programs (run_sampling.c), what an option
 * naming something the object lacks was close to (suggest.c), and the
 * programs and map sizes chosen before load (choose.c).
 */
#ifndef BPFSDK_CLI_RUN_H
#define BPFSDK_CLI_RUN_H

#include "cli/common/cli.h"

struct bsdk_obj;
struct bsdk_map;

/* ---- hexdump.c: records as text */

/* One line: "MAP CPU SIZE BYTES", BYTES as two lower-case hex digits per
 * byte in memory order, without separators (xxd -p style, easy to cut).
 * map must hold no blank or control byte (see record_map_label()). */
void record_print_hex(FILE *f, const char *map, int cpu, const void *data,
		      uint32_t size);
/* The same bytes alone, without a newline. */
void record_hex_bytes(FILE *f, const void *data, uint32_t size);
/* A copy of a map's name fit for the first field: blanks and control bytes
 * replaced with '?'. NULL on ENOMEM; free() it. */
char *record_map_label(const char *name);

/* ---- decode.c: records decoded by the object's BTF (bpfsdk run --format) */

enum record_format { RECORD_HEX, RECORD_TEXT, RECORD_JSON };

struct decode_cfg {
	enum record_format format;
	const char *const *types;	/* --type NAME or MAP=NAME, checked by decode_check_types() */
	size_t ntypes;
	bool timestamp;			/* --timestamp */
	const char *const *fields;	/* --field NAME=raw|addr|host, by decode_check_field() */
	size_t nfields;
	unsigned int btf_flags;		/* BSDK_BTF_DURATIONS, BSDK_BTF_NET (no --raw) */
	bool columns;			/* text may use columns (one stream only) */
};

struct decoder;

/* run's format when --format is not given: text when the record type of every
 * PERF_EVENT_ARRAY and RINGBUF map is known before its first record (BPFSDK_RECORD(), or
 * the variable the programs send, from DWARF), hex otherwise or with no such map. */
enum record_format decode_default_format(const struct bsdk_obj *obj);
/* --field NAME=raw|addr|host: 0, or EXIT_USAGE after one error line. */
int decode_check_field(const char *arg);
/* 0, or EXIT_USAGE after one error line: a --type naming no map or no type of obj. */
int decode_check_types(const struct bsdk_obj *obj, const struct decode_cfg *cfg);
/* The decoder of map's records (a PERF_EVENT_ARRAY or RINGBUF): the type BPFSDK_RECORD()
 * names, else the one --type gives, else chosen at the first record (the only named struct of
 * that size). NULL after one error line (an annotation naming no struct, out of memory). */
struct decoder *decoder_new(const struct bsdk_obj *obj, const struct bsdk_map *map,
			    const char *label, const struct decode_cfg *cfg);
/* Print one record to f. 0, or -1 after one error line: the record is shorter than its type. */
int decoder_record(struct decoder *d, FILE *f, int cpu, const void *data, uint32_t size);
/* The byte offset of FIELD, a u64 of the record type, for --sort-by; -1 after one error line. */
int decoder_field_offset(const struct decoder *d, const char *field);
/* Warnings to stderr: records longer than their type, undecodable parts. */
void decoder_report(const struct decoder *d);
void decoder_free(struct decoder *d);

/* ---- mapview.c: the maps that hold results, printed by their BTF */

struct mapview_cfg {
	enum record_format format;	/* hex is printed as text */
	const char *maps;		/* --maps NAME,...; NULL: the default set */
	size_t top;			/* --top N; 0: every entry */
	const char *unit;		/* --unit; NULL: from the map's name */
	bool per_cpu;			/* --per-cpu: per-CPU values one CPU at a time */
	bool clear;			/* --clear: empty the maps after each print */
	bool timestamp;			/* a time line (text) or "@time" (JSON) */
	bool metrics;			/* --metrics or --metrics-file serve the views */
	unsigned int btf_flags;		/* BSDK_BTF_NET (no --raw) */
};

struct mapviews;

/* The views of obj's maps (after load): the --maps ones, or, for an object that streams no
 * records, every hash and array map of .maps/maps (and .bss, .data); for one that streams, its
 * histograms, the others named on stderr as left out. 0 with *out set, or EXIT_USAGE /
 * EXIT_RUNTIME after one error line. */
int mapviews_new(const struct bsdk_obj *obj, const struct mapview_cfg *cfg,
		 struct mapviews **out);
size_t mapviews_count(const struct mapviews *mv);
/* The i-th viewed map, i < mapviews_count(). */
const struct bsdk_map *mapviews_map(const struct mapviews *mv, size_t i);
/* Print every view to f (then empty the maps with --clear). 0, or -1 after an error line. */
int mapviews_print(struct mapviews *mv, FILE *f);
void mapviews_free(struct mapviews *mv);

/* ---- run_sampling.c: a CPU-clock event for perf_event programs */

/* Before bsdk_obj_attach_prepare(): turn autoload off for the perf_event programs, which it
 * would leave out (they have no attach point of their own); the number held. */
int sampling_hold(struct bsdk_obj *obj);
/* After it: turn their autoload back on, so that load loads them. */
void sampling_release(struct bsdk_obj *obj);
/* After load: attach each loaded perf_event program to a CPU-clock sampling event at freq Hz
 * on every online CPU. The number of programs attached, or -1 after one error line. */
int sampling_attach(struct bsdk_obj *obj, unsigned int freq);

/* ---- suggest.c: what the object has, for an option naming what it lacks.
 * Each writes into buf (and returns it) the text to append to the error:
 * "; did you mean 'NEAR'?" when a name is close, "" when none is; for maps
 * also " (its maps: A, B)". */
const char *cli_map_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);
const char *cli_global_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);
const char *cli_type_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);

/* ---- choose.c: before loading, the programs chosen by name and the maps whose
 * size the object leaves to the tool */
struct choice {
	const char *glob;	/* fnmatch() pattern of program names */
	bool keep;		/* --program; false: --no-program */
};
/* The size run gives a hash, array, LRU or stack trace map whose
 * max_entries is 0 in the object (docs/bpfsdk-run.md says it). */
#define RUN_MAX_ENTRIES 10240u
/* The stack depth a stack trace map without a value size gets: the
 * kernel's default perf_event_max_stack. */
#define RUN_STACK_DEPTH 127u
/* At parse time: a usage error (EXIT_USAGE) for an empty glob or one with a
 * '[' never closed; for --max-entries not MAP=N, N from 1 to 2^32-1. */
int choose_check_glob(const char *cmd, const char *opt, const char *glob);
int choose_check_size(const char *cmd, const char *arg);
/* Turn autoload off for the programs not chosen (-v says each); a glob
 * that matches no program is a usage error: 0 or EXIT_USAGE. */
int choose_programs(struct bsdk_obj *obj, const struct choice *choices, size_t n);
/* Apply --max-entries, then give the default to every hash, array, LRU
 * and stack trace map still at 0 (-v says each): 0 or EXIT_USAGE (a map
 * the object does not have). */
int choose_map_sizes(struct bsdk_obj *obj, const char **sizes, size_t n);

#endif /* BPFSDK_CLI_RUN_H */
