// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_text.c - a map's entries written as the exposition format says,
 * by the plan metrics.c made: label values escaped, a histogram's
 * cumulative buckets with their exact edges, counters and gauges, the
 * overflow series of the keys past the limit.
 *
 * The text is built in a buffer of its own (struct mtext) and written to the
 * FILE once: a scrape of 100,000 series is millions of short pieces, which
 * stdio's locked, formatted calls made the larger part of a render.
 */
#include <stdio.h>

#include "base/base.h"
#include "readers/metrics/metrics.h"

/* ---- the text (struct mtext, metrics.h): appends that cannot fail; a failed growth is
 * remembered */

static bool tb_room(struct mtext *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->len + n <= b->cap)
		return true;
	if (b->oom)
		return false;
	cap = b->cap ? b->cap : 65536;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

/* Most pieces are a few bytes: copied by hand, without a call to memcpy() */
static inline void tb_put(struct mtext *b, const void *s, size_t n)
{
	if (b->len + n <= b->cap || tb_room(b, n)) {
		char *d = b->p + b->len;

		if (n <= 16)
			for (size_t i = 0; i < n; i++)
				d[i] = ((const char *)s)[i];
		else
			memcpy(d, s, n);
		b->len += n;
	}
}

static inline void tb_str(struct mtext *b, const char *s)
{
	size_t n = 0;

	/* copied while there is room; the rest, if any, once the text has grown */
	while (s[n] && b->len < b->cap)
		b->p[b->len++] = s[n++];
	if (s[n])
		tb_put(b, s + n, strlen(s + n));
}

static inline void tb_chr(struct mtext *b, char c)
{
	if (b->len < b->cap || tb_room(b, 1))
		b->p[b->len++] = c;
}

/* Two digits at a time from a table: half the divisions of one digit at a time */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static void tb_u64(struct mtext *b, uint64_t v)
{
	char buf[20];
	size_t i = sizeof(buf);

	while (v >= 100) {
		const char *d = digit_pairs + 2 * (v % 100);

		v /= 100;
		buf[--i] = d[1];
		buf[--i] = d[0];
	}
	if (v >= 10) {
		buf[--i] = digit_pairs[2 * v + 1];
		buf[--i] = digit_pairs[2 * v];
	} else {
		buf[--i] = (char)('0' + v);
	}
	tb_put(b, buf + i, sizeof(buf) - i);
}

static void tb_i64(struct mtext *b, int64_t v)
{
	if (v < 0) {
		tb_chr(b, '-');
		tb_u64(b, -(uint64_t)v);
	} else {
		tb_u64(b, (uint64_t)v);
	}
}

bool mtext_room(struct mtext *t, size_t n) { return tb_room(t, n); }

void mtext_put(struct mtext *t, const char *s) { tb_str(t, s); }

void mtext_u64(struct mtext *t, uint64_t v) { tb_u64(t, v); }

static uint64_t read_uint(const unsigned char *p, uint32_t size)
{
	uint64_t v = 0;

	/* sizes the compiler knows: no call to memcpy() for each number */
	switch (size) {
	case 1: return p[0];
	case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
	case 8: memcpy(&v, p, 8); return v;
	default: memcpy(&v, p, size < 8 ? size : 8); return v;	/* little-endian hosts */
	}
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
 * become U+FFFD, which every scraper accepts. Runs of plain ASCII are copied whole. */
static void put_escaped(struct mtext *b, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i];) {
		size_t run = i, len;

		while (run < n && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '\\' && s[run] != '"')
			run++;
		if (run > i) {
			tb_put(b, s + i, run - i);
			i = run;
			continue;
		}
		len = s[i] < 0x80 ? 1 : utf8_len(s + i, s + n);
		if (!len) {
			tb_str(b, "\xef\xbf\xbd");
			i++;
		} else if (s[i] == '\\' || s[i] == '"') {
			tb_chr(b, '\\'), tb_chr(b, (char)s[i++]);
		} else if (s[i] == '\n') {
			tb_str(b, "\\n"), i++;
		} else {
			tb_put(b, s + i, len), i += len;
		}
	}
}

