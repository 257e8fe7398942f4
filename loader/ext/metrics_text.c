// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_text.c - a map's entries written as the exposition format says,
 * by the plan metrics.c made: label values escaped, a histogram's
 * cumulative buckets with their exact edges, counters and gauges, the
 * overflow series of the keys past the limit.
 */
#include <stdio.h>

#include "ext/ext.h"
#include "ext/metrics.h"

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
	case LAB_NET:
		bsdk_btf_snprint_member(p->m.btf, l->type_id, l->member, key + l->base,
					p->m.key_size - l->base, buf, sizeof(buf));
		put_escaped(f, (const unsigned char *)buf, strlen(buf));
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
		fprintf(f, "%s_bucket", p->hist_family);
		put_labels(p, key, overflow, cpu, le, f);
		fprintf(f, " %llu\n", (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket", p->hist_family);
	put_labels(p, key, overflow, cpu, "+Inf", f);
	fprintf(f, " %llu\n", (unsigned long long)cum);
	fprintf(f, "%s_count", p->hist_family);
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
		fprintf(f, "%s_sum", p->hist_family);
		put_labels(p, key, overflow, cpu, NULL, f);
		fprintf(f, " %s\n", sum);
	}
}

static void put_help(const struct mplan *p, const char *family, const char *type,
		     const char *what, const char *unit, FILE *f)
{
	fprintf(f, "# HELP %s %s of map '", family, what);
	/* HELP escapes only \ and newline */
	for (const char *c = p->map_name; *c; c++)
		fputs(*c == '\\' ? "\\\\" : *c == '\n' ? "\\n" : (char[]){ *c, 0 }, f);
	fputc('\'', f);
	if (unit)
		fprintf(f, ", in %s", unit);
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

	put_help(p, p->hist_family, "histogram", "log2 histogram", p->unit, f);
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
	put_help(p, family, p->gauge ? "gauge" : "counter", p->gauge ? "gauge" : "counter", NULL, f);
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
