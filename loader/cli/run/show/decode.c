// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * decode.c - `bpfsdk run --format text|json`: which type a map's records
 * have, and each record printed as a value of it by the library's BTF
 * printer.
 *
 * The type is, in this order: the one --type gives for the map (--type
 * MAP=NAME, or --type NAME for every map, from .BTF or else DWARF), then
 * what the library's record types find
 * (loader/readers/records/record_type.c): the struct BPFSDK_RECORD() names
 * on the map, the struct of the variable the
 * program's calls send, or - decided at the first record - the only struct
 * of the program's own files whose size matches the record's (a perf ring
 * pads size + data to 8 bytes, so a record may be up to 7 bytes longer).
 * Without one the records stay hex, with a hint saying how to name the
 * type (and which structs were candidates).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "bpfsdk.h"
#include "cli/run/show/show.h"

struct decoder {
	const struct bsdk_btf *btf;	/* the one the type is in: the object's or DWARF's */
	struct bsdk_records *records;
	const struct bsdk_map *map;
	const struct decode_cfg *cfg;
	const char *label;	/* the map's name, fit for text */
	char *json_map;		/* {"@map":NAME,"@cpu": - each record's start */
	size_t json_map_len;
	char *line;		/* a JSON record is built here */
	size_t cap;
	bool perf;		/* records padded by the perf ring */
	int type_id;		/* > 0: decoding; 0: not chosen yet; < 0: hex */
	bool named;		/* by --type or the annotation, not by size */
	uint64_t type_size;
	uint64_t min_size;	/* records may stop inside a trailing array */
	const char *type_name;
	bool columns;		/* text: the type is flat, one stream: columns */
	bool header_done;
	uint64_t longer, longest;	/* records with bytes past the type */
	uint64_t partial;		/* records the printer could not show whole */
	int partial_err;
	struct bsdk_btf_field_view *views;	/* addresses and ports: set_views() */
	size_t nviews;
};

/* The record types of the object the run decodes, shared by its decoders and
 * --type's check (one DWARF read), freed with the last of them. */
static struct {
	const struct bsdk_obj *obj;
	struct bsdk_records *r;
	int refs;
} shared;

static struct bsdk_records *records_get(const struct bsdk_obj *obj)
{
	if (shared.r && shared.obj != obj && shared.refs == 0) {
		bsdk_records_free(shared.r);
		shared.r = NULL;
	}
	if (!shared.r) {
		shared.r = bsdk_records_new(obj);
		if (!shared.r) {
			cli_error_unless_logged("out of memory");
			return NULL;
		}
		shared.obj = obj;
	}
	shared.refs++;
	return shared.r;
}

static void records_put(struct bsdk_records *r)
{
	if (!r || r != shared.r || --shared.refs > 0)
		return;
	bsdk_records_free(shared.r);
	shared.r = NULL;
	shared.obj = NULL;
}

/* The --type for map: "MAP=NAME" for it, else a plain "NAME", else NULL. */
static const char *type_for(const struct decode_cfg *cfg, const char *map)
{
	const char *plain = NULL;
	size_t n = strlen(map);

	for (size_t i = 0; i < cfg->ntypes; i++) {
		const char *t = cfg->types[i], *eq = strchr(t, '=');

		if (!eq)
			plain = t;
		else if ((size_t)(eq - t) == n && strncmp(t, map, n) == 0)
			return eq + 1;
	}
	return plain;
}

int decode_check_types(const struct bsdk_obj *obj, const struct decode_cfg *cfg)
{
	struct bsdk_records *r = cfg->ntypes ? records_get(obj) : NULL;
	int ret = 0;

	if (cfg->ntypes && !r)
		return EXIT_FAILURE;

	for (size_t i = 0; i < cfg->ntypes; i++) {
		const char *t = cfg->types[i], *eq = strchr(t, '=');
		const char *name = eq ? eq + 1 : t;
		char map[256];

		struct bsdk_record_type rt;
		int err;

		if (eq) {
			snprintf(map, sizeof(map), "%.*s", (int)(eq - t), t);
			if (!bsdk_obj_map_find(obj, map)) {
				char hint[512];

				cli_error("--type %s: '%s' has no map '%s'%s", t, bsdk_obj_name(obj), map,
					  cli_map_hint(obj, map, hint, sizeof(hint)));
				ret = EXIT_USAGE;
				break;
			}
		}
		if (!bsdk_obj_btf(obj) && !bsdk_records_have_dwarf(r)) {
			cli_error("--type %s: '%s' has neither BTF nor DWARF (build it with clang -g)",
				  t, bsdk_obj_name(obj));
			ret = EXIT_USAGE;
			break;
		}
		err = bsdk_records_find(r, name, &rt);
		if (err == -ENOENT) {
			char hint[256];

			cli_error("--type %s: '%s' has no type '%s'%s", t, bsdk_obj_name(obj), name,
				  cli_type_hint(obj, name, hint, sizeof(hint)));
			ret = EXIT_USAGE;
		} else if (err) {
			cli_error("--type %s: %s", t, bsdk_strerror(err));
			ret = EXIT_USAGE;
		}
		if (ret)
			break;
	}
	records_put(r);
	return ret;
}