void mtext_escape(struct mtext *t, const char *s)
{
	put_escaped(t, (const unsigned char *)s, strlen(s));
}

static void put_label_value(const struct mplan *p, const struct label *l,
			    const unsigned char *key, struct mtext *b)
{
	const unsigned char *at = key + l->off;
	static const char hex[] = "0123456789abcdef";
	char buf[128];

	switch (l->kind) {
	case LAB_UINT:
		tb_u64(b, read_uint(at, l->size));
		break;
	case LAB_INT:
		tb_i64(b, read_int(at, l->size));
		break;
	case LAB_ENUM:
		/* the enumerator's name; a value outside the enum as its number */
		bsdk_btf_snprint(p->m.btf, l->type_id, at, l->size, BSDK_BTF_TEXT, 0, buf,
				 sizeof(buf), NULL);
		put_escaped(b, (const unsigned char *)buf, strlen(buf));
		break;
	case LAB_STR:
		put_escaped(b, at, l->size);
		break;
	case LAB_NET:
		bsdk_btf_snprint_member(p->m.btf, l->type_id, l->member, key + l->base,
					p->m.key_size - l->base, buf, sizeof(buf));
		put_escaped(b, (const unsigned char *)buf, strlen(buf));
		break;
	case LAB_HEX:
		tb_str(b, "0x");
		for (uint32_t i = 0; i < l->size; i++)
			tb_chr(b, hex[at[i] >> 4]), tb_chr(b, hex[at[i] & 15]);
		break;
	}
}

/* What every sample of a family starts with, NAME SUFFIX{object="...", escaped once a render
 * rather than once a sample; any: a label is in it. */
struct head {
	struct mtext t;
	bool any;
};

/* h made for name and suffix; false (b->oom set) when out of memory. */
static bool head_make(const struct mplan *p, const char *name, const char *suffix,
		      struct head *h, struct mtext *b)
{
	size_t n = strlen(name) + strlen(suffix) + (p->object ? 3 * strlen(p->object) : 0) + 16;

	h->t = (struct mtext){ .p = malloc(n), .cap = n };
	h->any = p->object;
	if (!h->t.p) {
		b->oom = true;
		return false;
	}
	tb_str(&h->t, name);
	tb_str(&h->t, suffix);
	tb_chr(&h->t, '{');
	if (p->object) {
		tb_str(&h->t, "object=\"");
		put_escaped(&h->t, (const unsigned char *)p->object, strlen(p->object));
		tb_chr(&h->t, '"');
	}
	if (h->t.oom)
		b->oom = true;
	return !h->t.oom;
}

static void head_free(struct head *h)
{
	free(h->t.p);
	h->t.p = NULL;
}

/* HEAD,KEY LABELS,cpu="..",le=".."} VALUE-to-come: key NULL for no key labels, overflow for
 * the series that adds up the keys beyond the limit. */
