// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen_records.c - the skeleton's checks of the records its maps stream: for
 * each perf event array or ring buffer whose record type the object names
 * (BPFSDK_RECORD(), or the variable its programs send, read from DWARF),
 * compile-time checks that the user side's struct of that name has the
 * object's size and each member's offset and size. A user-side copy that
 * drifted from the BPF side (a member added on one side only, a type
 * changed) then fails to build, naming the member, instead of printing
 * shifted fields. The user side includes the header that defines the
 * struct before the skeleton, as it does for globals of a struct type.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <string.h>

#include "bpfsdk.h"
#include "tool/c_ident.h"
#include "gen.h"

/* "struct event", "union u" or a typedef's name; NULL for a type C cannot name here. */
static const char *c_type_kw(const struct bsdk_btf_info *info)
{
	if (!info->name[0] || !c_ident_ok(info->name))
		return NULL;
	switch (info->kind) {
	case BTF_KIND_STRUCT:
		return "struct ";
	case BTF_KIND_UNION:
		return "union ";
	default:
		return NULL;
	}
}

static void emit_checks(const struct skel *s, const char *map, const struct bsdk_record_type *t)
{
	struct bsdk_btf_info info, m;
	const char *kw;

	if (bsdk_btf_info(t->btf, t->type_id, NULL, &info) || !(kw = c_type_kw(&info)))
		return;
	fprintf(s->f, "/* map '%s' streams %s%s (%s): define it before including this header\n"
		" * (the header the BPF side includes), or define BSDK_SKEL_NO_RECORD_CHECKS. */\n",
		map, kw, info.name, t->source_name);
	fprintf(s->f, "_Static_assert(sizeof(%s%s) == %llu, \"%s%s: %llu bytes in %s\");\n",
		kw, info.name, (unsigned long long)info.size, kw, info.name,
		(unsigned long long)info.size, s->label);
	for (uint32_t i = 0; bsdk_btf_member(t->btf, t->type_id, i, &m) == 0; i++) {
		if (!m.member[0] || m.bitfield || !c_ident_ok(m.member))
			continue;
		fprintf(s->f, "_Static_assert(offsetof(%s%s, %s) == %llu && sizeof(((%s%s *)0)->%s) == %llu, "
			"\"%s%s: member '%s' at offset %llu, %llu bytes, in %s\");\n",
			kw, info.name, m.member, (unsigned long long)m.offset, kw, info.name, m.member,
			(unsigned long long)m.size, kw, info.name, m.member,
			(unsigned long long)m.offset, (unsigned long long)m.size, s->label);
	}
}

void skel_emit_record_checks(const struct skel *s)
{
	struct bsdk_records *r;
	struct bsdk_record_type t;
	bool any = false;

	r = bsdk_records_new(s->obj);
	if (!r)
		return;
	for (size_t i = 0; i < s->nmaps; i++) {
		uint32_t type = bsdk_map_type(s->maps[i].map);

		if (type != BPF_MAP_TYPE_PERF_EVENT_ARRAY && type != BPF_MAP_TYPE_RINGBUF)
			continue;
		if (bsdk_records_map_type(r, s->maps[i].map, &t) || !t.btf || !t.type_id ||
		    (t.source != BSDK_RECORD_ANNOTATION && t.source != BSDK_RECORD_DWARF_LOCAL))
			continue;
		if (!any)
			fputs("#if !defined(__cplusplus) && !defined(BSDK_SKEL_NO_RECORD_CHECKS)\n", s->f);
		any = true;
		emit_checks(s, s->maps[i].name, &t);
	}
	if (any)
		fputs("#endif\n\n", s->f);
	bsdk_records_free(r);
}
