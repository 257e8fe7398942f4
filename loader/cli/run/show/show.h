/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * show.h - what `bpfsdk run` shows, a room below its command files: records
 * as hex (hexdump.c) and decoded by BTF (decode.c), the maps that hold
 * results (mapview.c), and what an option naming something the object
 * lacks was close to (suggest.c). Uses only cli/common/ and the library.
 */
#ifndef BPFSDK_CLI_RUN_SHOW_H
#define BPFSDK_CLI_RUN_SHOW_H

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

/* ---- suggest.c: what the object has, for an option naming what it lacks.
 * Each writes into buf (and returns it) the text to append to the error:
 * "; did you mean 'NEAR'?" when a name is close, "" when none is; for maps
 * also " (its maps: A, B)". */
const char *cli_map_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);
const char *cli_global_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);
const char *cli_type_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size);

#endif /* BPFSDK_CLI_RUN_SHOW_H */
