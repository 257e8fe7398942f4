// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_metrics.c - maps as Prometheus metrics (loader/readers/metrics/metrics.c)
 * over BTF and entries made here: the log2 buckets' edges value by value against a
 * histogram filled as BCC's log2l() fills it, the units, labels from every
 * kind of key member and their escaping, counters and gauges, per-CPU sums,
 * the series limit's overflow series, and OpenMetrics' names.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bpfsdk.h"
#include "readers/metrics/metrics.h"
#include "check.h"
#include "btf_build.h"

static struct bb b;
static const struct bsdk_btf *btf;
static uint32_t u32_t, s64_t, u64_t, comm_t, key_t_, hist_t, cnt_t, state_t, nested_t;
static uint32_t ukey_t, slots8_t, clash_t, overrun_t, nested_hist_t, comm_hist_t;

/* struct key { u32 pid; char comm[16]; enum state st; struct { u32 a; } in; union u; } */
static void build_types(void)
{
	uint32_t char_t, slots_t, inner_t, uni_t, slots8v_t;
	size_t size;
	void *raw;

	bb_init(&b);
	u32_t = bb_int(&b, "unsigned int", 4, 0);
	s64_t = bb_int(&b, "long long", 8, BTF_INT_SIGNED);
	u64_t = bb_int(&b, "unsigned long long", 8, 0);
	char_t = bb_int(&b, "char", 1, BTF_INT_SIGNED);
	comm_t = bb_array(&b, char_t, u32_t, 16);
	state_t = bb_enum(&b, "state", 4, 2);
	bb_enumval(&b, "ST_RUN", 0);
	bb_enumval(&b, "ST_WAIT", 1);
	inner_t = bb_struct(&b, "inner", 4, 1);
	bb_member(&b, "port", u32_t, 0);
	uni_t = bb_union(&b, "either", 4, 1);
	bb_member(&b, "x", u32_t, 0);

	key_t_ = bb_struct(&b, "key", 32, 5);
	bb_member(&b, "pid", u32_t, 0);
	bb_member(&b, "comm", comm_t, 32);
	bb_member(&b, "st", state_t, 160);
	bb_member(&b, "in", inner_t, 192);
	bb_member(&b, "u", uni_t, 224);

	slots_t = bb_array(&b, u64_t, u32_t, 64);
	hist_t = bb_struct(&b, "hist", 64 * 8 + 16, 3);
	bb_member(&b, "slots", slots_t, 0);
	bb_member(&b, "sum", u64_t, 64 * 64);
	bb_member(&b, "wakeups", u64_t, 65 * 64);

	cnt_t = bb_struct(&b, "cnt", 16, 2);
	bb_member(&b, "calls", u64_t, 0);
	bb_member(&b, "delta", s64_t, 64);

	/* a key whose members can none be labels */
	nested_t = bb_array(&b, u32_t, u32_t, 2);
	ukey_t = bb_struct(&b, "ukey", 8, 1);
	bb_member(&b, "pair", nested_t, 0);

	/* { u32 in_port; struct inner in; }: both flatten to the label in_port */
	clash_t = bb_struct(&b, "clash", 8, 2);
	bb_member(&b, "in_port", u32_t, 0);
	bb_member(&b, "in", inner_t, 32);

	slots8v_t = bb_array(&b, u32_t, u32_t, 8);
	slots8_t = bb_struct(&b, "small_hist", 32, 1);
	bb_member(&b, "slots", slots8v_t, 0);

	/* slots that run past the value: 16 bytes, slots of 32 (the BTF is the object's) */
	overrun_t = bb_struct(&b, "overrun", 16, 2);
	bb_member(&b, "calls", u64_t, 0);
	bb_member(&b, "slots", slots8v_t, 64);
	/* slots one struct down, and a char[] named slots: no histogram */
	nested_hist_t = bb_struct(&b, "nested_hist", 32, 1);
	bb_member(&b, "h", slots8_t, 0);
	comm_hist_t = bb_struct(&b, "comm_hist", 16, 1);
	bb_member(&b, "slots", comm_t, 0);

	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	if (!btf)
		abort();
}

