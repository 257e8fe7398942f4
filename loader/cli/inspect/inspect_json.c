// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect_json.c - `bpfsdk inspect --json`: the same facts as the text
 * output in one JSON document, and a document that reports a failure.
 */
#include <stdio.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "inspect.h"

static void json_core_relos(struct json *j, const struct bsdk_prog *prog)
{
	size_t n = bsdk_prog_core_relo_count(prog);

	json_key(j, "core_relocations");
	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		struct bsdk_core_relo_info r;

		if (bsdk_prog_core_relo(prog, i, &r))
			continue;
		json_object_begin(j);
		json_kv_uint(j, "insn", r.insn);
		json_kv_string(j, "kind", r.kind_name);
		json_kv_string(j, "access", r.access);
		json_kv_string(j, "spec", r.spec);
		json_kv_uint(j, "local_value", r.local_value);
		json_kv_string(j, "state", co_re_states[r.state]);
		if (r.state == BSDK_CORE_RESOLVED)
			json_kv_uint(j, "value", r.value);
		if (r.target_type_id) {
			json_kv_uint(j, "target_type_id", r.target_type_id);
			json_kv_string(j, "target_type", r.target_type);
		}
		if (r.note[0])
			json_kv_string(j, "note", r.note);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_relos(struct json *j, const struct bsdk_prog *prog)
{
	size_t nrelos = bsdk_prog_relo_count(prog);

	json_key(j, "relocations");
	json_array_begin(j);
	for (size_t i = 0; i < nrelos; i++) {
		struct bsdk_relo_info r;

		if (bsdk_prog_relo(prog, i, &r))
			continue;
		json_object_begin(j);
		json_kv_uint(j, "insn", r.insn);
		json_kv_string(j, "kind", r.kind_name);
		json_kv_string(j, "symbol", r.symbol);
		if (r.kind == BSDK_RELO_MAP || r.kind == BSDK_RELO_DATA)
			json_kv_string(j, "map", r.map ? bsdk_map_name(r.map) : NULL);
		if (r.kind == BSDK_RELO_DATA)
			json_kv_uint(j, "offset", r.offset);
		if (r.kind == BSDK_RELO_CALL || r.kind == BSDK_RELO_FUNC)
			json_kv_uint(j, "target_insn", r.target);
		if (r.kind == BSDK_RELO_KSYM || r.kind == BSDK_RELO_KFUNC)
			json_kv_uint(j, "extern", r.target);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_prog(struct json *j, const struct bsdk_prog *prog,
		      const char *license)
{
	size_t nhelpers = bsdk_prog_helper_count(prog);

	json_object_begin(j);
	json_kv_string(j, "name", bsdk_prog_name(prog));
	json_kv_string(j, "section", bsdk_prog_section(prog));
	json_kv_string(j, "type", bsdk_prog_type_name(prog));
	json_kv_uint(j, "type_id", (uint64_t)bsdk_prog_type(prog));
	json_kv_string(j, "attach_target", bsdk_prog_attach_target(prog));
	json_kv_uint(j, "instructions", bsdk_prog_insn_count(prog));
	json_kv_uint(j, "linked_instructions", bsdk_prog_linked_insn_count(prog));
	json_kv_uint(j, "func_info", bsdk_prog_func_info_count(prog));
	json_kv_uint(j, "line_info", bsdk_prog_line_info_count(prog));
	json_kv_string(j, "license", license);
	/* its twins: bpfsdk run attaches one kind of the group */
	if (bsdk_prog_twin_next(prog, NULL)) {
		const struct bsdk_prog *t = NULL;

		json_kv_uint(j, "twin_rank", (uint64_t)bsdk_prog_twin_rank(prog));
		json_key(j, "twins");
		json_array_begin(j);
		while ((t = bsdk_prog_twin_next(prog, t)))
			json_string(j, bsdk_prog_name(t));
		json_array_end(j);
	}
	/* the other end of its function, attached with it as one kind */
	const struct bsdk_map *shared = NULL;
	const struct bsdk_prog *partner = bsdk_prog_twin_partner(prog, &shared);

	if (partner) {
		json_kv_string(j, "twin_partner", bsdk_prog_name(partner));
		json_kv_string(j, "twin_partner_map", bsdk_map_name(shared));
	}

	json_relos(j, prog);
	json_core_relos(j, prog);

	json_key(j, "helpers");
	json_array_begin(j);
	for (size_t i = 0; i < nhelpers; i++) {
		int id = bsdk_prog_helper_id(prog, i);
		char buf[32];

		json_object_begin(j);
		json_kv_uint(j, "id", (uint64_t)id);
		json_kv_string(j, "name", helper_label(id, buf, sizeof(buf)));
		json_kv_bool(j, "gpl_only", bsdk_helper_gpl_only(id) != NULL);
		json_object_end(j);
	}
	json_array_end(j);
	/* where bpf_printk() writes, when the program calls it */
	json_kv_string(j, "trace_pipe", cli_prog_prints(prog) ? cli_trace_pipe_path() : NULL);
	json_object_end(j);
}

static void json_list(struct json *j, const char *key, const char *list)
{
	json_key(j, key);
	json_array_begin(j);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		json_string(j, name);
		p += n;
		p += strspn(p, ", ");
	}
	json_array_end(j);
}

/* "fields": the members run shows as addresses, in host order, and those named like one it
 * could not classify (docs/bpfsdk-run.md, "Addresses and ports"). */
static void json_fields(struct json *j, struct bsdk_records *r, const struct bsdk_map *map,
			const struct bsdk_record_type *t)
{
	struct record_fields rf = { 0 };

	if (t && inspect_record_fields(r, map, t, &rf))
		memset(&rf, 0, sizeof(rf));	/* out of memory: nothing known */
	json_key(j, "fields");
	json_object_begin(j);
	json_list(j, "addresses", rf.addr);
	json_list(j, "host_order", rf.host);
	json_list(j, "unclassified", rf.unknown);
	json_object_end(j);
}

/* "record": the type bpfsdk run will decode the map's records as (null when none is known
 * before the first record), "source" in words, and what the source says. */
static void json_record(struct json *j, const struct bsdk_obj *obj, struct bsdk_records *r,
			const struct bsdk_map *map)
{
	struct bsdk_record_type t = { 0 };
	char src[512];
	int err = inspect_record(obj, r, map, &t, src, sizeof(src));

	json_key(j, "record");
	json_object_begin(j);
	json_kv_string(j, "type", !err && t.btf ? t.name : NULL);
	json_kv_string(j, "source", err ? "none" : t.source == BSDK_RECORD_NONE ? "size rule" : t.source_name);
	json_kv_string(j, "program", t.prog);
	json_kv_string(j, "variable", t.variable);
	json_kv_string(j, "layout", t.layout);
	json_kv_string(j, "candidates", t.candidates);
	json_kv_string(j, "says", src);
	json_fields(j, r, map, err ? NULL : &t);
	/* programs on different kinds of hook that send the records: modes? */
	json_kv_string(j, "senders_by_place", record_modes(map, false, src, sizeof(src)) > 1 ?
		       src : NULL);
	json_object_end(j);
}

/* "externs": each extern, its kind and what it resolves to. */
static void json_externs(struct json *j, const struct bsdk_obj *obj)
{
	json_key(j, "externs");
	json_array_begin(j);
	for (size_t i = 0; i < bsdk_obj_extern_count(obj); i++) {
		struct bsdk_extern_info e;

		if (bsdk_obj_extern(obj, i, &e))
			continue;
		json_object_begin(j);
		json_kv_string(j, "name", e.name);
		json_kv_string(j, "kind", e.kind_name);
		json_kv_bool(j, "weak", e.weak);
		json_kv_bool(j, "resolved", e.resolved);
		json_kv_string(j, "value", e.value);
		json_object_end(j);
	}
	json_array_end(j);
}

void inspect_print_json(const struct bsdk_obj *obj, const struct warnings *w)
{
	const char *license = bsdk_obj_license(obj);
	const struct bsdk_prog *prog = NULL;
	const struct bsdk_map *map = NULL;
	struct bsdk_records *recs = bsdk_records_new(obj);
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kv_string(&j, "object", bsdk_obj_name(obj));
	json_kv_string(&j, "license", license);
	json_kv_bool(&j, "gpl_compatible", bsdk_obj_gpl_compatible(obj));
	json_kv_uint(&j, "kernel_version", bsdk_obj_kversion(obj));
	json_kv_bool(&j, "btf", bsdk_obj_has_btf(obj));

	json_key(&j, "programs");
	json_array_begin(&j);
	while ((prog = bsdk_obj_prog_next(obj, prog)))
		json_prog(&j, prog, license);
	json_array_end(&j);

	json_key(&j, "maps");
	json_array_begin(&j);
	while ((map = bsdk_obj_map_next(obj, map))) {
		json_object_begin(&j);
		json_kv_string(&j, "name", bsdk_map_name(map));
		json_kv_string(&j, "type", bpf_map_type_str(bsdk_map_type(map)));
		json_kv_uint(&j, "type_id", (uint64_t)bsdk_map_type(map));
		json_kv_uint(&j, "key_size", bsdk_map_key_size(map));
		json_kv_uint(&j, "value_size", bsdk_map_value_size(map));
		json_kv_uint(&j, "max_entries", bsdk_map_max_entries(map));
		json_kv_string(&j, "origin", bsdk_map_origin(map));
		json_kv_bool(&j, "pinned", bsdk_map_pinning(map) != 0);
		if (inspect_streams(map))
			json_record(&j, obj, recs, map);
		json_object_end(&j);
	}
	json_array_end(&j);
	bsdk_records_free(recs);

	json_externs(&j, obj);

	json_key(&j, "warnings");
	json_array_begin(&j);
	for (size_t i = 0; i < w->count; i++)
		json_string(&j, w->msgs[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

char json_first_error[1024];

void json_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	char clean[1100];

	(void)ctx;
	msg = text_printable(msg, clean, sizeof(clean));
	if (level == BSDK_LOG_ERROR && !json_first_error[0] && msg[0] != ' ')
		snprintf(json_first_error, sizeof(json_first_error), "%s", msg);
	fprintf(stderr, "%s%s\n", level == BSDK_LOG_ERROR ? "error: " :
		level == BSDK_LOG_WARN ? "warning: " : "", msg);
}

/* {"object": PATH, "error": MSG} on stdout: inspect --json failed. */
void print_json_error(const char *path, const char *msg)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kv_string(&j, "object", path);
	json_kv_string(&j, "error", msg);
	json_object_end(&j);
	json_finish(&j);
	fflush(stdout);
}

