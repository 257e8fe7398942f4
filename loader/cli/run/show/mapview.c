// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mapview.c - `bpfsdk run`'s map views: the maps that hold a program's
 * results, printed by their BTF when the run ends and every --interval.
 *
 * A map whose value holds an array of integers named "slots" - BCC's
 * convention for log2 histograms, by bsdk_hist_slots(), the rule the
 * metrics follow too - is drawn as the library's log2 chart, one per key; every other map is a key -> value table sorted by the value
 * (its first integer member for a struct), largest first. Per-CPU values
 * are summed member by member (integers, and arrays of them), or shown one
 * CPU at a time with --per-cpu. --clear empties the maps after each print,
 * so that each interval shows only its own events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "bpfsdk.h"
#include "cli/run/show/show.h"

/* Bytes of a value that are integers to add across CPUs. */
struct span {
	uint32_t off, size, count;	/* count integers of size bytes from off */
};

struct view {
	const struct bsdk_map *map;
	uint32_t key_type, value_type;	/* 0: no BTF, hex */
	bool percpu, is_array;
	bool datasec;			/* a global data section's map: one value, its variables */
	uint32_t key_size, value_size;
	size_t buf_size;		/* one lookup's value buffer */
	int ncpus;
	struct span spans[32];
	size_t nspans;
	/* the histogram: an integer array "slots" in the value */
	bool hist;
	uint32_t slots_off, slots_n, slots_size;
	const char *unit;
	/* the table's sort key: an integer at sort_off (sort_size bytes) */
	uint32_t sort_off, sort_size;
	char *label;			/* the name, fit for text */
	char *json_name;		/* the name as a JSON string */
};

struct mapviews {
	const struct bsdk_obj *obj;
	const struct bsdk_btf *btf;
	const struct mapview_cfg *cfg;
	struct view *views;
	size_t nviews;
};

static bool viewable_type(int type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH: case BPF_MAP_TYPE_ARRAY: case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY: case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return true;
	default:
		return false;
	}
}

static bool is_result_map(const struct bsdk_map *map)
{
	const char *origin = bsdk_map_origin(map);

	return viewable_type(bsdk_map_type(map)) &&
	       (strcmp(origin, ".maps") == 0 || strcmp(origin, "maps") == 0);
}

/* A global data section's value: its variables, as BTF lays them out. */
static bool is_datasec(const struct mapviews *mv, uint32_t type)
{
	struct bsdk_btf_info info;

	return mv->btf && type && !bsdk_btf_info(mv->btf, type, NULL, &info) &&
	       info.kind == BTF_KIND_DATASEC;
}

/* The variables the programs write: .bss, .data and .data.NAME, when BTF names them. */
static bool is_result_data(const struct mapviews *mv, const struct bsdk_map *map)
{
	const char *origin = bsdk_map_origin(map);

	return is_datasec(mv, bsdk_map_btf_value_type(map)) &&
	       (strcmp(origin, ".bss") == 0 || strcmp(origin, ".data") == 0 ||
		strncmp(origin, ".data.", 6) == 0);
}

static bool is_stream(const struct bsdk_map *map)
{
	return bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	       bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF;
}

static void add_span(struct view *v, uint64_t off, uint64_t size, uint64_t count)
{
	if (v->nspans < sizeof(v->spans) / sizeof(v->spans[0]) &&
	    off + size * count <= v->value_size)
		v->spans[v->nspans++] = (struct span){ (uint32_t)off, (uint32_t)size,
						       (uint32_t)count };
}

/* What the value's BTF says: the spans to add, the histogram, the sort key. */
static bool is_slots(const struct view *v, const struct bsdk_btf_info *m)
{
	return v->hist && m->offset == v->slots_off && strcmp(m->member, "slots") == 0;
}