static char *render(const struct mplan_map *m, const struct bsdk_metrics_opts *o,
		    const void *const *keys, const void *const *vals, size_t n, unsigned int flags)
{
	struct mplan *p = mplan_new(m, o);
	char *text = NULL;
	size_t len;
	FILE *f;

	if (!p)
		return NULL;
	f = open_memstream(&text, &len);
	mplan_render(p, (const unsigned char *const *)keys, (const unsigned char *const *)vals, n,
		     flags, f);
	fclose(f);
	mplan_free(p);
	return text;
}

/* The value of the line that begins with start, as text; NULL when there is none. */
static const char *value_of(const char *text, const char *start, char *buf, size_t size)
{
	size_t n = strlen(start);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, start, n) && l[n] == ' ') {
			snprintf(buf, size, "%.*s", (int)strcspn(l + n + 1, "\n"), l + n + 1);
			return buf;
		}
	}
	return NULL;
}

/* A decimal of le back to raw units (value * 10^digits), exactly; UINT64_MAX for +Inf. */
static uint64_t raw_of(const char *le, unsigned int digits)
{
	uint64_t v = 0;
	unsigned int frac = 0;
	bool dot = false;

	if (!strcmp(le, "+Inf"))
		return UINT64_MAX;
	for (const char *c = le; *c; c++) {
		if (*c == '.') {
			dot = true;
			continue;
		}
		v = v * 10 + (uint64_t)(*c - '0');
		frac += dot;
	}
	for (; frac < digits; frac++)
		v *= 10;
	return v;
}

