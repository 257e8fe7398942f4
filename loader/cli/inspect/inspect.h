/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * inspect.h - what the files of `bpfsdk inspect` share: the warnings
 * (inspect.c), the words for helpers and CO-RE states (inspect_names.c),
 * the text output (inspect_text.c) and the JSON output (inspect_json.c).
 */
#ifndef BPFSDK_CLI_INSPECT_H
#define BPFSDK_CLI_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "bpfsdk.h"

/* Warnings are gathered first: the text and the JSON output print them in
 * their own places. */
struct warnings {
	char **msgs;
	size_t count;
};

/* ---- inspect_names.c */

/* "bpf_perf_event_output" or, for a helper newer than our UAPI header,
 * "helper 212": buf when it holds the label. */
const char *helper_label(int id, char *buf, size_t size);

/* A CO-RE relocation's state in words, indexed by enum bsdk_core_state. */
extern const char *const co_re_states[4];

/* ---- inspect_records.c */

/* Whether map streams records: a PERF_EVENT_ARRAY or a RINGBUF. */
bool inspect_streams(const struct bsdk_map *map);
/* The record type bpfsdk run will use for map (*t) and where it comes from, in words (src):
 * "annotation: BPFSDK_RECORD()", "DWARF local 'e' of prog", "size rule, at the first record",
 * "none: ...". 0, or the error the words say (r NULL: out of memory). */
int inspect_record(const struct bsdk_obj *obj, struct bsdk_records *r,
		   const struct bsdk_map *map, struct bsdk_record_type *t, char *src, size_t size);

/* How bpfsdk run shows the record type's members (docs/bpfsdk-run.md, "Addresses and
 * ports"), each a ", "-separated list of names: addresses; big-endian members shown in host
 * order; members named like an address or a port (*addr*, *port*) that neither the BTF nor
 * the programs' stores classify, shown as stored. */
struct record_fields {
	char addr[256], host[256], unknown[256];
};
/* 0, or -ENOMEM. */
int inspect_record_fields(struct bsdk_records *r, const struct bsdk_map *map,
			  const struct bsdk_record_type *t, struct record_fields *out);

/* ---- inspect_text.c */

/* Everything in tables on stdout; 0, or -1 on ENOMEM (not said). */
int inspect_print_text(const struct bsdk_obj *obj, const struct warnings *w);

/* ---- inspect_json.c */

void inspect_print_json(const struct bsdk_obj *obj, const struct warnings *w);

/* With --json, the library's messages still go to stderr, and the first
 * error is kept for the JSON document that reports the failure. */
extern char json_first_error[1024];
void json_log(enum bsdk_log_level level, const char *msg, void *ctx);
/* {"object": PATH, "error": MSG} on stdout: inspect --json failed. */
void print_json_error(const char *path, const char *msg);

#endif /* BPFSDK_CLI_INSPECT_H */