static void put_sample(const struct mplan *p, const struct head *h, const unsigned char *key,
		       bool overflow, int cpu, const char *le, struct mtext *b)
{
	bool any = h->any;

	tb_put(b, h->t.p, h->t.len);
	for (size_t i = 0; key && i < p->nlabels; i++) {
		if (any)
			tb_chr(b, ',');
		tb_str(b, p->labels[i].name);
		tb_chr(b, '='), tb_chr(b, '"');
		put_label_value(p, &p->labels[i], key, b);
		tb_chr(b, '"');
		any = true;
	}
	if (overflow) {
		tb_str(b, any ? ",overflow=\"true\"" : "overflow=\"true\"");
		any = true;
	}
	if (cpu >= 0) {
		tb_str(b, any ? ",cpu=\"" : "cpu=\"");
		tb_u64(b, (uint64_t)cpu);
		tb_chr(b, '"');
		any = true;
	}
	if (le) {
		tb_str(b, any ? ",le=\"" : "le=\"");
		tb_str(b, le);
		tb_chr(b, '"');
	}
	tb_chr(b, '}'), tb_chr(b, ' ');
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

/* A histogram's heads (_bucket, _count, _sum) and its buckets' le values, made once a render */
struct hist_heads {
	struct head bucket, count, sum;
	char le[64][32];
};

static void put_hist(const struct mplan *p, const struct hist_heads *hh,
		     const unsigned char *key, bool overflow, int cpu, const struct hvals *h,
		     struct mtext *b)
{
	uint64_t cum = 0;

	for (uint32_t k = 0; k < p->slots_n; k++) {
		cum += h->slots[k];
		put_sample(p, &hh->bucket, key, overflow, cpu, hh->le[k], b);
		tb_u64(b, cum);
		tb_chr(b, '\n');
	}
	put_sample(p, &hh->bucket, key, overflow, cpu, "+Inf", b);
	tb_u64(b, cum);
	tb_chr(b, '\n');
	put_sample(p, &hh->count, key, overflow, cpu, NULL, b);
	tb_u64(b, cum);
	tb_chr(b, '\n');
	if (p->has_sum) {
		char sum[40];

		if (p->sum.is_signed && (int64_t)h->sum < 0) {
			sum[0] = '-';
			metrics_decimal(-(uint64_t)h->sum, p->digits, sum + 1);
		} else {
			metrics_decimal(h->sum, p->digits, sum);
		}
		put_sample(p, &hh->sum, key, overflow, cpu, NULL, b);
		tb_str(b, sum);
		tb_chr(b, '\n');
	}
}

static void put_help(const struct mplan *p, const char *family, const char *type,
		     const char *what, const char *unit, struct mtext *b)
{
	tb_str(b, "# HELP ");
	tb_str(b, family);
	tb_chr(b, ' ');
	tb_str(b, what);
	tb_str(b, " of map '");
	/* HELP escapes only \ and newline */
	for (const char *c = p->map_name; *c; c++)
		tb_str(b, *c == '\\' ? "\\\\" : *c == '\n' ? "\\n" : (char[]){ *c, 0 });
	tb_chr(b, '\'');
	if (unit) {
		tb_str(b, ", in ");
		tb_str(b, unit);
	}
	tb_str(b, "\n# TYPE ");
	tb_str(b, family);
	tb_chr(b, ' ');
	tb_str(b, type);
	tb_chr(b, '\n');
}

/* A key to sort by: its first 8 bytes as a big-endian number, which orders as memcmp()
 * does, so that most comparisons need no call; then the whole key. */
struct sort_key {
	uint64_t head;
	size_t i;
};

struct sorted {
	const struct mplan *p;
	const unsigned char *const *keys;
};

static int cmp_keys(const void *a, const void *b, void *ctx)
{
	const struct sorted *s = ctx;
	const struct sort_key *x = a, *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return memcmp(s->keys[x->i], s->keys[y->i], s->p->m.key_size);
}

static uint64_t key_head(const unsigned char *k, uint32_t size)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < 8; i++)
		v = v << 8 | (i < size ? k[i] : 0);
	return v;
}

static bool zero_value(const struct mplan *p, const unsigned char *val)
{
	size_t n = p->m.ncpus ? cpu_stride(p) * (size_t)p->m.ncpus : p->m.value_size;

	for (size_t i = 0; i < n; i++)
		if (val[i])
			return false;
	return true;
}

/* The entries ahead of the one written are fetched early: they are read in key order,
 * scattered over the snapshot, and a render of many keys otherwise waits on memory. */
#define PREFETCH_AHEAD 8

/* always inlined: a function of prefetches alone has no effect the compiler sees, and calls
 * to it are dropped */
