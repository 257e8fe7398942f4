// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics.c - maps as Prometheus metrics, by their BTF, with no
 * configuration: the text exposition format 0.0.4, or OpenMetrics 1.0.0.
 *
 * Each map gets a plan when it is added (what its key's members and its
 * value's integers become); a render reads every map whole, then writes it,
 * so that one map's series come from one read: a histogram's buckets, count
 * and sum always agree. The plan is made once, in the thread that adds the
 * map; renders only read the maps and the plans, and may run in another
 * thread (the HTTP server's, metrics_http.c).
 *
 *   value with an integer array "slots"   histogram: slot 0 holds 0 and 1,
 *                                         slot k >= 1 holds [2^k, 2^(k+1) - 1]
 *                                         (BCC's log2l()), so bucket k's
 *                                         le is 2^(k+1) - 1, exact for
 *                                         integers
 *   other integers                        counters (NAME_total), gauges for
 *                                         maps named *_gauge or listed
 *   key members                           labels
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>

#include "ext/ext.h"
#include "ext/metrics.h"

#define MAX_LABELS 32
#define MAX_VALUES 32

enum lab_kind { LAB_UINT, LAB_INT, LAB_ENUM, LAB_STR, LAB_HEX };

struct label {
	char *name;
	uint32_t off, size, type_id;	/* type_id: the enum, for its enumerator names */
	enum lab_kind kind;
};

struct vfield {
	char *name;		/* the family: a counter's without "_total" */
	uint32_t off, size;
	bool is_signed;
};

struct mplan {
	struct mplan_map m;
	char *object;
	char *family;		/* PREFIX_MAP */
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

/* ---- names */

static bool name_char(char c, bool first)
{
	return c == '_' || c == ':' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

/* A copy of s fit for a metric name: every other byte becomes '_'. */
static char *sanitize(const char *s)
{
	char *out = strdup(s);

	for (char *p = out; p && *p; p++)
		if (!name_char(*p, p == out) || (*p & 0x80))
			*p = '_';
	return out;
}

static char *join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s_%s", a, b) < 0)
		return NULL;
	return s;
}

/* The unit a name says its values have: log2 slots of time become seconds. */
static unsigned int digits_of(const char *name, const char **unit)
{
	static const struct { const char *word; unsigned int digits; const char *unit; } units[] = {
		{ "usecs", 6, "seconds" }, { "_us", 6, "seconds" }, { "nsecs", 9, "seconds" },
		{ "_ns", 9, "seconds" }, { "msecs", 3, "seconds" }, { "_ms", 3, "seconds" },
		{ "bytes", 0, "bytes" },
	};

	for (size_t i = 0; name && i < ARRAY_SIZE(units); i++) {
		const char *at = strstr(name, units[i].word);
		size_t n = strlen(units[i].word);

		/* "_us" only at a word's end: "lat_us", "lat_us_hist", not "_usage" */
		if (at && (units[i].word[0] != '_' || at[n] == '\0' || at[n] == '_')) {
			*unit = units[i].unit;
			return units[i].digits;
		}
	}
	return 0;
}

void metrics_decimal(uint64_t v, unsigned int digits, char *buf)
{
	uint64_t pow = 1;
	int len;

	for (unsigned int i = 0; i < digits; i++)
		pow *= 10;
	len = sprintf(buf, "%llu", (unsigned long long)(v / pow));
	if (digits && v % pow) {
		len += sprintf(buf + len, ".%0*llu", (int)digits, (unsigned long long)(v % pow));
		while (buf[len - 1] == '0')
			buf[--len] = '\0';
	}
}

/* ---- the plan */

/* The labels the series carry besides the key's, which a key member may not take. */
static bool reserved_label(const char *name)
{
	return !strcmp(name, "object") || !strcmp(name, "cpu") || !strcmp(name, "le") ||
	       !strcmp(name, "overflow") || !strncmp(name, "__", 2);
}

static int add_label(struct mplan *p, const char *name, uint32_t off, uint32_t size,
		     uint32_t type_id, enum lab_kind kind)
{
	struct label *l;

	if (p->nlabels == MAX_LABELS) {
		log_warn("map '%s': key member '%s' left out: more than %d members", p->map_name,
			 name, MAX_LABELS);
		return 0;
	}
	l = &p->labels[p->nlabels];
	if (reserved_label(name)) {
		if (asprintf(&l->name, "key_%s", name + strspn(name, "_")) < 0)
			return -ENOMEM;
	} else if (!(l->name = sanitize(name))) {
		return -ENOMEM;
	}
	l->off = off, l->size = size, l->type_id = type_id, l->kind = kind;
	p->nlabels++;
	return 0;
}

/* The key's members as labels, nested structs flattened ("a_b"); what no label can hold
 * (unions, arrays other than char[], bitfields, floats, pointers) left out, said in *skipped. */
static int key_labels(struct mplan *p, uint32_t id, uint32_t base, const char *prefix,
		      int depth, char *skipped, size_t skipped_size)
{
	const struct bsdk_btf *btf = p->m.btf;
	struct bsdk_btf_info m;
	int err = 0;

	for (uint32_t i = 0; !err && bsdk_btf_member(btf, id, i, &m) == 0; i++) {
		char *name = m.member[0] ? (prefix ? join(prefix, m.member) : strdup(m.member))
					 : (prefix ? strdup(prefix) : NULL);
		uint32_t off = base + (uint32_t)m.offset;

		if ((m.member[0] || prefix) && !name)
			return -ENOMEM;
		if (off + m.size > p->m.key_size) {
			/* cannot be: the BTF said the key had this size */
		} else if (bsdk_btf_is_int(&m)) {
			err = add_label(p, name ? name : "key", off, (uint32_t)m.size, m.type_id,
					m.kind == BTF_KIND_ENUM ? LAB_ENUM :
					m.is_signed ? LAB_INT : LAB_UINT);
		} else if (m.is_string) {
			err = add_label(p, name ? name : "key", off, (uint32_t)m.size, 0, LAB_STR);
		} else if (m.kind == BTF_KIND_STRUCT && depth < 4) {
			err = key_labels(p, m.type_id, off, name, depth + 1, skipped, skipped_size);
		} else {
			size_t len = strlen(skipped);

			snprintf(skipped + len, skipped_size - len, "%s'%s' (%s)", len ? ", " : "",
				 name ? name : "(anonymous)",
				 m.kind == BTF_KIND_UNION ? "a union" :
				 m.kind == BTF_KIND_ARRAY ? "an array" :
				 m.bitfield ? "a bitfield" : "not an integer or string");
		}
		free(name);
	}
	return err;
}

static int plan_key(struct mplan *p)
{
	struct bsdk_btf_info k;
	char skipped[256] = "";
	int err;

	if (!p->m.keyed)
		return 0;
	if (!p->m.key_type || !p->m.btf || bsdk_btf_info(p->m.btf, p->m.key_type, NULL, &k) ||
	    k.size != p->m.key_size) {
		bool num = p->m.key_size == 1 || p->m.key_size == 2 || p->m.key_size == 4 ||
			   p->m.key_size == 8;

		return add_label(p, "key", 0, p->m.key_size, 0, num ? LAB_UINT : LAB_HEX);
	}
	if (bsdk_btf_is_int(&k))
		return add_label(p, "key", 0, (uint32_t)k.size, k.type_id,
				 k.kind == BTF_KIND_ENUM ? LAB_ENUM : k.is_signed ? LAB_INT : LAB_UINT);
	if (k.is_string)
		return add_label(p, "key", 0, (uint32_t)k.size, 0, LAB_STR);
	if (k.kind != BTF_KIND_STRUCT) {
		log_warn("map '%s': its key is %s: shown as one label 'key' in hex", p->map_name,
			 k.kind == BTF_KIND_UNION ? "a union" : k.kind == BTF_KIND_ARRAY ?
			 "an array" : "not an integer, string or struct");
		return add_label(p, "key", 0, p->m.key_size, 0, LAB_HEX);
	}
	err = key_labels(p, p->m.key_type, 0, NULL, 0, skipped, sizeof(skipped));
	if (!err && skipped[0])
		log_warn("map '%s': key member%s %s left out of the labels: a label holds an integer, an enum or a char[] string",
			 p->map_name, strchr(skipped, ',') ? "s" : "", skipped);
	if (!err && !p->nlabels) {
		log_warn("map '%s': no key member can be a label: the key shown as one label 'key' in hex",
			 p->map_name);
		return add_label(p, "key", 0, p->m.key_size, 0, LAB_HEX);
	}
	return err;
}

static int add_value(struct mplan *p, const char *member, uint32_t off, uint32_t size,
		     bool is_signed)
{
	struct vfield *v;
	size_t n;

	if (p->nvals == MAX_VALUES) {
		log_warn("map '%s': value member '%s' left out: more than %d integers", p->map_name,
			 member ? member : "", MAX_VALUES);
		return 0;
	}
	v = &p->vals[p->nvals];
	v->name = member ? join(p->family, member) : strdup(p->family);
	if (!v->name)
		return -ENOMEM;
	for (char *c = v->name; *c; c++)
		if (!name_char(*c, false))
			*c = '_';
	/* a counter's family is named without the _total its samples get */
	n = strlen(v->name);
	if (!p->gauge && n > 6 && !strcmp(v->name + n - 6, "_total"))
		v->name[n - 6] = '\0';
	v->off = off, v->size = size, v->is_signed = is_signed;
	p->nvals++;
	return 0;
}

static bool is_sum_name(const char *s)
{
	size_t n = strlen(s);

	return !strcmp(s, "sum") || !strncmp(s, "sum_", 4) || (n > 4 && !strcmp(s + n - 4, "_sum"));
}

static int plan_value(struct mplan *p)
{
	const struct bsdk_btf *btf = p->m.btf;
	struct bsdk_btf_info v, m;
	char skipped[256] = "";
	int err = 0;

	if (!p->m.value_type || !btf || bsdk_btf_info(btf, p->m.value_type, NULL, &v) ||
	    v.size != p->m.value_size) {
		uint32_t s = p->m.value_size;

		if (s == 1 || s == 2 || s == 4 || s == 8)
			return add_value(p, NULL, 0, s, false);
		log_warn("map '%s': its value of %u bytes has no BTF: not exported", p->map_name, s);
		return -EINVAL;
	}
	if (bsdk_btf_is_int(&v))
		return add_value(p, NULL, 0, (uint32_t)v.size, v.is_signed);
	if (v.kind != BTF_KIND_STRUCT) {
		log_warn("map '%s': its value is no integer and no struct: not exported", p->map_name);
		return -EINVAL;
	}
	/* the histogram first: it decides what a "sum" member is */
	for (uint32_t i = 0; bsdk_btf_member(btf, p->m.value_type, i, &m) == 0; i++)
		if (!strcmp(m.member, "slots") && bsdk_btf_is_int_array(btf, &m)) {
			p->hist = true;
			p->slots_off = (uint32_t)m.offset;
			p->slots_n = m.nelems < 64 ? m.nelems : 64;
			p->slots_size = (uint32_t)m.elem_size;
		}
	for (uint32_t i = 0; !err && bsdk_btf_member(btf, p->m.value_type, i, &m) == 0; i++) {
		if (p->hist && !strcmp(m.member, "slots"))
			continue;
		if (bsdk_btf_is_int(&m) && m.member[0] && p->hist && !p->has_sum && is_sum_name(m.member)) {
			p->has_sum = true;
			p->sum = (struct vfield){ NULL, (uint32_t)m.offset, (uint32_t)m.size,
						  m.is_signed };
		} else if (bsdk_btf_is_int(&m) && m.member[0]) {
			err = add_value(p, m.member, (uint32_t)m.offset, (uint32_t)m.size,
					m.is_signed);
		} else {
			size_t len = strlen(skipped);

			snprintf(skipped + len, sizeof(skipped) - len, "%s'%s'", len ? ", " : "",
				 m.member[0] ? m.member : "(anonymous)");
		}
	}
	if (!err && skipped[0])
		log_warn("map '%s': value member%s %s left out: a metric is an integer member, or the histogram's 'slots'",
			 p->map_name, strchr(skipped, ',') ? "s" : "", skipped);
	if (!err && !p->hist && !p->nvals) {
		log_warn("map '%s': its value has no integer member: not exported", p->map_name);
		return -EINVAL;
	}
	return err;
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = list; s && *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
		if (strcspn(s, ",") == n && !strncmp(s, name, n))
			return true;
	}
	return false;
}

static int add_family(struct mplan *p, const char *name)
{
	char **grown = realloc(p->families, (p->nfamilies + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	p->families = grown;
	if (!(p->families[p->nfamilies] = strdup(name)))
		return -ENOMEM;
	p->nfamilies++;
	return 0;
}

struct mplan *mplan_new(const struct mplan_map *map, const struct bsdk_metrics_opts *opts)
{
	const char *prefix = opts && opts->prefix ? opts->prefix : "bpfsdk";
	struct mplan *p = calloc(1, sizeof(*p));
	char *name;
	size_t n;
	int err;

	if (!p)
		return fail_ptr(ENOMEM);
	p->m = *map;
	p->map_name = strdup(map->name);
	p->object = map->object && map->object[0] ? strdup(map->object) : NULL;
	name = sanitize(map->name);
	if (!p->map_name || !name || (map->object && map->object[0] && !p->object) ||
	    asprintf(&p->family, "%s_%s", prefix, name) < 0) {
		p->family = NULL;
		free(name);
		mplan_free(p);
		return fail_ptr(ENOMEM);
	}
	free(name);
	n = strlen(map->name);
	p->gauge = (opts && in_list(opts->gauges, map->name)) ||
		   (n >= 6 && !strcmp(map->name + n - 6, "_gauge")) ||
		   (n >= 7 && !strcmp(map->name + n - 7, "_gauges"));
	p->per_cpu = map->ncpus > 0 && opts && (opts->flags & BSDK_METRICS_PER_CPU);
	p->max_keys = opts && opts->max_series ? opts->max_series : BSDK_METRICS_MAX_SERIES;
	if (p->per_cpu)
		p->max_keys = p->max_keys / (size_t)map->ncpus ? p->max_keys / (size_t)map->ncpus : 1;
	err = plan_key(p);
	if (!err)
		err = plan_value(p);
	if (!err && p->hist) {
		struct bsdk_btf_info v;

		p->digits = digits_of(map->name, &p->unit);
		if (!p->unit && !bsdk_btf_info(map->btf, map->value_type, NULL, &v))
			p->digits = digits_of(v.name, &p->unit);
		err = add_family(p, p->family);
	}
	for (size_t i = 0; !err && i < p->nvals; i++)
		err = add_family(p, p->vals[i].name);
	if (err) {
		mplan_free(p);
		return fail_ptr(-err);
	}
	return p;
}

void mplan_free(struct mplan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nlabels; i++)
		free(p->labels[i].name);
	for (size_t i = 0; i < p->nvals; i++)
		free(p->vals[i].name);
	for (size_t i = 0; i < p->nfamilies; i++)
		free(p->families[i]);
	free(p->families);
	free(p->family);
	free(p->map_name);
	free(p->object);
	free(p);
}

size_t mplan_family_count(const struct mplan *p) { return p->nfamilies; }
const char *mplan_family(const struct mplan *p, size_t i) { return p->families[i]; }

/* ---- rendering */

static uint64_t read_uint(const unsigned char *p, uint32_t size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);	/* little-endian hosts */
	return v;
}

static int64_t read_int(const unsigned char *p, uint32_t size)
{
	switch (size) {
	case 1: return (int8_t)p[0];
	case 2: { int16_t v; memcpy(&v, p, 2); return v; }
	case 4: { int32_t v; memcpy(&v, p, 4); return v; }
	default: { int64_t v; memcpy(&v, p, 8); return v; }
	}
}

/* A label value: \, " and newline escaped as the format says; bytes that are not UTF-8
 * become U+FFFD, which every scraper accepts. */
static void put_escaped(FILE *f, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i];) {
		size_t len = s[i] < 0x80 ? 1 : utf8_len(s + i, s + n);

		if (!len) {
			fputs("\xef\xbf\xbd", f);
			i++;
		} else if (s[i] == '\\' || s[i] == '"') {
			fputc('\\', f), fputc(s[i++], f);
		} else if (s[i] == '\n') {
			fputs("\\n", f), i++;
		} else {
			fwrite(s + i, 1, len, f), i += len;
		}
	}
}

void metrics_escape(FILE *f, const char *s)
{
	put_escaped(f, (const unsigned char *)s, strlen(s));
}

static void put_label_value(const struct mplan *p, const struct label *l,
			    const unsigned char *key, FILE *f)
{
	const unsigned char *at = key + l->off;
	char buf[128];

	switch (l->kind) {
	case LAB_UINT:
		fprintf(f, "%llu", (unsigned long long)read_uint(at, l->size));
		break;
	case LAB_INT:
		fprintf(f, "%lld", (long long)read_int(at, l->size));
		break;
	case LAB_ENUM:
		/* the enumerator's name; a value outside the enum as its number */
		bsdk_btf_snprint(p->m.btf, l->type_id, at, l->size, BSDK_BTF_TEXT, 0, buf,
				 sizeof(buf), NULL);
		put_escaped(f, (const unsigned char *)buf, strlen(buf));
		break;
	case LAB_STR:
		put_escaped(f, at, l->size);
		break;
	case LAB_HEX:
		fputs("0x", f);
		for (uint32_t i = 0; i < l->size; i++)
			fprintf(f, "%02x", at[i]);
		break;
	}
}

/* {object="...",KEY LABELS,cpu="..",le=".."}: key NULL for no key labels, overflow for the
 * series that adds up the keys beyond the limit. */
static void put_labels(const struct mplan *p, const unsigned char *key, bool overflow, int cpu,
		       const char *le, FILE *f)
{
	bool any = false;

	fputc('{', f);
	if (p->object) {
		fputs("object=\"", f);
		put_escaped(f, (const unsigned char *)p->object, strlen(p->object));
		fputc('"', f);
		any = true;
	}
	for (size_t i = 0; key && i < p->nlabels; i++) {
		fprintf(f, "%s%s=\"", any ? "," : "", p->labels[i].name);
		put_label_value(p, &p->labels[i], key, f);
		fputc('"', f);
		any = true;
	}
	if (overflow) {
		fprintf(f, "%soverflow=\"true\"", any ? "," : "");
		any = true;
	}
	if (cpu >= 0) {
		fprintf(f, "%scpu=\"%d\"", any ? "," : "", cpu);
		any = true;
	}
	if (le)
		fprintf(f, "%sle=\"%s\"", any ? "," : "", le);
	fputc('}', f);
}

static size_t cpu_stride(const struct mplan *p) { return (p->m.value_size + 7) & ~(size_t)7; }

/* A field of one entry: CPU cpu's, or (cpu < 0) the sum over every CPU. Signed values are
 * returned as their two's complement, which adds the same. */
static uint64_t field(const struct mplan *p, const unsigned char *val, uint32_t off,
		      uint32_t size, bool is_signed, int cpu)
{
	uint64_t sum = 0;

	if (!p->m.ncpus || cpu >= 0) {
		const unsigned char *at = val + (cpu > 0 ? (size_t)cpu * cpu_stride(p) : 0) + off;

		return is_signed ? (uint64_t)read_int(at, size) : read_uint(at, size);
	}
	for (int c = 0; c < p->m.ncpus; c++) {
		const unsigned char *at = val + (size_t)c * cpu_stride(p) + off;

		sum += is_signed ? (uint64_t)read_int(at, size) : read_uint(at, size);
	}
	return sum;
}

/* One histogram's numbers: slots, count and sum, for an entry or the overflow's fold. */
struct hvals {
	uint64_t slots[64];
	uint64_t sum;
};

static void hist_add(const struct mplan *p, const unsigned char *val, int cpu, struct hvals *h)
{
	for (uint32_t k = 0; k < p->slots_n; k++)
		h->slots[k] += field(p, val, p->slots_off + k * p->slots_size, p->slots_size,
				     false, cpu);
	if (p->has_sum)
		h->sum += field(p, val, p->sum.off, p->sum.size, p->sum.is_signed, cpu);
}

static void put_hist(const struct mplan *p, const unsigned char *key, bool overflow, int cpu,
		     const struct hvals *h, FILE *f)
{
	uint64_t cum = 0;
	char le[32];

	for (uint32_t k = 0; k < p->slots_n; k++) {
		/* slot k's largest value: 2^(k+1) - 1, every u64 in slot 63 */
		uint64_t upper = k >= 63 ? UINT64_MAX : (UINT64_C(2) << k) - 1;

		cum += h->slots[k];
		metrics_decimal(upper, p->digits, le);
		fprintf(f, "%s_bucket", p->family);
		put_labels(p, key, overflow, cpu, le, f);
		fprintf(f, " %llu\n", (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket", p->family);
	put_labels(p, key, overflow, cpu, "+Inf", f);
	fprintf(f, " %llu\n", (unsigned long long)cum);
	fprintf(f, "%s_count", p->family);
	put_labels(p, key, overflow, cpu, NULL, f);
	fprintf(f, " %llu\n", (unsigned long long)cum);
	if (p->has_sum) {
		char sum[40];

		if (p->sum.is_signed && (int64_t)h->sum < 0) {
			sum[0] = '-';
			metrics_decimal(-(uint64_t)h->sum, p->digits, sum + 1);
		} else {
			metrics_decimal(h->sum, p->digits, sum);
		}
		fprintf(f, "%s_sum", p->family);
		put_labels(p, key, overflow, cpu, NULL, f);
		fprintf(f, " %s\n", sum);
	}
}

static void put_help(const struct mplan *p, const char *family, const char *type,
		     const char *what, FILE *f)
{
	fprintf(f, "# HELP %s %s of map '", family, what);
	/* HELP escapes only \ and newline */
	for (const char *c = p->map_name; *c; c++)
		fputs(*c == '\\' ? "\\\\" : *c == '\n' ? "\\n" : (char[]){ *c, 0 }, f);
	fputc('\'', f);
	if (p->unit)
		fprintf(f, ", in %s", p->unit);
	fprintf(f, "\n# TYPE %s %s\n", family, type);
}

struct sorted {
	const struct mplan *p;
	const unsigned char *const *keys;
};

static int cmp_keys(const void *a, const void *b, void *ctx)
{
	const struct sorted *s = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return memcmp(s->keys[x], s->keys[y], s->p->m.key_size);
}

static bool zero_value(const struct mplan *p, const unsigned char *val)
{
	size_t n = p->m.ncpus ? cpu_stride(p) * (size_t)p->m.ncpus : p->m.value_size;

	for (size_t i = 0; i < n; i++)
		if (val[i])
			return false;
	return true;
}

static void render_hist(const struct mplan *p, const unsigned char *const *keys,
			const unsigned char *const *vals, const size_t *order, size_t n,
			size_t kept, FILE *f)
{
	int ncpu = p->per_cpu ? p->m.ncpus : 0;
	struct hvals over = { { 0 }, 0 };

	put_help(p, p->family, "histogram", "log2 histogram", f);
	for (size_t i = 0; i < kept; i++) {
		for (int c = ncpu ? 0 : -1; c < ncpu; c++) {
			struct hvals h = { { 0 }, 0 };

			hist_add(p, vals[order[i]], c, &h);
			put_hist(p, p->m.keyed ? keys[order[i]] : NULL, false, c, &h, f);
		}
	}
	for (size_t i = kept; i < n; i++)
		hist_add(p, vals[order[i]], -1, &over);
	if (kept < n)
		put_hist(p, NULL, true, -1, &over, f);
}

static void render_values(const struct mplan *p, const struct vfield *v,
			  const unsigned char *const *keys, const unsigned char *const *vals,
			  const size_t *order, size_t n, size_t kept, bool om, FILE *f)
{
	int ncpu = p->per_cpu ? p->m.ncpus : 0;
	const char *suffix = p->gauge ? "" : "_total";
	uint64_t over = 0;
	char family[512];

	/* 0.0.4 names the family as its samples; OpenMetrics a counter's without _total */
	snprintf(family, sizeof(family), "%s%s", v->name, om ? "" : suffix);
	put_help(p, family, p->gauge ? "gauge" : "counter", p->gauge ? "gauge" : "counter", f);
	for (size_t i = 0; i < kept; i++)
		for (int c = ncpu ? 0 : -1; c < ncpu; c++) {
			uint64_t x = field(p, vals[order[i]], v->off, v->size, v->is_signed, c);

			fprintf(f, "%s%s", v->name, suffix);
			put_labels(p, p->m.keyed ? keys[order[i]] : NULL, false, c, NULL, f);
			if (v->is_signed)
				fprintf(f, " %lld\n", (long long)x);
			else
				fprintf(f, " %llu\n", (unsigned long long)x);
		}
	for (size_t i = kept; i < n; i++)
		over += field(p, vals[order[i]], v->off, v->size, v->is_signed, -1);
	if (kept < n) {
		fprintf(f, "%s%s", v->name, suffix);
		put_labels(p, NULL, true, -1, NULL, f);
		if (v->is_signed)
			fprintf(f, " %lld\n", (long long)over);
		else
			fprintf(f, " %llu\n", (unsigned long long)over);
	}
}

int mplan_render(const struct mplan *p, const unsigned char *const *keys,
		 const unsigned char *const *vals, size_t n, unsigned int flags, FILE *f)
{
	bool om = flags & BSDK_METRICS_OPENMETRICS;
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), m = 0, kept;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!p->m.skip_zero || !zero_value(p, vals[i]))
			order[m++] = i;
	if (p->m.keyed && m > 1) {
		/* the same keys are kept from one scrape to the next: the smallest */
		struct sorted ctx = { p, keys };

		qsort_r(order, m, sizeof(*order), cmp_keys, &ctx);
	}
	kept = m < p->max_keys ? m : p->max_keys;
	if (p->hist)
		render_hist(p, keys, vals, order, m, kept, f);
	for (size_t i = 0; i < p->nvals; i++)
		render_values(p, &p->vals[i], keys, vals, order, m, kept, om, f);
	if (kept < m) {
		fprintf(f, "# HELP %s_metrics_keys_folded keys of map '%s' beyond the series limit, added up in the series labelled overflow=\"true\"\n",
			p->family, p->map_name);
		fprintf(f, "# TYPE %s_metrics_keys_folded gauge\n%s_metrics_keys_folded", p->family,
			p->family);
		put_labels(p, NULL, false, -1, NULL, f);
		fprintf(f, " %zu\n", m - kept);
	}
	free(order);
	return 0;
}