static void describe_value(struct mapviews *mv, struct view *v)
{
	struct bsdk_hist_slots slots;
	struct bsdk_btf_info info, m;

	if (!v->value_type || bsdk_btf_info(mv->btf, v->value_type, NULL, &info) ||
	    info.size != v->value_size)
		return;
	if (bsdk_btf_is_int(&info)) {
		add_span(v, 0, info.size, 1);
		v->sort_size = (uint32_t)info.size;
		return;
	}
	if (bsdk_btf_is_int_array(mv->btf, &info)) {
		add_span(v, 0, info.elem_size, info.nelems);
		return;
	}
	/* the histogram, by the metrics' rule too */
	if (bsdk_hist_slots(mv->btf, v->value_type, v->value_size, &slots)) {
		v->hist = true;
		v->slots_off = slots.off;
		v->slots_n = slots.n;
		v->slots_size = slots.size;
	}
	/* its slots' span first: a value with more integers than spans still sums its chart
	 * over the CPUs */
	for (int pass = 0; pass < 2 && info.kind == BTF_KIND_STRUCT; pass++)
		for (uint32_t i = 0; bsdk_btf_member(mv->btf, v->value_type, i, &m) == 0; i++) {
			if (is_slots(v, &m) != (pass == 0))
				continue;
			if (bsdk_btf_is_int(&m)) {
				add_span(v, m.offset, m.size, 1);
				if (!v->sort_size) {
					v->sort_off = (uint32_t)m.offset;
					v->sort_size = (uint32_t)m.size;
				}
			} else if (bsdk_btf_is_int_array(mv->btf, &m)) {
				add_span(v, m.offset, m.elem_size, m.nelems);
			}
		}
}

static int add_view(struct mapviews *mv, const struct bsdk_map *map)
{
	struct view *v = &mv->views[mv->nviews++];

	v->map = map;
	v->label = record_map_label(bsdk_map_name(map));
	v->json_name = json_quote(bsdk_map_name(map));
	if (!v->label || !v->json_name) {
		cli_error("out of memory");
		return -1;
	}
	v->key_size = bsdk_map_key_size(map);
	v->value_size = bsdk_map_value_size(map);
	v->percpu = bsdk_map_is_percpu(map);
	v->is_array = bsdk_map_type(map) == BPF_MAP_TYPE_ARRAY ||
		      bsdk_map_type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	v->buf_size = bsdk_map_value_buf_size(map);
	v->ncpus = v->percpu ? bsdk_cpu_possible_count() : 1;
	if (!v->buf_size || v->ncpus <= 0) {
		cli_error("map '%s': cannot size its values: %s", bsdk_map_name(map),
			  strerror(errno));
		return -1;
	}
	if (mv->btf) {
		v->key_type = bsdk_map_btf_key_type(map);
		v->value_type = bsdk_map_btf_value_type(map);
	}
	v->datasec = is_datasec(mv, v->value_type);
	describe_value(mv, v);
	v->unit = mv->cfg->unit;
	if (!v->unit)
		v->unit = bsdk_hist_unit(bsdk_map_name(map), NULL, NULL);
	if (!v->unit && v->value_type) {
		struct bsdk_btf_info info;

		if (!bsdk_btf_info(mv->btf, v->value_type, NULL, &info))
			v->unit = bsdk_hist_unit(info.name, NULL, NULL);
	}
	if (!v->unit)
		v->unit = "value";
	return 0;
}

/* The maps shown without --maps. An object that does not stream records
 * keeps its results in its hash and array maps and its .bss and .data: all
 * of them. One that streams keeps its working state there (the start time
 * of each pending event): only its histograms (a "slots" array) are
 * results, and the maps left out are named once, with the option that
 * shows them, since --metrics serves what is shown. 0, or -1 after an
 * error line. */
static int default_views(struct mapviews *mv, bool streams)
{
	const struct bsdk_map *map = NULL;
	char left[512] = "";
	size_t len = 0, nleft = 0;

	while ((map = bsdk_obj_map_next(mv->obj, map))) {
		struct view *v;

		if (!is_result_map(map) && !is_result_data(mv, map))
			continue;
		if (add_view(mv, map))
			return -1;
		v = &mv->views[mv->nviews - 1];
		if (!streams || v->hist)
			continue;
		if (len < sizeof(left))
			len += (size_t)snprintf(left + len, sizeof(left) - len, "%s'%s'",
						nleft ? ", " : "", v->label);
		nleft++;
		free(v->json_name);
		free(v->label);
		memset(v, 0, sizeof(*v));
		mv->nviews--;
	}
	if (nleft)
		fprintf(stderr, "note: not shown at the end%s: map%s %s, taken for the working state of an object that streams records (--maps NAME,... shows %s)\n",
			mv->cfg->metrics ? " nor served by --metrics" : "", nleft == 1 ? "" : "s",
			left, nleft == 1 ? "it" : "them");
	return 0;
}

int mapviews_new(const struct bsdk_obj *obj, const struct mapview_cfg *cfg,
		 struct mapviews **out)
{
	struct mapviews *mv = calloc(1, sizeof(*mv));
	const struct bsdk_map *map = NULL;
	bool streams = false;
	size_t n = 0;

