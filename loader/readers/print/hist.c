// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * hist.c - the log2 histogram chart of BCC's tools, shared by the samples
 * and `bpfsdk run`'s map views so that there is one picture to read, and
 * the one rule for which maps hold such a histogram (the map views' and
 * the metrics').
 */
#include <linux/btf.h>

#include "base/base.h"

uint64_t bsdk_hist_print_log2(FILE *f, const uint64_t *slots, size_t nslots, const char *unit)
{
	static const char bar[] = "****************************************";
	const int width = (int)sizeof(bar) - 1;
	size_t first = SIZE_MAX, last = 0;
	uint64_t top = 0, total = 0;

	if (nslots > 64)	/* slot 64 would start past every u64 */
		nslots = 64;
	for (size_t i = 0; i < nslots; i++) {
		if (!slots[i])
			continue;
		if (first == SIZE_MAX)
			first = i;
		last = i;
		if (slots[i] > top)
			top = slots[i];
		total += slots[i];
	}
	if (first == SIZE_MAX)
		return 0;
	fprintf(f, "%14s%8s : %-8s %s\n", unit ? unit : "value", "", "count", "distribution");
	for (size_t i = first; i <= last; i++) {
		uint64_t low = i ? UINT64_C(1) << i : 0;
		uint64_t high = i == 63 ? UINT64_MAX : (UINT64_C(2) << i) - 1;
		/* in 128 bits: count * 40 may not fit into 64 */
		int len = (int)((unsigned __int128)slots[i] * (unsigned)width / top);

		fprintf(f, "%9llu -> %-9llu : %-8llu |%-*.*s|\n", (unsigned long long)low,
			(unsigned long long)high, (unsigned long long)slots[i], width, len, bar);
	}
	return total;
}

const char *bsdk_hist_unit(const char *name, size_t *at, size_t *len)
{
	static const struct { const char *word, *unit; } units[] = {
		{ "usecs", "usecs" }, { "_us", "usecs" }, { "nsecs", "nsecs" },
		{ "_ns", "nsecs" }, { "msecs", "msecs" }, { "_ms", "msecs" }, { "bytes", "bytes" },
	};

	for (size_t i = 0; name && i < ARRAY_SIZE(units); i++) {
		const char *found = strstr(name, units[i].word);
		size_t n = strlen(units[i].word);

		/* "_us" only as a word's end: "lat_us", "lat_us_hist", not "_usage" */
		if (found && (units[i].word[0] != '_' || found[n] == '\0' || found[n] == '_')) {
			if (at)
				*at = (size_t)(found - name), *len = n;
			return units[i].unit;
		}
	}
	return NULL;
}

/*
 * The one rule for which maps hold a log2 histogram, used by `bpfsdk run`'s map views and by
 * the metrics alike, so that a map charted at the end of a run is the histogram --metrics
 * exports: the value's BTF (typedefs and qualifiers skipped) is a struct of exactly the map's
 * value size with a member of its own named "slots" (not one inside a nested or anonymous
 * struct) that is an array of 1-, 2-, 4- or 8-byte integers (not a char[] string) lying wholly
 * inside the value. Its first 64 elements are the slots: slot 64 would start past every u64.
 */
bool bsdk_hist_slots(const struct bsdk_btf *btf, uint32_t value_type, size_t value_size,
		     struct bsdk_hist_slots *out)
{
	struct bsdk_btf_info v, m;

	memset(out, 0, sizeof(*out));
	if (!btf || !value_type || bsdk_btf_info(btf, value_type, NULL, &v) ||
	    v.kind != BTF_KIND_STRUCT || v.size != value_size)
		return false;
	for (uint32_t i = 0; bsdk_btf_member(btf, value_type, i, &m) == 0; i++) {
		if (strcmp(m.member, "slots") || !bsdk_btf_is_int_array(btf, &m) ||
		    m.offset > value_size || m.size > value_size - m.offset)
			continue;
		out->off = (uint32_t)m.offset;
		out->n = m.nelems < 64 ? m.nelems : 64;
		out->size = (uint32_t)m.elem_size;
		return true;
	}
	return false;
}