static const char *const view_names[] = {
	[BSDK_VIEW_STORED] = "raw", [BSDK_VIEW_INET] = "addr", [BSDK_VIEW_NTOH] = "host",
};

static enum bsdk_btf_view view_named(const char *s)
{
	for (size_t i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++)
		if (view_names[i] && strcmp(view_names[i], s) == 0)
			return (enum bsdk_btf_view)i;
	return BSDK_VIEW_DEFAULT;
}

int decode_check_field(const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || view_named(eq + 1) == BSDK_VIEW_DEFAULT)
		return cli_usage_error("run", "--field '%s' is not NAME=raw, NAME=addr or NAME=host",
				       arg);
	return 0;
}

/* A --field for member name of the type, or NULL. */
static const char *field_option(const struct decoder *d, const char *name, size_t len)
{
	for (size_t i = d->cfg->nfields; i-- > 0;) {
		const char *f = d->cfg->fields[i], *eq = strchr(f, '=');

		if ((size_t)(eq - f) == len && strncmp(f, name, len) == 0)
			return eq + 1;
	}
	return NULL;
}

/* What the programs' stores say of the type's members (without --raw), then --field: 0, or
 * -1 after one error line (the members could not be told: none is printed as if it could). */
static int set_views(struct decoder *d)
{
	int err = 0;

	if (d->cfg->btf_flags & BSDK_BTF_NET)
		err = bsdk_records_views(d->records, d->map, d->btf, (uint32_t)d->type_id,
					 &d->views, &d->nviews);
	if (err) {
		cli_error("map '%s': where its fields come from: %s", d->label, bsdk_strerror(err));
		return -1;
	}
	for (size_t i = 0; i < d->cfg->nfields; i++) {
		const char *f = d->cfg->fields[i], *eq = strchr(f, '=');
		size_t len = (size_t)(eq - f);
		struct bsdk_btf_field_view *grown;
		struct bsdk_btf_info info;
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)len, f);
		if (field_option(d, f, len) != eq + 1)
			continue;	/* a later --field for it wins */
		if (bsdk_btf_info(d->btf, (uint32_t)d->type_id, name, &info)) {
			fprintf(stderr, "warning: --field %s: %s has no member '%s'\n", f,
				d->type_name, name);
			continue;
		}
		grown = realloc(d->views, (d->nviews + 1) * sizeof(*grown));
		if (!grown) {
			cli_error("out of memory");
			return -1;
		}
		d->views = grown;
		/* first in the list: the printer takes the first that names a member */
		memmove(grown + 1, grown, d->nviews++ * sizeof(*grown));
		grown[0] = (struct bsdk_btf_field_view){ info.member, view_named(eq + 1) };
	}
	for (size_t i = 0; cli_verbosity && i < d->nviews; i++) {
		const struct bsdk_btf_field_view *v = &d->views[i];
		bool option = field_option(d, v->name, strlen(v->name)) != NULL;

		if (v->view != BSDK_VIEW_STORED || option)
			fprintf(stderr, "map '%s': member '%s' shown as %s (%s)\n", d->label,
				v->name, v->view == BSDK_VIEW_INET ? "an address" :
				v->view == BSDK_VIEW_NTOH ? "big-endian, in host order" : "stored",
				option ? "--field" : "from the kernel fields the programs read");
	}
	return 0;
}

/* 0, or -1 after one error line. */
static int set_type(struct decoder *d, const struct bsdk_btf *btf, int id)
{
	struct bsdk_btf_info info;

	d->btf = btf;
	if (bsdk_btf_info(d->btf, (uint32_t)id, NULL, &info)) {
		d->type_id = -1;
		return 0;
	}
	d->type_id = id;
	d->type_size = info.size;
	d->min_size = info.fixed_size;
	d->type_name = *info.name ? info.name : "(anonymous)";
	d->columns = d->cfg->columns && info.flat;
	return set_views(d);
}