	*out = NULL;
	if (!mv) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	mv->obj = obj;
	mv->cfg = cfg;
	mv->btf = bsdk_obj_btf(obj);
	while ((map = bsdk_obj_map_next(obj, map))) {
		n++;
		streams |= is_stream(map);
	}
	mv->views = calloc(n ? n : 1, sizeof(*mv->views));
	if (!mv->views) {
		free(mv);
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	if (cfg->maps) {
		/* --maps a,b,c: each must be a result map of the object */
		char *list = strdup(cfg->maps), *save = NULL;

		if (!list) {
			mapviews_free(mv);
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			map = bsdk_obj_map_find(obj, name);
			if (!map || !viewable_type(bsdk_map_type(map))) {
				char hint[512];

				if (!map)
					cli_error("--maps %s: '%s' has no map '%s'%s", cfg->maps,
						  bsdk_obj_name(obj), name,
						  cli_map_hint(obj, name, hint, sizeof(hint)));
				else
					cli_error("--maps %s: map '%s' is a %s, not a hash or array map of results",
						  cfg->maps, name, bpf_map_type_str(bsdk_map_type(map)));
				free(list);
				mapviews_free(mv);
				return EXIT_USAGE;
			}
			if (mv->nviews < n && add_view(mv, map)) {
				free(list);
				mapviews_free(mv);
				return EXIT_RUNTIME;
			}
		}
		free(list);
	} else if (default_views(mv, streams)) {
		mapviews_free(mv);
		return EXIT_RUNTIME;
	}
	*out = mv;
	return 0;
}

size_t mapviews_count(const struct mapviews *mv) { return mv ? mv->nviews : 0; }
const struct bsdk_map *mapviews_map(const struct mapviews *mv, size_t i) { return mv->views[i].map; }

/* ---- reading */

/* An element of a map's snapshot (bsdk_map_snapshot(), the metrics' reader too). */
struct entry {
	const unsigned char *key;	/* in the snapshot */
	const unsigned char *cpus;	/* in the snapshot: all CPUs' values, buf_size bytes */
	unsigned char *value;		/* the value summed over CPUs (per-CPU maps, malloc'ed),
					 * else cpus */
	uint64_t sort;
};

static uint64_t read_uint(const unsigned char *p, uint32_t size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);	/* little-endian hosts */
	return v;
}

static void add_uint(unsigned char *dst, const unsigned char *src, uint32_t size)
{
	uint64_t a = read_uint(dst, size) + read_uint(src, size);

	memcpy(dst, &a, size);
}

