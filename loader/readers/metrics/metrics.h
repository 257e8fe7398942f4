/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * metrics.h - what metrics.c (a map as Prometheus metrics) shares with the
 * HTTP server beside it and with its unit test: a map's plan made from its
 * BTF, and the rendering of entries read elsewhere, so that the format is
 * tested on made-up keys and values without a kernel.
 */
#ifndef BPFSDK_METRICS_H
#define BPFSDK_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpfsdk.h"

/* What a map is, for its plan: the map's own numbers, or made up by a test. */
struct mplan_map {
	const char *name;		/* the map's name: the family's, after the prefix */
	const char *object;		/* the object label's value; NULL or "": none */
	const struct bsdk_btf *btf;	/* NULL: no BTF (keys and values by size) */
	uint32_t key_type, value_type;	/* BTF IDs, 0: none */
	uint32_t key_size, value_size;
	bool keyed;			/* false: one entry, no key labels (an array of 1) */
	bool skip_zero;			/* leave out entries whose value is all zero (arrays) */
	int ncpus;			/* per-CPU map: values of each CPU, round_up(value_size, 8)
					 * apart; 0: one value */
};

/* The plan of one map (metrics.c makes it, metrics_text.c writes by it). */
#define MAX_LABELS 32
#define MAX_VALUES 32

/* LAB_NET: an address or a big-endian integer (bsdk_btf_member_view()), member `member` of
 * the struct type_id that starts at byte `base` of the key */
enum lab_kind { LAB_UINT, LAB_INT, LAB_ENUM, LAB_STR, LAB_HEX, LAB_NET };

struct label {
	char *name;
	uint32_t off, size, type_id;	/* type_id: the enum, for its enumerator names */
	uint32_t base, member;		/* LAB_NET */
	enum lab_kind kind;
};

struct vfield {
	char *member;		/* the value's member, NULL for an integer value */
	char *name;		/* the family: a counter's without "_total" */
	uint32_t off, size;
	bool is_signed;
};

struct mplan {
	struct mplan_map m;
	char *object;
	char *family;		/* PREFIX_MAP, without the unit a histogram's name says */
	char *hist_family;	/* the histogram's: family_seconds for times */
	char *map_name;
	bool gauge;
	bool per_cpu;		/* a cpu label per CPU instead of the sum */
	size_t max_keys;
	struct label labels[MAX_LABELS];
	size_t nlabels;
	bool hist;
	uint32_t slots_off, slots_n, slots_size;
	bool has_sum;
	struct vfield sum;
	unsigned int digits;	/* le and sum are raw / 10^digits (usecs: 6) */
	const char *unit;	/* "seconds", "bytes" or NULL, for HELP */
	struct vfield vals[MAX_VALUES];
	size_t nvals;
	char **families;	/* every family name written, for duplicate checks */
	size_t nfamilies;
};



/* The plan of a map under opts (prefix, gauges, max_series, BSDK_METRICS_PER_CPU): NULL with
 * errno ENOMEM, or EINVAL when the map has nothing to export (the reason logged as a
 * warning). Problems that leave part of it out (a union or array in the key, a value member
 * that is no integer) are one warning each. */
struct mplan *mplan_new(const struct mplan_map *map, const struct bsdk_metrics_opts *opts);
void mplan_free(struct mplan *p);
/* The families' names the plan writes, for a check that two maps do not write the same. */
size_t mplan_family_count(const struct mplan *p);
const char *mplan_family(const struct mplan *p, size_t i);

/* Render n entries: keys[i] (key_size bytes) with vals[i] (value_size bytes, or ncpus values
 * for a per-CPU map), in any order (they are sorted by their key bytes). 0, or -ENOMEM. */
int mplan_render(const struct mplan *p, const unsigned char *const *keys,
		 const unsigned char *const *vals, size_t n, unsigned int flags, FILE *f);

/* Text built in memory (metrics_text.c): appends that cannot fail, a failed growth remembered
 * in oom; p is malloc()ed, the caller frees it. */
struct mtext {
	char *p;
	size_t len, cap;
	bool oom;
};

bool mtext_room(struct mtext *t, size_t n);	/* room for n more bytes: false when none */
void mtext_put(struct mtext *t, const char *s);
void mtext_u64(struct mtext *t, uint64_t v);
/* s as a label value: \\, " and newline escaped, bytes that are not UTF-8 as U+FFFD. */
void mtext_escape(struct mtext *t, const char *s);

/* mplan_render() appended to t: 0, or -ENOMEM (t->oom). */
int mplan_render_text(const struct mplan *p, const unsigned char *const *keys,
		      const unsigned char *const *vals, size_t n, unsigned int flags,
		      struct mtext *t);

/* The decimal of v / 10^digits, exactly ("0.000001" for 1 with 6 digits), trailing zeros cut.
 * buf holds at least 32 bytes. */
void metrics_decimal(uint64_t v, unsigned int digits, char *buf);

#endif /* BPFSDK_METRICS_H */