/* -v: which type, and where it came from. */
static void print_source(const struct decoder *d, const struct bsdk_record_type *rt,
			 const char *option)
{
	fprintf(stderr, "map '%s': records decoded as %s (%llu bytes), from ", d->label,
		d->type_name, (unsigned long long)d->type_size);
	if (option)
		fprintf(stderr, "--type (%s)\n", rt->layout);
	else if (rt->source == BSDK_RECORD_ANNOTATION)
		fputs("BPFSDK_RECORD()\n", stderr);
	else
		fprintf(stderr, "the DWARF local '%s' of %s (layout from %s)\n",
			rt->variable ? rt->variable : "?", rt->prog, rt->layout);
}

struct decoder *decoder_new(const struct bsdk_obj *obj, const struct bsdk_map *map,
			    const char *label, const struct decode_cfg *cfg)
{
	struct decoder *d = calloc(1, sizeof(*d));
	struct bsdk_record_type rt;
	const char *name;
	char *quoted;
	int err;

	if (!d) {
		cli_error("out of memory");
		return NULL;
	}
	d->cfg = cfg;
	d->label = label;
	d->perf = bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	d->btf = bsdk_obj_btf(obj);
	quoted = json_quote(bsdk_map_name(map));
	if (!quoted || asprintf(&d->json_map, "{\"@map\":%s,\"@cpu\":", quoted) < 0)
		d->json_map = NULL;
	free(quoted);
	if (!d->json_map) {
		cli_error("out of memory");
		free(d);
		return NULL;
	}
	d->json_map_len = strlen(d->json_map);
	/* the prefix, a CPU number and a time always fit; records grow it */
	d->cap = d->json_map_len + 64 + 256;
	d->line = malloc(d->cap);
	if (!d->line) {
		cli_error("out of memory");
		decoder_free(d);
		return NULL;
	}
	if (cfg->format == RECORD_HEX) {
		d->type_id = -1;
		return d;
	}
	d->records = records_get(obj);
	if (!d->records) {
		decoder_free(d);
		return NULL;
	}
	d->map = map;
	if (!d->btf && !bsdk_records_have_dwarf(d->records)) {
		fprintf(stderr, "hint: map '%s': '%s' has neither BTF nor DWARF (clang -g writes them): records printed as hex\n",
			label, bsdk_obj_name(obj));
		d->type_id = -1;
		return d;
	}
	name = type_for(cfg, bsdk_map_name(map));
	err = name ? bsdk_records_find(d->records, name, &rt) :
		     bsdk_records_map_type(d->records, map, &rt);
	if (err == -BSDK_EBTF) {
		decoder_free(d);	/* the library said which annotation */
		return NULL;
	}
	if (err) {
		cli_error("map '%s': its record type: %s", label, bsdk_strerror(err));
		decoder_free(d);
		return NULL;
	}
	if (rt.btf) {
		if (set_type(d, rt.btf, (int)rt.type_id)) {
			decoder_free(d);
			return NULL;
		}
		d->named = true;
		if (cli_verbosity)
			print_source(d, &rt, name);
	} else if (rt.source == BSDK_RECORD_AMBIGUOUS) {
		d->type_id = -1;
		fprintf(stderr, "hint: map '%s': the programs send records of several structs (%s): printed as hex; --type %s=NAME chooses one\n",
			label, rt.candidates, label);
	}
	return d;
}

/* Whether map's record type is known before its first record: BPFSDK_RECORD() names a struct,
 * or the programs' calls name one variable's (DWARF). */
static bool type_known(struct bsdk_records **r, const struct bsdk_obj *obj,
		       const struct bsdk_map *map)
{
	struct bsdk_record_type rt;
	int id = bsdk_map_record_type(map);

	if (id != -ENOENT)
		return id > 0;	/* an annotation naming no struct is decoder_new()'s to report */
	if (!*r && !(*r = records_get(obj)))
		return false;
	return bsdk_records_map_type(*r, map, &rt) == 0 && rt.btf;
}

enum record_format decode_default_format(const struct bsdk_obj *obj)
{
	const struct bsdk_map *map = NULL;
	struct bsdk_records *r = NULL;
	bool streams = false, known = true;

	while (known && (map = bsdk_obj_map_next(obj, map))) {
		uint32_t type = (uint32_t)bsdk_map_type(map);

		if (type != BPF_MAP_TYPE_PERF_EVENT_ARRAY && type != BPF_MAP_TYPE_RINGBUF)
			continue;
		streams = true;
		known = type_known(&r, obj, map);
	}
	records_put(r);
	return streams && known ? RECORD_TEXT : RECORD_HEX;
}