static void sum_cpus(const struct view *v, unsigned char *dst, const unsigned char *cpus)
{
	memcpy(dst, cpus, v->value_size);
	for (int c = 1; c < v->ncpus; c++) {
		const unsigned char *src = BSDK_PERCPU_VALUE(cpus, v->value_size, c);

		for (size_t s = 0; s < v->nspans; s++)
			for (uint32_t i = 0; i < v->spans[s].count; i++) {
				uint32_t off = v->spans[s].off + i * v->spans[s].size;

				add_uint(dst + off, src + off, v->spans[s].size);
			}
	}
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static int cmp_entries(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->sort < y->sort ? 1 : x->sort > y->sort ? -1 : 0;
}

static void free_entries(const struct view *v, struct entry *e, size_t n)
{
	for (size_t i = 0; v->percpu && i < n; i++)
		free(e[i].value);
	free(e);
}

/* Every element of the map (arrays: the non-zero ones), summed over CPUs, read into *snap.
 * The number read, or -1 after an error line. */
static long read_entries(const struct view *v, struct bsdk_map_snapshot *snap,
			 struct entry **out)
{
	const char *name = bsdk_map_name(v->map);
	struct entry *e;
	size_t n = 0;
	int err;

	*out = NULL;
	err = bsdk_map_snapshot(v->map, snap);
	if (err) {
		cli_error_unless_logged("map '%s': cannot read: %s", name, bsdk_strerror(err));
		return -1;
	}
	if (snap->value_size != v->buf_size || snap->key_size != v->key_size) {
		cli_error("map '%s': read %zu-byte keys and %zu-byte values, not %u and %zu", name,
			  snap->key_size, snap->value_size, v->key_size, v->buf_size);
		return -1;
	}
	e = calloc(snap->n ? snap->n : 1, sizeof(*e));
	if (!e)
		goto nomem;
	for (size_t i = 0; i < snap->n; i++) {
		struct entry *x = &e[n];

		x->cpus = snap->values + i * snap->value_size;
		if (v->is_array && !v->datasec && all_zero(x->cpus, v->buf_size))
			continue;
		x->key = snap->keys + i * snap->key_size;
		if (v->percpu) {
			if (!(x->value = malloc(v->value_size)))
				goto nomem;
			sum_cpus(v, x->value, x->cpus);
		} else {
			x->value = (unsigned char *)x->cpus;
		}
		x->sort = v->sort_size ? read_uint(x->value + v->sort_off, v->sort_size) : 0;
		n++;
	}
	*out = e;
	return (long)n;
nomem:
	cli_error("out of memory");
	if (e)
		free_entries(v, e, n);
	return -1;
}

/* ---- printing */

/* The bytes as a value of type (hex without BTF), in a malloc'ed string:
 * a struct's members as "a=1 b=2" in text. */
static char *format(const struct mapviews *mv, uint32_t type, const void *data, size_t size,
		    enum bsdk_btf_format fmt)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	struct bsdk_btf_info info;

	if (!f)
		return NULL;
	if (!type) {
		fputs(fmt == BSDK_BTF_JSON ? "\"0x" : "0x", f);
		record_hex_bytes(f, data, (uint32_t)size);
		if (fmt == BSDK_BTF_JSON)
			fputc('"', f);
	} else if (fmt == BSDK_BTF_TEXT && !bsdk_btf_info(mv->btf, type, NULL, &info) &&
		   (info.kind == BTF_KIND_STRUCT || info.kind == BTF_KIND_UNION ||
		    info.kind == BTF_KIND_DATASEC)) {
		bsdk_btf_print(mv->btf, type, data, size, fmt,
			       BSDK_BTF_MEMBERS | mv->cfg->btf_flags, f);
	} else {
		bsdk_btf_print(mv->btf, type, data, size, fmt, mv->cfg->btf_flags, f);
	}
	if (fclose(f))
		return NULL;
	/* members start with their separator */
	if (s && s[0] == ' ')
		memmove(s, s + 1, strlen(s));
	return s;
}

static void print_json_entry(const struct mapviews *mv, const struct view *v, FILE *f,
			     const struct entry *e, const unsigned char *value, int cpu,
			     const char *time)
{
	/* a data section's one key is no more than its index 0 */
	char *key = v->datasec ? strdup("0") :
		    format(mv, v->key_type, e->key, v->key_size, BSDK_BTF_JSON);
	char *val = format(mv, v->value_type, value, v->value_size, BSDK_BTF_JSON);

	fprintf(f, "{\"@map\":%s", v->json_name);
	if (cpu >= 0)
		fprintf(f, ",\"@cpu\":%d", cpu);
	if (time)
		fprintf(f, ",\"@time\":%s", time);
	fprintf(f, ",\"key\":%s,\"value\":%s}\n", key ? key : "null", val ? val : "null");
	free(key);
	free(val);
}

static void print_hist(const struct mapviews *mv, const struct view *v, FILE *f,
		       const struct entry *e, const unsigned char *value, int cpu)
{
	uint64_t slots[64] = { 0 };
	uint32_t n = v->slots_n < 64 ? v->slots_n : 64;
	bool keyed = !(v->is_array && bsdk_map_max_entries(v->map) == 1);

	for (uint32_t i = 0; i < n; i++)
		slots[i] = read_uint(value + v->slots_off + i * v->slots_size, v->slots_size);
	fprintf(f, "%s", v->label);
	if (keyed) {
		char *key = format(mv, v->key_type, e->key, v->key_size, BSDK_BTF_TEXT);

		fprintf(f, " %s", key ? key : "?");
		free(key);
	}
	if (cpu >= 0)
		fprintf(f, " cpu %d", cpu);
	fputs(":\n", f);
	if (!bsdk_hist_print_log2(f, slots, n, v->unit))
		fputs("    (no counts)\n", f);
}

static void print_table(const struct mapviews *mv, const struct view *v, FILE *f,
			struct entry *e, size_t n)
{
	static const char *const headers[] = { "CPU", "KEY", "VALUE" };
	bool per_cpu = v->percpu && mv->cfg->per_cpu;
	struct table *t;