/* BCC's log2l(): the slot of value v. */
static unsigned int log2l_slot(uint64_t v)
{
	unsigned int r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/* For each value v, a histogram holding v alone: the first bucket that counts it must be the
 * first whose le is >= v, read from the output as the scraper reads it. */
static void test_bucket_edges(const char *map, unsigned int digits, uint64_t last)
{
	uint32_t zero = 0;
	struct mplan_map m = { .name = map, .btf = btf, .key_type = u32_t,
			       .value_type = hist_t, .key_size = 4, .value_size = 64 * 8 + 16,
			       .keyed = false };
	unsigned char val[64 * 8 + 16];
	const void *keys[1] = { &zero }, *vals[1] = { val };
	int bad = 0;
	uint64_t checked = 0;

	for (uint64_t v = 0;; v = v < 4200 ? v + 1 : v * 3 + 1) {
		uint64_t slots[64] = { 0 }, prev_le = 0;
		char *text, *line;
		bool first_counted = false, seen = false;

		slots[log2l_slot(v)] = 1;
		memset(val, 0, sizeof(val));
		memcpy(val, slots, sizeof(slots));
		text = render(&m, NULL, keys, vals, 1, 0);
		if (!text) {
			bad++;
			break;
		}
		for (line = strstr(text, "_bucket{le=\""); line; line = strstr(line + 1, "_bucket{le=\"")) {
			char le[48];
			uint64_t count, raw;

			sscanf(line, "_bucket{le=\"%47[^\"]\"} %" SCNu64, le, &count);
			raw = raw_of(le, digits);
			if (count == 1 && !first_counted) {
				first_counted = true;
				/* v <= le, and v > the previous le */
				if (!(v <= raw && (!seen || v > prev_le))) {
					if (bad++ < 5)
						check_diag("value %" PRIu64 ": counted first in le=%s (raw %" PRIu64 "), previous raw %" PRIu64,
							   v, le, raw, prev_le);
				}
			} else if (!first_counted && count != 0) {
				bad++;
			}
			prev_le = raw;
			seen = true;
		}
		if (!first_counted && bad++ < 5)
			check_diag("value %" PRIu64 ": no bucket counted it", v);
		free(text);
		checked++;
		if (v > last / 3)
			break;
	}
	check(bad == 0 && checked > 4000, "%s: %" PRIu64 " values, each counted from the first bucket whose le >= it (%d wrong)",
	      map, checked, bad);
}

static void test_hist_text(void)
{
	uint32_t zero = 0;
	struct mplan_map m = { .name = "runq_lat_us", .object = "obj", .btf = btf,
			       .key_type = u32_t, .value_type = hist_t, .key_size = 4,
			       .value_size = 64 * 8 + 16, .keyed = false };
	uint64_t val[66] = { 0 };
	const void *keys[1] = { &zero }, *vals[1] = { val };
	char *text, buf[64];

	/* values 0, 1 (slot 0), 5 (slot 2), 1000000 (slot 19): sum 1000006 usecs */
	val[0] = 2, val[2] = 1, val[19] = 1, val[64] = 1000006, val[65] = 7;
	text = render(&m, NULL, keys, vals, 1, 0);
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"0.000001\"}", buf, sizeof(buf)), "2",
		  "usecs: slot 0's le is 1 us = 0.000001 s");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"0.000003\"}", buf, sizeof(buf)), "2",
		  "slot 1's le is 3 us, cumulative");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"0.000007\"}", buf, sizeof(buf)), "3",
		  "slot 2's le is 7 us");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"1.048575\"}", buf, sizeof(buf)), "4",
		  "slot 19's le is 2^20 - 1 us");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"18446744073709.551615\"}", buf, sizeof(buf)), "4",
		  "slot 63's le is the largest u64");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_bucket{object=\"obj\",le=\"+Inf\"}", buf, sizeof(buf)), "4",
		  "+Inf holds every value");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_count{object=\"obj\"}", buf, sizeof(buf)), "4", "_count");
	check_str(value_of(text, "bpfsdk_runq_lat_seconds_sum{object=\"obj\"}", buf, sizeof(buf)), "1.000006",
		  "_sum from the member 'sum', in seconds");
	check_str(value_of(text, "bpfsdk_runq_lat_wakeups_total{object=\"obj\"}", buf, sizeof(buf)), "7",
		  "another integer member is a counter");
	check(strstr(text, "# TYPE bpfsdk_runq_lat_seconds histogram\n") != NULL,
	      "TYPE histogram, named in seconds without the name's '_us'");
	check(strstr(text, "# TYPE bpfsdk_runq_lat_wakeups_total counter\n") != NULL,
	      "0.0.4: a counter's TYPE line names it with _total");
	free(text);
	text = render(&m, NULL, keys, vals, 1, BSDK_METRICS_OPENMETRICS);
	check(strstr(text, "# TYPE bpfsdk_runq_lat_wakeups counter\n") != NULL &&
	      strstr(text, "\nbpfsdk_runq_lat_wakeups_total{object=\"obj\"} 7\n") != NULL,
	      "OpenMetrics: the family without _total, its sample with it");
	free(text);

	/* no unit in the name: le is the raw number; u32 slots */
	m = (struct mplan_map){ .name = "sizes", .btf = btf, .key_type = u32_t,
				.value_type = slots8_t, .key_size = 4, .value_size = 32,
				.keyed = true };
	{
		uint32_t v32[8] = { 1, 0, 0, 2, 0, 0, 0, 5 };
		const void *vs[1] = { v32 };

		text = render(&m, NULL, keys, vs, 1, 0);
		check_str(value_of(text, "bpfsdk_sizes_bucket{key=\"0\",le=\"15\"}", buf, sizeof(buf)), "3",
			  "no unit: slot 3's le is 15, u32 slots");
		check_str(value_of(text, "bpfsdk_sizes_bucket{key=\"0\",le=\"255\"}", buf, sizeof(buf)), "8",
			  "slot 7 (the last) le 255");
		check(strstr(text, "bpfsdk_sizes_sum") == NULL, "no sum member: no _sum");
		free(text);
	}
}

struct kv {
	uint32_t pid;
	char comm[16];
	uint32_t st, port, u;
};