/* The most a record of a type of size bytes may be: a perf ring pads
 * the u32 size and the data to a multiple of 8. */
static uint64_t padded(const struct decoder *d, uint64_t size)
{
	return d->perf ? ((size + 4 + 7) & ~(uint64_t)7) - 4 : size;
}

/* No type named: the only struct of the program's own the record fits. */
static int choose_by_size(struct decoder *d, uint32_t size)
{
	struct bsdk_record_type rt;
	int err = bsdk_records_by_size(d->records, d->map, size, &rt);

	if (err) {
		cli_error("map '%s': its record type: %s", d->label, bsdk_strerror(err));
		return -1;
	}
	if (rt.btf) {
		if (set_type(d, rt.btf, (int)rt.type_id))
			return -1;
		if (cli_verbosity)
			fprintf(stderr, "map '%s': records of %u bytes decoded as %s, the only struct of that size (--type NAME chooses another)\n",
				d->label, size, d->type_name);
		return 0;
	}
	d->type_id = -1;
	if (rt.source == BSDK_RECORD_AMBIGUOUS)
		fprintf(stderr, "hint: map '%s': several structs fit its records of %u bytes (%s): printed as hex; --type %s=NAME chooses one\n",
			d->label, size, rt.candidates, d->label);
	else
		fprintf(stderr, "hint: map '%s': no struct of the program's own fits its records of %u bytes: printed as hex; BPFSDK_RECORD(NAME) on the map or --type NAME decodes them\n",
			d->label, size);
	return 0;
}