static inline __attribute__((always_inline)) void
prefetch_entry(const unsigned char *const *keys, const unsigned char *const *vals,
	       const struct sort_key *order, size_t i, size_t kept)
{
	if (i + PREFETCH_AHEAD < kept) {
		__builtin_prefetch(keys[order[i + PREFETCH_AHEAD].i]);
		__builtin_prefetch(vals[order[i + PREFETCH_AHEAD].i]);
	}
}

static void render_hist(const struct mplan *p, const unsigned char *const *keys,
			const unsigned char *const *vals, const struct sort_key *order, size_t n,
			size_t kept, struct mtext *b)
{
	int ncpu = p->per_cpu ? p->m.ncpus : 0;
	struct hvals over = { { 0 }, 0 };
	struct hist_heads *hh = calloc(1, sizeof(*hh));

	if (!hh) {
		b->oom = true;
		return;
	}
	/* slot k's largest value: 2^(k+1) - 1, every u64 in slot 63 */
	for (uint32_t k = 0; k < p->slots_n && k < 64; k++)
		metrics_decimal(k >= 63 ? UINT64_MAX : (UINT64_C(2) << k) - 1, p->digits, hh->le[k]);
	if (!head_make(p, p->hist_family, "_bucket", &hh->bucket, b) ||
	    !head_make(p, p->hist_family, "_count", &hh->count, b) ||
	    !head_make(p, p->hist_family, "_sum", &hh->sum, b))
		goto out;
	put_help(p, p->hist_family, "histogram", "log2 histogram", p->unit, b);
	for (size_t i = 0; i < kept; i++) {
		prefetch_entry(keys, vals, order, i, kept);
		for (int c = ncpu ? 0 : -1; c < ncpu; c++) {
			struct hvals h = { { 0 }, 0 };

			hist_add(p, vals[order[i].i], c, &h);
			put_hist(p, hh, p->m.keyed ? keys[order[i].i] : NULL, false, c, &h, b);
		}
	}
	for (size_t i = kept; i < n; i++)
		hist_add(p, vals[order[i].i], -1, &over);
	if (kept < n)
		put_hist(p, hh, NULL, true, -1, &over, b);
out:
	head_free(&hh->bucket);
	head_free(&hh->count);
	head_free(&hh->sum);
	free(hh);
}

static void put_value(struct mtext *b, uint64_t x, bool is_signed)
{
	if (is_signed)
		tb_i64(b, (int64_t)x);
	else
		tb_u64(b, x);
	tb_chr(b, '\n');
}

static void render_values(const struct mplan *p, const struct vfield *v,
			  const unsigned char *const *keys, const unsigned char *const *vals,
			  const struct sort_key *order, size_t n, size_t kept, bool om,
			  struct mtext *b)
{
	int ncpu = p->per_cpu ? p->m.ncpus : 0;
	const char *suffix = p->gauge ? "" : "_total";
	uint64_t over = 0;
	char family[512];
	struct head h;

	if (!head_make(p, v->name, suffix, &h, b))
		return;
	/* 0.0.4 names the family as its samples; OpenMetrics a counter's without _total */
	snprintf(family, sizeof(family), "%s%s", v->name, om ? "" : suffix);
	put_help(p, family, p->gauge ? "gauge" : "counter", p->gauge ? "gauge" : "counter", NULL, b);
	for (size_t i = 0; i < kept; i++) {
		prefetch_entry(keys, vals, order, i, kept);
		for (int c = ncpu ? 0 : -1; c < ncpu; c++) {
			uint64_t x = field(p, vals[order[i].i], v->off, v->size, v->is_signed, c);

			put_sample(p, &h, p->m.keyed ? keys[order[i].i] : NULL, false, c, NULL, b);
			put_value(b, x, v->is_signed);
		}
	}
	for (size_t i = kept; i < n; i++)
		over += field(p, vals[order[i].i], v->off, v->size, v->is_signed, -1);
	if (kept < n) {
		put_sample(p, &h, NULL, true, -1, NULL, b);
		put_value(b, over, v->is_signed);
	}
	head_free(&h);
}