	if (v->datasec && n == 1) {	/* one value: its variables, no key */
		char *s = format(mv, v->value_type, e[0].value, v->value_size, BSDK_BTF_TEXT);

		fprintf(f, "%s:\n  %s\n", v->label, s ? s : "?");
		free(s);
		return;
	}
	t = table_new(per_cpu ? headers : headers + 1, per_cpu ? 3 : 2, per_cpu ? "rll" : "ll");
	if (!t) {
		cli_error("out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *key = format(mv, v->key_type, e[i].key, v->key_size, BSDK_BTF_TEXT);

		for (int c = 0; c < (per_cpu ? v->ncpus : 1); c++) {
			const unsigned char *val = per_cpu ?
				BSDK_PERCPU_VALUE(e[i].cpus, v->value_size, c) : e[i].value;
			char *s = format(mv, v->value_type, val, v->value_size, BSDK_BTF_TEXT);

			if (per_cpu)
				table_cell(t, "%d", c);
			table_cell(t, "%s", key ? key : "?");
			table_cell(t, "%s", s ? s : "?");
			free(s);
		}
		free(key);
	}
	fprintf(f, "%s:\n", v->label);
	if (table_print(t, f, 2))
		cli_error("map '%s': out of memory: its view is left out", v->label);
	table_free(t);
}

static void clear_entries(const struct view *v, const struct entry *e, size_t n)
{
	unsigned char *zero = v->is_array ? calloc(1, v->buf_size) : NULL;

	if (v->is_array && !zero)
		return;
	for (size_t i = 0; i < n; i++) {
		if (v->is_array)
			bsdk_map_update_elem(v->map, e[i].key, v->key_size, zero, v->buf_size,
					     BPF_ANY);
		else
			bsdk_map_delete_elem(v->map, e[i].key, v->key_size, 0);
	}
	free(zero);
}

int mapviews_print(struct mapviews *mv, FILE *f)
{
	const struct mapview_cfg *cfg = mv->cfg;
	bool json = cfg->format == RECORD_JSON;
	char time[40], *tp = NULL;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (cfg->timestamp) {
		struct tm tm;

		if (json) {
			snprintf(time, sizeof(time), "%lld.%06ld", (long long)ts.tv_sec,
				 ts.tv_nsec / 1000);
			tp = time;
		} else {
			localtime_r(&ts.tv_sec, &tm);
			strftime(time, sizeof(time), "%H:%M:%S", &tm);
			fprintf(f, "%s\n", time);
		}
	}
	for (size_t i = 0; i < mv->nviews; i++) {
		struct view *v = &mv->views[i];
		struct bsdk_map_snapshot snap;
		struct entry *e;
		long n = read_entries(v, &snap, &e);
		size_t shown;

		if (n < 0) {
			bsdk_map_snapshot_free(&snap);
			return -1;
		}
		if (!v->hist && v->sort_size && n > 0)	/* qsort() wants an array, even of 0 */
			qsort(e, (size_t)n, sizeof(*e), cmp_entries);
		shown = cfg->top && cfg->top < (size_t)n ? cfg->top : (size_t)n;
		for (size_t k = 0; json && k < shown; k++) {
			if (v->percpu && cfg->per_cpu)
				for (int c = 0; c < v->ncpus; c++)
					print_json_entry(mv, v, f, &e[k],
							 BSDK_PERCPU_VALUE(e[k].cpus, v->value_size, c),
							 c, tp);
			else
				print_json_entry(mv, v, f, &e[k], e[k].value, -1, tp);
		}
		if (!json && n && v->hist) {
			for (size_t k = 0; k < shown; k++) {
				if (v->percpu && cfg->per_cpu)
					for (int c = 0; c < v->ncpus; c++)
						print_hist(mv, v, f, &e[k],
							   BSDK_PERCPU_VALUE(e[k].cpus, v->value_size, c), c);
				else
					print_hist(mv, v, f, &e[k], e[k].value, -1);
			}
		} else if (!json && n) {
			print_table(mv, v, f, e, shown);
		}
		if (!json && n && (size_t)n > shown)
			fprintf(f, "  (%zu more; --top shows %zu)\n", (size_t)n - shown, shown);
		if (cfg->clear)
			clear_entries(v, e, (size_t)n);
		free_entries(v, e, (size_t)n);
		bsdk_map_snapshot_free(&snap);
	}
	return fflush(f) == EOF ? -1 : 0;
}

void mapviews_free(struct mapviews *mv)
{
	if (!mv)
		return;
	for (size_t i = 0; i < mv->nviews; i++) {
		free(mv->views[i].json_name);
		free(mv->views[i].label);
	}
	free(mv->views);
	free(mv);
}
