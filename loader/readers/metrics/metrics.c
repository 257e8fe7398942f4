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
 * thread (the HTTP server's). metrics_text.c writes by the plan.
 *
 *   value with an integer array "slots"   histogram (bsdk_hist_slots(): the
 *   (the rule in readers/print/hist.c)    map views' rule): slot 0 holds 0 and 1,
 *                                         slot k >= 1 holds [2^k, 2^(k+1) - 1]
 *                                         (BCC's log2l()), so bucket k's
 *                                         le is 2^(k+1) - 1, exact for
 *                                         integers
 *   other integers                        counters (NAME_total), gauges for
 *                                         maps named *_gauge or listed
 *   key members                           labels
 */
#include <ctype.h>
#include <stdio.h>
#include <linux/btf.h>

#include "object/object.h"
#include "readers/metrics/metrics.h"

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

/* The unit a name says its values have (bsdk_hist_unit()): log2 slots of time become seconds,
 * written with as many decimals as the unit has below a second. *at and *len (may be NULL) say
 * where the name says it. */
static unsigned int digits_of(const char *name, const char **unit, const char **at_out,
			      size_t *len_out)
{
	size_t at = 0, len = 0;
	const char *u = name ? bsdk_hist_unit(name, &at, &len) : NULL;

	if (!u)
		return 0;
	if (at_out)
		*at_out = name + at, *len_out = len;
	*unit = strcmp(u, "bytes") ? "seconds" : "bytes";
	return !strcmp(u, "usecs") ? 6 : !strcmp(u, "nsecs") ? 9 : !strcmp(u, "msecs") ? 3 : 0;
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
	/* "a_b" and a nested "a.b" flatten alike: one label of a name, or the text is invalid */
	for (size_t i = 0; i < p->nlabels; i++)
		if (!strcmp(p->labels[i].name, l->name)) {
			log_warn("map '%s': key member '%s' left out: its label '%s' is another member's",
				 p->map_name, name, l->name);
			free(l->name);
			l->name = NULL;
			return 0;
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
		} else if (bsdk_btf_member_view(btf, id, i) != BSDK_VIEW_DEFAULT && !m.bitfield) {
			size_t n = p->nlabels;	/* an address, a big-endian port: as tools print them */

			err = add_label(p, name ? name : "key", off, (uint32_t)m.size, id, LAB_NET);
			if (p->nlabels > n)
				p->labels[n].base = base, p->labels[n].member = i;
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
	if (!err && !p->nlabels) {
		log_warn("map '%s': no key member can be a label (%s; a label holds an integer, an enum or a char[] string): the key shown as one label 'key' in hex",
			 p->map_name, skipped);
		return add_label(p, "key", 0, p->m.key_size, 0, LAB_HEX);
	}
	if (!err && skipped[0])
		log_warn("map '%s': key member%s %s left out of the labels: a label holds an integer, an enum or a char[] string",
			 p->map_name, strchr(skipped, ',') ? "s" : "", skipped);
	return err;
}

static int add_value(struct mplan *p, const char *member, uint32_t off, uint32_t size,
		     bool is_signed)
{
	struct vfield *v;

	if (p->nvals == MAX_VALUES) {
		log_warn("map '%s': value member '%s' left out: more than %d integers", p->map_name,
			 member ? member : "", MAX_VALUES);
		return 0;
	}
	v = &p->vals[p->nvals];
	if (member && !(v->member = strdup(member)))
		return -ENOMEM;
	v->off = off, v->size = size, v->is_signed = is_signed;
	p->nvals++;
	return 0;
}

/* The families' names, once the map's own is known. */
static int name_values(struct mplan *p)
{
	for (size_t i = 0; i < p->nvals; i++) {
		struct vfield *v = &p->vals[i];
		size_t n;

		v->name = v->member ? join(p->family, v->member) : strdup(p->family);
		if (!v->name)
			return -ENOMEM;
		for (char *c = v->name; *c; c++)
			if (!name_char(*c, false))
				*c = '_';
		/* a counter's family is named without the _total its samples get */
		n = strlen(v->name);
		if (!p->gauge && n > 6 && !strcmp(v->name + n - 6, "_total"))
			v->name[n - 6] = '\0';
	}
	return 0;
}

/* A histogram of times is PREFIX_MAP_seconds, the unit its name said taken out of it
 * ("runq_lat_us" -> PREFIX_runq_lat_seconds), as the exposition's naming rules ask. */
static int name_hist(struct mplan *p, const char *prefix, const char *at, size_t len)
{
	char *name, *stripped;
	size_t n;

	if (!p->hist || !p->unit || strcmp(p->unit, "seconds"))
		return (p->hist_family = strdup(p->family)) ? 0 : -ENOMEM;
	if (at) {
		/* the name without the unit's word, and without the '_' it leaves over */
		name = p->map_name;
		stripped = malloc(strlen(name) + 1);
		if (!stripped)
			return -ENOMEM;
		sprintf(stripped, "%.*s%s", (int)(at - name), name, at + len);
		n = strlen(stripped);
		while (n && stripped[n - 1] == '_')
			stripped[--n] = '\0';
		if (n && strstr(stripped, "__"))
			memmove(strstr(stripped, "__"), strstr(stripped, "__") + 1,
				strlen(strstr(stripped, "__")));
		n = strspn(stripped, "_");	/* "usecs_hist": "hist" */
		if (stripped[n]) {
			char *clean = sanitize(stripped + n);

			free(p->family);
			p->family = NULL;
			if (!clean || asprintf(&p->family, "%s_%s", prefix, clean) < 0) {
				p->family = NULL;
				free(clean);
				free(stripped);
				return -ENOMEM;
			}
			free(clean);
		}
		free(stripped);
	}
	n = strlen(p->family);
	if (n >= 8 && !strcmp(p->family + n - 8, "_seconds"))
		return (p->hist_family = strdup(p->family)) ? 0 : -ENOMEM;
	return asprintf(&p->hist_family, "%s_seconds", p->family) < 0 ? -ENOMEM : 0;
}

static bool is_sum_name(const char *s)
{
	size_t n = strlen(s);

	return !strcmp(s, "sum") || !strncmp(s, "sum_", 4) || (n > 4 && !strcmp(s + n - 4, "_sum"));
}

static int plan_value(struct mplan *p)
{
	const struct bsdk_btf *btf = p->m.btf;
	struct bsdk_hist_slots slots;
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
	/* the histogram first (the map views' rule, bsdk_hist_slots()): it decides what a "sum"
	 * member is */
	if (bsdk_hist_slots(btf, p->m.value_type, p->m.value_size, &slots)) {
		p->hist = true;
		p->slots_off = slots.off;
		p->slots_n = slots.n;
		p->slots_size = slots.size;
	}
	for (uint32_t i = 0; !err && bsdk_btf_member(btf, p->m.value_type, i, &m) == 0; i++) {
		if (p->hist && m.offset == p->slots_off && !strcmp(m.member, "slots"))
			continue;
		if (bsdk_btf_is_int(&m) && m.member[0] && p->hist && !p->has_sum && is_sum_name(m.member)) {
			p->has_sum = true;
			p->sum = (struct vfield){ .off = (uint32_t)m.offset,
						  .size = (uint32_t)m.size, .is_signed = m.is_signed };
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
	const char *at = NULL;
	size_t n, len = 0;
	char *name;
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

		/* as the map views: the unit given, else the map's name's, else its value's */
		if (opts && opts->sz > offsetof(struct bsdk_metrics_opts, unit) && opts->unit)
			p->digits = digits_of(opts->unit, &p->unit, NULL, NULL);
		if (!p->unit)
			p->digits = digits_of(map->name, &p->unit, &at, &len);
		if (!p->unit && map->btf && !bsdk_btf_info(map->btf, map->value_type, NULL, &v))
			p->digits = digits_of(v.name, &p->unit, NULL, NULL);
	}
	if (!err)	/* at is in map->name: the same place in the plan's copy */
		err = name_hist(p, prefix, at ? p->map_name + (at - map->name) : NULL, len);
	if (!err)
		err = name_values(p);
	if (!err && p->hist)
		err = add_family(p, p->hist_family);
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
	for (size_t i = 0; i < p->nvals; i++) {
		free(p->vals[i].member);
		free(p->vals[i].name);
	}
	free(p->hist_family);
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