static void test_labels(void)
{
	struct kv k[3] = {
		{ 7, "a\"b\\c\nd", 1, 80, 9 },
		{ 3, "\xff\xfe ok \xc3\xa9", 0, 443, 9 },
		{ 5, "full_comm_16byte", 5, 1, 9 },	/* no NUL; enum value outside the enum */
	};
	uint64_t v[3][2] = { { 10, (uint64_t)-4 }, { 20, 0 }, { 30, 1 } };
	const void *keys[3] = { &k[0], &k[1], &k[2] }, *vals[3] = { v[0], v[1], v[2] };
	struct mplan_map m = { .name = "calls", .object = "o\"x", .btf = btf, .key_type = key_t_,
			       .value_type = cnt_t, .key_size = 32, .value_size = 16,
			       .keyed = true };
	char *text, buf[64];

	text = render(&m, NULL, keys, vals, 3, 0);
	check_str(value_of(text, "bpfsdk_calls_calls_total{object=\"o\\\"x\",pid=\"7\",comm=\"a\\\"b\\\\c\\nd\",st=\"ST_WAIT\",in_port=\"80\"}", buf, sizeof(buf)), "10",
		  "labels: decimal, escaped string, enum by name, nested struct flattened");
	check_str(value_of(text, "bpfsdk_calls_calls_total{object=\"o\\\"x\",pid=\"3\",comm=\"\xef\xbf\xbd\xef\xbf\xbd ok \xc3\xa9\",st=\"ST_RUN\",in_port=\"443\"}", buf, sizeof(buf)), "20",
		  "bytes that are not UTF-8 become U+FFFD, UTF-8 stays");
	check_str(value_of(text, "bpfsdk_calls_calls_total{object=\"o\\\"x\",pid=\"5\",comm=\"full_comm_16byte\",st=\"5\",in_port=\"1\"}", buf, sizeof(buf)), "30",
		  "a char[] without NUL ends at its size; an enum value outside the enum as a number");
	check_str(value_of(text, "bpfsdk_calls_delta_total{object=\"o\\\"x\",pid=\"7\",comm=\"a\\\"b\\\\c\\nd\",st=\"ST_WAIT\",in_port=\"80\"}", buf, sizeof(buf)), "-4",
		  "a signed member prints signed");
	check(strstr(text, "u=") == NULL, "the union member is no label");
	/* sorted by key bytes: pid 3 before 5 before 7 */
	check(strstr(text, "pid=\"3\"") < strstr(text, "pid=\"5\"") &&
	      strstr(text, "pid=\"5\"") < strstr(text, "pid=\"7\""), "series sorted by key");
	free(text);

	/* a gauge by name */
	m.name = "queue_gauge";
	text = render(&m, NULL, keys, vals, 3, 0);
	check(strstr(text, "# TYPE bpfsdk_queue_gauge_calls gauge\n") != NULL &&
	      strstr(text, "_total") == NULL, "a map named *_gauge: gauges, no _total");
	free(text);
	/* a gauge by list, and another prefix */
	m.name = "calls";
	text = render(&m, &(struct bsdk_metrics_opts){ .sz = sizeof(struct bsdk_metrics_opts),
		       .prefix = "fleet", .gauges = "x,calls" }, keys, vals, 3, 0);
	check(strstr(text, "# TYPE fleet_calls_calls gauge\n") != NULL, "a map in opts.gauges, prefix");
	free(text);

	/* series limit: 2 keys kept, the third folded */
	text = render(&m, &(struct bsdk_metrics_opts){ .sz = sizeof(struct bsdk_metrics_opts),
		       .max_series = 2 }, keys, vals, 3, 0);
	check_str(value_of(text, "bpfsdk_calls_calls_total{object=\"o\\\"x\",overflow=\"true\"}", buf, sizeof(buf)), "10",
		  "the key beyond the limit (pid 7, the largest) added up in the overflow series");
	check_str(value_of(text, "bpfsdk_calls_metrics_keys_folded{object=\"o\\\"x\"}", buf, sizeof(buf)), "1",
		  "the number of keys folded");
	check(strstr(text, "pid=\"7\"") == NULL && strstr(text, "pid=\"3\"") && strstr(text, "pid=\"5\""),
	      "the smallest keys kept");
	free(text);
}

