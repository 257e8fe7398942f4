// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect_records.c - `bpfsdk inspect`: for each map that streams records
 * (a PERF_EVENT_ARRAY or RINGBUF), the type `bpfsdk run` will decode them
 * as and where it comes from, as the library's record types find it
 * (loader/readers/records/record_type.c): BPFSDK_RECORD(), the DWARF local a program
 * sends, several candidates, or the size rule at the first record.
 */
#include <stdio.h>
#include <linux/bpf.h>

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