/* "HH:MM:SS.uuuuuu " in text, "@time" seconds in JSON. */
static size_t format_time(const struct decoder *d, char *buf, size_t size)
{
	static time_t last_sec = -1;
	static char hms[16];
	struct timespec ts;
	struct tm tm;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (d->cfg->format == RECORD_JSON) {
		n = snprintf(buf, size, ",\"@time\":%lld.%06ld", (long long)ts.tv_sec,
			     ts.tv_nsec / 1000);
		return n > 0 && (size_t)n < size ? (size_t)n : 0;
	}
	if (ts.tv_sec != last_sec) {	/* localtime once a second, not per record */
		localtime_r(&ts.tv_sec, &tm);
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
		last_sec = ts.tv_sec;
	}
	n = snprintf(buf, size, "%s.%06ld ", hms, ts.tv_nsec / 1000);
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

static void print_time(const struct decoder *d, FILE *f)
{
	char buf[48];

	fwrite(buf, 1, format_time(d, buf, sizeof(buf)), f);
}

/* A JSON record as one line: {"@map":..,"@cpu":N[,"@time":T],members}
 * built in d->line and written with one fwrite - the hot path of
 * --format json. */
static int print_json(struct decoder *d, FILE *f, int cpu, const void *data, uint32_t size)
{
	size_t n = d->json_map_len, room;
	unsigned int c = cpu < 0 ? 0 : (unsigned int)cpu;
	char digits[12];
	int nd = 0, err = 0;
	long len;

	memcpy(d->line, d->json_map, n);
	if (cpu < 0) {		/* a ring buffer's record: no CPU */
		memcpy(d->line + n, "null", 4);
		n += 4;
	} else {
		do
			digits[nd++] = (char)('0' + c % 10);
		while ((c /= 10));
		while (nd)
			d->line[n++] = digits[--nd];
	}
	if (d->cfg->timestamp)
		n += format_time(d, d->line + n, 48);
	for (;;) {
		room = d->cap - n;
		len = bsdk_btf_snprint_views(d->btf, (uint32_t)d->type_id, data, size,
					     BSDK_BTF_JSON, BSDK_BTF_MEMBERS | d->cfg->btf_flags,
					     d->views, d->nviews, d->line + n, room, &err);
		if (len < 0)
			return len;
		if ((size_t)len + 2 < room)
			break;
		/* a record larger than the line so far: grow, print again */
		char *grown = realloc(d->line, n + (size_t)len + 64);

		if (!grown)
			return -ENOMEM;
		d->line = grown;
		d->cap = n + (size_t)len + 64;
	}
	n += (size_t)len;
	d->line[n++] = '}';
	d->line[n++] = '\n';
	fwrite(d->line, 1, n, f);
	return err;
}

static void print_header(struct decoder *d, FILE *f)
{
	if (d->cfg->timestamp)
		fprintf(f, "%-15s ", "TIME");
	fputs("CPU", f);
	bsdk_btf_print_header(d->btf, (uint32_t)d->type_id, d->cfg->btf_flags, f);
	fputc('\n', f);
	d->header_done = true;
}

int decoder_record(struct decoder *d, FILE *f, int cpu, const void *data, uint32_t size)
{
	bool json = d->cfg->format == RECORD_JSON;
	int err;

	if (d->type_id == 0 && choose_by_size(d, size))
		return -1;
	if (d->type_id > 0 && size < d->min_size) {
		cli_error("map '%s': a record of %u bytes is shorter than %s (%llu bytes%s)%s",
			  d->label, size, d->type_name, (unsigned long long)d->min_size,
			  d->min_size < d->type_size ? " before its last array" : "",
			  d->named ? "" : "; --type NAME names the right type");
		return -1;
	}
	if (d->type_id > 0 && size > padded(d, d->type_size)) {
		d->longer++;
		if (size > d->longest)
			d->longest = size;
	}
	if (d->type_id < 0 && !json) {
		if (d->cfg->timestamp)
			print_time(d, f);
		record_print_hex(f, d->label, cpu, data, size);
		return 0;
	}
	if (json && d->type_id < 0) {
		if (cpu < 0)
			fprintf(f, "%snull", d->json_map);
		else
			fprintf(f, "%s%d", d->json_map, cpu);
		if (d->cfg->timestamp)
			print_time(d, f);
		fprintf(f, ",\"@size\":%u,\"@hex\":\"", size);
		record_hex_bytes(f, data, size);
		fputs("\"}\n", f);
		return 0;
	}
	if (json) {
		err = print_json(d, f, cpu, data, size);
		if (err == -ENOMEM) {
			cli_error("out of memory");
			return -1;
		}
	} else if (d->columns) {
		if (!d->header_done)
			print_header(d, f);
		if (d->cfg->timestamp)
			print_time(d, f);
		if (cpu < 0)
			fputs("   ", f);	/* a ring buffer's record: no CPU */
		else
			fprintf(f, "%3d", cpu);
		err = bsdk_btf_print_views(d->btf, (uint32_t)d->type_id, data, size,
					   BSDK_BTF_COLUMNS, d->cfg->btf_flags, d->views, d->nviews,
					   f);
		fputc('\n', f);
	} else {
		if (d->cfg->timestamp)
			print_time(d, f);
		if (cpu < 0)
			fprintf(f, "%s ", d->label);
		else
			fprintf(f, "%s %d", d->label, cpu);
		err = bsdk_btf_print_views(d->btf, (uint32_t)d->type_id, data, size,
					   BSDK_BTF_TEXT, BSDK_BTF_MEMBERS | d->cfg->btf_flags,
					   d->views, d->nviews, f);
		fputc('\n', f);
	}
	if (err && err != -ERANGE) {
		d->partial++;
		d->partial_err = err;
	}
	return 0;
}

int decoder_field_offset(const struct decoder *d, const char *field)
{
	struct bsdk_btf_info info;
	int err;

	if (d->type_id <= 0) {
		cli_error("--sort-by %s: map '%s' has no record type yet: BPFSDK_RECORD() on the map or --type NAME gives it",
			  field, d->label);
		return -1;
	}
	err = bsdk_btf_info(d->btf, (uint32_t)d->type_id, field, &info);
	if (err) {
		cli_error("--sort-by %s: %s has no member '%s'", field, d->type_name, field);
		return -1;
	}
	if (info.kind != BTF_KIND_INT || info.size != 8 || info.bitfield ||
	    info.offset + 8 > d->type_size) {
		cli_error("--sort-by %s: the member is not a 64-bit integer (a timestamp such as bpf_ktime_get_ns())",
			  field);
		return -1;
	}
	return (int)info.offset;
}

void decoder_report(const struct decoder *d)
{
	if (!d)
		return;
	if (d->longer)
		fprintf(stderr, "warning: map '%s': %llu record%s longer than %s (%llu bytes), up to %llu bytes: the bytes past it are not shown\n",
			d->label, (unsigned long long)d->longer, d->longer == 1 ? "" : "s",
			d->type_name, (unsigned long long)d->type_size,
			(unsigned long long)d->longest);
	if (d->partial)
		fprintf(stderr, "warning: map '%s': %llu record%s not shown whole as %s: %s\n",
			d->label, (unsigned long long)d->partial, d->partial == 1 ? "" : "s",
			d->type_name, bsdk_strerror(d->partial_err));
}

void decoder_free(struct decoder *d)
{
	if (!d)
		return;
	records_put(d->records);
	free(d->views);
	free(d->json_map);
	free(d->line);
	free(d);
}