static void test_percpu_and_plain(void)
{
	/* per-CPU u64 values, 3 CPUs, scalar key: summed, or one series per CPU */
	uint32_t key = 42;
	uint64_t percpu[3] = { 1, 2, 40 };
	const void *keys[1] = { &key }, *vals[1] = { percpu };
	struct mplan_map m = { .name = "hits", .btf = btf, .key_type = u32_t, .value_type = u64_t,
			       .key_size = 4, .value_size = 8, .keyed = true, .ncpus = 3 };
	char *text, buf[64];

	text = render(&m, NULL, keys, vals, 1, 0);
	check_str(value_of(text, "bpfsdk_hits_total{key=\"42\"}", buf, sizeof(buf)), "43",
		  "per-CPU values added up; a scalar key is the label key");
	free(text);
	text = render(&m, &(struct bsdk_metrics_opts){ .sz = sizeof(struct bsdk_metrics_opts),
		       .flags = BSDK_METRICS_PER_CPU }, keys, vals, 1, 0);
	check_str(value_of(text, "bpfsdk_hits_total{key=\"42\",cpu=\"2\"}", buf, sizeof(buf)), "40",
		  "BSDK_METRICS_PER_CPU: label cpu");
	free(text);

	/* no BTF: a 4-byte value is a counter, a 6-byte key is hex */
	{
		unsigned char k6[6] = { 0xde, 0xad, 0, 1, 2, 3 };
		uint32_t v = 9;
		const void *ks[1] = { k6 }, *vs[1] = { &v };

		m = (struct mplan_map){ .name = "legacy.map", .key_size = 6, .value_size = 4,
					.keyed = true };
		text = render(&m, NULL, ks, vs, 1, 0);
		check_str(value_of(text, "bpfsdk_legacy_map_total{key=\"0xdead00010203\"}", buf, sizeof(buf)), "9",
			  "no BTF: the key in hex, the name's '.' as '_'");
		free(text);
	}
	/* a key none of whose members can be a label: one warning, the key in hex */
	{
		uint32_t pair[2] = { 1, 2 };
		uint64_t v = 5;
		const void *ks[1] = { pair }, *vs[1] = { &v };

		m = (struct mplan_map){ .name = "pairs", .btf = btf, .key_type = ukey_t,
					.value_type = u64_t, .key_size = 8, .value_size = 8,
					.keyed = true };
		text = render(&m, NULL, ks, vs, 1, 0);
		check_str(value_of(text, "bpfsdk_pairs_total{key=\"0x0100000002000000\"}", buf, sizeof(buf)), "5",
			  "a key of a nested array: hex in the label key");
		free(text);
	}
	/* two members whose labels would have one name: the second left out */
	{
		uint32_t k2[2] = { 7, 9 };
		uint64_t v = 1;
		const void *ks[1] = { k2 }, *vs[1] = { &v };

		m = (struct mplan_map){ .name = "clash", .btf = btf, .key_type = clash_t,
					.value_type = u64_t, .key_size = 8, .value_size = 8,
					.keyed = true };
		text = render(&m, NULL, ks, vs, 1, 0);
		check_str(value_of(text, "bpfsdk_clash_total{in_port=\"7\"}", buf, sizeof(buf)), "1",
			  "a label name two members flatten to: the first member's, once");
		free(text);
	}
	/* nothing to export */
	m = (struct mplan_map){ .name = "blobs", .key_size = 4, .value_size = 24, .keyed = true };
	{
		struct mplan *p = mplan_new(&m, NULL);
		int err = errno;

		check(p == NULL && err == EINVAL,
		      "a value of 24 bytes without BTF: no plan, EINVAL (errno %d)", err);
		mplan_free(p);
	}
	/* an array of several entries leaves out the all-zero ones */
	{
		uint32_t k0 = 0, k1 = 1;
		uint64_t v0 = 0, v1 = 3;
		const void *ks[2] = { &k0, &k1 }, *vs[2] = { &v0, &v1 };

		m = (struct mplan_map){ .name = "arr", .btf = btf, .key_type = u32_t,
					.value_type = u64_t, .key_size = 4, .value_size = 8,
					.keyed = true, .skip_zero = true };
		text = render(&m, NULL, ks, vs, 2, 0);
		check(strstr(text, "key=\"0\"") == NULL && strstr(text, "bpfsdk_arr_total{key=\"1\"} 3\n"),
		      "array: the zero entry left out");
		free(text);
	}
}