static void render_folded(const struct mplan *p, size_t folded, struct mtext *b)
{
	struct head h;

	tb_str(b, "# HELP ");
	tb_str(b, p->family);
	tb_str(b, "_metrics_keys_folded keys of map '");
	tb_str(b, p->map_name);
	tb_str(b, "' beyond the series limit, added up in the series labelled overflow=\"true\"\n");
	tb_str(b, "# TYPE ");
	tb_str(b, p->family);
	tb_str(b, "_metrics_keys_folded gauge\n");
	if (!head_make(p, p->family, "_metrics_keys_folded", &h, b))
		return;
	put_sample(p, &h, NULL, false, -1, NULL, b);
	tb_u64(b, folded);
	tb_chr(b, '\n');
	head_free(&h);
}

/* order sorted by key bytes: a radix sort of the heads (the bytes where they differ), then
 * each run of equal heads by the whole key. 0, or -ENOMEM. */
static int sort_keys(const struct mplan *p, const unsigned char *const *keys,
		     struct sort_key *order, size_t m)
{
	struct sort_key *tmp = malloc(m * sizeof(*tmp)), *from = order, *to = tmp, *t;
	uint64_t all_or = 0, all_and = UINT64_MAX;
	struct sorted ctx = { p, keys };

	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		all_or |= order[i].head, all_and &= order[i].head;
	for (unsigned int shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, at = 0;

		if (!(((all_or ^ all_and) >> shift) & 0xff))
			continue;	/* a byte every head shares */
		for (size_t i = 0; i < m; i++)
			count[(from[i].head >> shift) & 0xff]++;
		for (size_t d = 0; d < 256; d++) {
			size_t c = count[d];

			count[d] = at;
			at += c;
		}
		for (size_t i = 0; i < m; i++)
			to[count[(from[i].head >> shift) & 0xff]++] = from[i];
		t = from, from = to, to = t;
	}
	if (from != order)
		memcpy(order, from, m * sizeof(*order));
	free(tmp);
	if (p->m.key_size <= 8)
		return 0;
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && order[j].head == order[i].head; j++)
			;
		if (j - i > 1)
			qsort_r(order + i, j - i, sizeof(*order), cmp_keys, &ctx);
	}
	return 0;
}

int mplan_render_text(const struct mplan *p, const unsigned char *const *keys,
		      const unsigned char *const *vals, size_t n, unsigned int flags,
		      struct mtext *b)
{
	bool om = flags & BSDK_METRICS_OPENMETRICS;
	struct sort_key *order = malloc((n ? n : 1) * sizeof(*order));
	size_t m = 0, kept;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!p->m.skip_zero || !zero_value(p, vals[i]))
			order[m++] = (struct sort_key){ key_head(keys[i], p->m.key_size), i };
	/* the same keys are kept from one scrape to the next: the smallest */
	if (p->m.keyed && m > 1 && sort_keys(p, keys, order, m)) {
		free(order);
		return -ENOMEM;
	}
	kept = m < p->max_keys ? m : p->max_keys;
	/* room for the text at once: about 80 bytes a series, more for histograms */
	tb_room(b, 4096 + kept * (p->hist ? 80 * (p->slots_n + 3) : 0) + kept * 80 * p->nvals);
	if (p->hist)
		render_hist(p, keys, vals, order, m, kept, b);
	for (size_t i = 0; i < p->nvals; i++)
		render_values(p, &p->vals[i], keys, vals, order, m, kept, om, b);
	if (kept < m)
		render_folded(p, m - kept, b);
	free(order);
	return b->oom ? -ENOMEM : 0;
}

int mplan_render(const struct mplan *p, const unsigned char *const *keys,
		 const unsigned char *const *vals, size_t n, unsigned int flags, FILE *f)
{
	struct mtext b = { 0 };
	int err = mplan_render_text(p, keys, vals, n, flags, &b);

	if (!err && b.len)
		fwrite(b.p, 1, b.len, f);
	free(b.p);
	return err;
}
