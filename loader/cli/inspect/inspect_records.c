// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect_records.c - `bpfsdk inspect`: for each map that streams records
 * (a PERF_EVENT_ARRAY or RINGBUF), the type `bpfsdk run` will decode them
 * as and where it comes from, as the library's record types find it
 * (loader/readers/records/record_type.c): BPFSDK_RECORD(), the DWARF local a program
 * sends, several candidates, or the size rule at the first record - and which
 * of its members run shows as addresses or in host order, and which it could
 * not classify.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "inspect.h"

bool inspect_streams(const struct bsdk_map *map)
{
	int type = bsdk_map_type(map);

	return type == BPF_MAP_TYPE_PERF_EVENT_ARRAY || type == BPF_MAP_TYPE_RINGBUF;
}

int inspect_record(const struct bsdk_obj *obj, struct bsdk_records *r,
		   const struct bsdk_map *map, struct bsdk_record_type *t, char *src, size_t size)
{
	int err = r ? bsdk_records_map_type(r, map, t) : -1;

	if (err) {
		snprintf(src, size, "none: %s", r ? bsdk_strerror(err) : "out of memory");
		return err;
	}
	switch (t->source) {
	case BSDK_RECORD_ANNOTATION:
		snprintf(src, size, "annotation: BPFSDK_RECORD()");
		break;
	case BSDK_RECORD_DWARF_LOCAL:
		snprintf(src, size, "DWARF local '%s' of %s", t->variable ? t->variable : "?",
			 t->prog);
		break;
	case BSDK_RECORD_AMBIGUOUS:
		snprintf(src, size, "none: the programs send %s (--type %s=NAME)", t->candidates,
			 bsdk_map_name(map));
		break;
	default:
		snprintf(src, size, "%s", bsdk_records_have_dwarf(r) || bsdk_obj_has_btf(obj) ?
			 "size rule, at the first record" : "none: no BTF or DWARF (hex)");
		break;
	}
	return 0;
}

static void list_add(char *list, size_t size, const char *name)
{
	size_t len = strlen(list);

	snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

int inspect_record_fields(struct bsdk_records *r, const struct bsdk_map *map,
			  const struct bsdk_record_type *t, struct record_fields *out)
{
	struct bsdk_btf_field_view *views = NULL;
	struct bsdk_btf_info m;
	size_t nviews = 0;

	memset(out, 0, sizeof(*out));
	if (!t->btf)
		return 0;
	if (bsdk_records_views(r, map, t->btf, t->type_id, &views, &nviews) == -ENOMEM)
		return -ENOMEM;
	for (uint32_t i = 0; bsdk_btf_member(t->btf, t->type_id, i, &m) == 0; i++) {
		enum bsdk_btf_view v = bsdk_btf_member_view(t->btf, t->type_id, i);
		bool known = false;

		for (size_t k = 0; k < nviews; k++)
			if (strcmp(views[k].name, m.member) == 0)
				v = views[k].view, known = true;
		if (v == BSDK_VIEW_INET)
			list_add(out->addr, sizeof(out->addr), m.member);
		else if (v == BSDK_VIEW_NTOH)
			list_add(out->host, sizeof(out->host), m.member);
		else if (!known && (strstr(m.member, "addr") || strstr(m.member, "port")) &&
			 (m.kind == BTF_KIND_INT || (m.kind == BTF_KIND_ARRAY && !m.is_string)))
			list_add(out->unknown, sizeof(out->unknown), m.member);
	}
	free(views);
	return 0;
}