/* The family a histogram map gets: its name's unit taken out, _seconds added. */
static void check_hist_name(const char *map, const struct bsdk_metrics_opts *o, const char *want,
			    const char *le1)
{
	uint32_t zero = 0;
	uint64_t val[66] = { 1 };
	const void *keys[1] = { &zero }, *vals[1] = { val };
	struct mplan_map m = { .name = map, .btf = btf, .key_type = u32_t, .value_type = hist_t,
			       .key_size = 4, .value_size = 64 * 8 + 16 };
	char *text = render(&m, o, keys, vals, 1, 0), line[128], buf[32];

	snprintf(line, sizeof(line), "%s_bucket{le=\"%s\"}", want, le1);
	check_str(value_of(text, line, buf, sizeof(buf)), "1", "map '%s': %s", map, line);
	free(text);
}

static void test_hist_names(void)
{
	struct bsdk_metrics_opts ms = { .sz = sizeof(ms), .unit = "msecs" };

	check_hist_name("lat_ns", NULL, "bpfsdk_lat_seconds", "0.000000001");
	check_hist_name("usecs_hist", NULL, "bpfsdk_hist_seconds", "0.000001");
	check_hist_name("io_lat_us_total", NULL, "bpfsdk_io_lat_total_seconds", "0.000001");
	check_hist_name("dist", &ms, "bpfsdk_dist_seconds", "0.001");
	check_hist_name("size_bytes", NULL, "bpfsdk_size_bytes", "1");
	check_hist_name("dist", NULL, "bpfsdk_dist", "1");
}

/* bsdk_hist_slots(): the one rule of the map views and the metrics. */
static void test_slots_rule(void)
{
	struct bsdk_hist_slots h;
	struct mplan_map m = { .name = "bad", .btf = btf, .key_type = u32_t,
			       .value_type = overrun_t, .key_size = 4, .value_size = 16 };
	struct mplan *p;

	check(bsdk_hist_slots(btf, hist_t, 64 * 8 + 16, &h) && h.off == 0 && h.n == 64 &&
	      h.size == 8, "struct hist: 64 slots of 8 bytes at 0");
	check(bsdk_hist_slots(btf, slots8_t, 32, &h) && h.n == 8 && h.size == 4,
	      "struct small_hist: 8 slots of 4 bytes");
	check(!bsdk_hist_slots(btf, slots8_t, 40, &h) && h.n == 0,
	      "a value size other than the struct's: no histogram");
	check(!bsdk_hist_slots(btf, overrun_t, 16, &h), "slots past the value: no histogram");
	check(!bsdk_hist_slots(btf, nested_hist_t, 32, &h), "slots in a member struct: no histogram");
	check(!bsdk_hist_slots(btf, comm_hist_t, 16, &h), "char slots[16]: no histogram");
	check(!bsdk_hist_slots(btf, u64_t, 8, &h) && !bsdk_hist_slots(NULL, hist_t, 528, &h),
	      "an integer value, no BTF: no histogram");
	/* the metrics took the slots past the value for a histogram, read past each value */
	p = mplan_new(&m, NULL);
	check(p && !p->hist && p->nvals == 1, "metrics: slots past the value are no histogram");
	mplan_free(p);
}

static void test_decimal(void)
{
	char buf[32];

	metrics_decimal(1, 6, buf);
	check_str(buf, "0.000001", "1 us");
	metrics_decimal(1500000, 6, buf);
	check_str(buf, "1.5", "1.5 s, zeros cut");
	metrics_decimal(UINT64_MAX, 9, buf);
	check_str(buf, "18446744073.709551615", "the largest u64 in ns");
	metrics_decimal(1023, 0, buf);
	check_str(buf, "1023", "no unit");
}

int main(void)
{
	bsdk_set_log_level(BSDK_LOG_ERROR);	/* the warnings of the bad keys are expected */
	build_types();
	test_decimal();
	test_slots_rule();
	test_hist_text();
	test_hist_names();
	test_bucket_edges("lat", 0, UINT64_MAX / 2);
	test_bucket_edges("lat_us", 6, UINT64_MAX / 2);
	test_bucket_edges("lat_ns", 9, UINT64_MAX / 2);
	test_labels();
	test_percpu_and_plain();
	bsdk_btf_free((struct bsdk_btf *)btf);
	bb_free(&b);
	return check_done();
}
