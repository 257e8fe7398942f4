// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect_text.c - `bpfsdk inspect`'s text output: the object's programs,
 * maps and externs in tables, then each program's relocations, CO-RE
 * relocations and helpers, then the warnings.
 */
#include <errno.h>
#include <stdio.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "inspect.h"

static const char *map_type_label(const struct bsdk_map *map, char *buf,
				  size_t size)
{
	const char *name = bpf_map_type_str(bsdk_map_type(map));

	if (name)
		return name;
	snprintf(buf, size, "type %d", bsdk_map_type(map));
	return buf;
}

/* What a relocation points at, in words: the map, the map and offset of a
 * global variable, or the callee's first instruction. */
static void relo_target(const struct bsdk_relo_info *r, char *buf, size_t size)
{
	switch (r->kind) {
	case BSDK_RELO_MAP:
		snprintf(buf, size, "map %s", r->map ? bsdk_map_name(r->map) : "?");
		break;
	case BSDK_RELO_DATA:
		snprintf(buf, size, "%s+%llu", r->map ? bsdk_map_name(r->map) : "?",
			 (unsigned long long)r->offset);
		break;
	case BSDK_RELO_KSYM:
	case BSDK_RELO_KFUNC:
		snprintf(buf, size, "extern %zu", r->target);
		break;
	case BSDK_RELO_UNDECLARED:
		snprintf(buf, size, "nothing: not loadable");
		break;
	default:
		snprintf(buf, size, "insn %zu", r->target);
		break;
	}
}

/* A streaming map's members that run shows as addresses or in host order, and those named
 * like one it could not classify. */
static int print_record_fields(const struct bsdk_obj *obj, struct bsdk_records *r,
			       const struct bsdk_map *map)
{
	struct bsdk_record_type rt = { 0 };
	struct record_fields rf;
	char src[512], clean[256];

	if (inspect_record(obj, r, map, &rt, src, sizeof(src)) == -ENOMEM ||
	    inspect_record_fields(r, map, &rt, &rf))
		return -1;
	if (rf.addr[0])
		printf("  %s: addresses: %s\n", bsdk_map_name(map),
		       text_printable(rf.addr, clean, sizeof(clean)));
	if (rf.host[0])
		printf("  %s: big-endian, shown in host order: %s\n", bsdk_map_name(map),
		       text_printable(rf.host, clean, sizeof(clean)));
	if (rf.unknown[0])
		printf("  %s: named like an address or a port, not classified (shown as stored; --field NAME=addr|host): %s\n",
		       bsdk_map_name(map), text_printable(rf.unknown, clean, sizeof(clean)));
	if (record_modes(map, false, src, sizeof(src)) > 1)
		printf("  %s: sent from different places, maybe alternative modes of the tool, which loads one (bpfsdk run attaches all; --program or --no-program chooses): %s\n",
		       bsdk_map_name(map), text_printable(src, clean, sizeof(clean)));
	return 0;
}

/* The record type of each map that streams records, after the maps. */
static int print_records(const struct bsdk_obj *obj)
{
	static const char *const headers[] = { "MAP", "RECORD TYPE", "FROM" };
	const struct bsdk_map *map = NULL;
	struct bsdk_records *r = bsdk_records_new(obj);
	struct table *t = table_new(headers, 3, "lll");
	int ret = -1;

	if (!t || !r)
		goto out;
	while ((map = bsdk_obj_map_next(obj, map))) {
		struct bsdk_record_type rt = { 0 };
		char src[512], clean[512];

		if (!inspect_streams(map))
			continue;
		if (inspect_record(obj, r, map, &rt, src, sizeof(src)) == -ENOMEM)
			goto out;
		if (!table_cell(t, "%s", bsdk_map_name(map)) ||
		    !table_cell(t, "%s", rt.btf ? rt.name : "-") ||
		    !table_cell(t, "%s", text_printable(src, clean, sizeof(clean))))
			goto out;
	}
	ret = 0;
	if (table_rows(t)) {
		printf("\nrecord types: %zu\n", table_rows(t));
		ret = table_print(t, stdout, 2) ? -1 : 0;
	}
	for (map = NULL; !ret && (map = bsdk_obj_map_next(obj, map));)
		if (inspect_streams(map))
			ret = print_record_fields(obj, r, map);
out:
	table_free(t);
	bsdk_records_free(r);
	return ret;
}

/* The externs and what they resolve to, after the maps. */
static int print_externs(const struct bsdk_obj *obj)
{
	static const char *const headers[] = { "#", "NAME", "KIND", "WEAK", "RESOLVES TO" };
	size_t n = bsdk_obj_extern_count(obj);
	struct table *t;
	char clean[256];

	if (n == 0)
		return 0;
	t = table_new(headers, 5, "rllll");
	if (!t)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct bsdk_extern_info e;

		if (bsdk_obj_extern(obj, i, &e) ||
		    !table_cell(t, "%zu", i) || !table_cell(t, "%s", e.name) ||
		    !table_cell(t, "%s", e.kind_name) || !table_cell(t, "%s", e.weak ? "weak" : "-") ||
		    !table_cell(t, "%s%s", e.resolved || e.weak ? "" : "unresolved: ",
				text_printable(e.value, clean, sizeof(clean)))) {
			table_free(t);
			return -1;
		}
	}
	printf("\nexterns: %zu\n", n);
	if (table_print(t, stdout, 2)) {
		table_free(t);
		return -1;
	}
	table_free(t);
	return 0;
}

/* ---- CO-RE relocations: what each asks, the object's own value, and the kernel's */

/* "field_byte_offset  task_struct___mine.pid (0:2)  16  1264  [124] task_struct", one row per
 * relocation; poisoned and unresolved ones say why in NOTE. */
static int print_core_relos(const struct bsdk_prog *prog)
{
	static const char *const headers[] = { "INSN", "KIND", "ACCESS", "LOCAL", "KERNEL",
					       "KERNEL TYPE", "NOTE" };
	size_t n = bsdk_prog_core_relo_count(prog);
	struct table *t;

	if (!n)
		return 0;
	t = table_new(headers, 7, "rllrrll");
	if (!t)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct bsdk_core_relo_info r;
		bool ok;

		if (bsdk_prog_core_relo(prog, i, &r))
			continue;
		ok = table_cell(t, "%zu", r.insn) && table_cell(t, "%s", r.kind_name) &&
		     table_cell(t, "%s (%s)", r.spec, r.access) &&
		     table_cell(t, "%llu", (unsigned long long)r.local_value);
		if (ok && r.state == BSDK_CORE_RESOLVED)
			ok = table_cell(t, "%llu", (unsigned long long)r.value);
		else if (ok)
			ok = table_cell(t, "%s", co_re_states[r.state]);
		if (ok && r.target_type_id)
			ok = table_cell(t, "[%u] %s", r.target_type_id, r.target_type);
		else if (ok)
			ok = table_cell(t, "-");
		if (!ok || !table_cell(t, "%s", r.note[0] ? r.note : "-")) {
			table_free(t);
			return -1;
		}
	}
	printf("  CO-RE relocations: %zu\n", n);
	if (table_print(t, stdout, 2)) {
		table_free(t);
		return -1;
	}
	table_free(t);
	return 0;
}

/* The relocations and helpers of one program, under its name. */
static int print_prog_details(const struct bsdk_prog *prog)
{
	static const char *const headers[] = { "INSN", "KIND", "SYMBOL", "TARGET" };
	size_t nrelos = bsdk_prog_relo_count(prog);
	size_t nhelpers = bsdk_prog_helper_count(prog);
	struct table *t = table_new(headers, 4, "rlll");
	char name[256];

	if (!t)
		return -1;
	for (size_t i = 0; i < nrelos; i++) {
		struct bsdk_relo_info r;
		char target[160];

		if (bsdk_prog_relo(prog, i, &r))
			continue;
		relo_target(&r, target, sizeof(target));
		if (!table_cell(t, "%zu", r.insn) || !table_cell(t, "%s", r.kind_name) ||
		    !table_cell(t, "%s", r.symbol ? r.symbol : "-") ||
		    !table_cell(t, "%s", target)) {
			table_free(t);
			return -1;
		}
	}
	printf("\nprogram '%s': %zu instructions linked, %zu relocation%s, %zu helper%s\n",
	       text_printable(bsdk_prog_name(prog), name, sizeof(name)),
	       bsdk_prog_linked_insn_count(prog),
	       nrelos, nrelos == 1 ? "" : "s", nhelpers, nhelpers == 1 ? "" : "s");
	if (table_rows(t) && table_print(t, stdout, 2)) {
		table_free(t);
		return -1;
	}
	table_free(t);
	if (print_core_relos(prog))
		return -1;
	/* "  helpers: a#1, b#2 (GPL-only), ...", wrapped under the first */
	for (size_t i = 0, col = 0; i < nhelpers; i++) {
		int id = bsdk_prog_helper_id(prog, i);
		char buf[32], item[96];
		int len;

		len = snprintf(item, sizeof(item), "%s#%d%s%s",
			       helper_label(id, buf, sizeof(buf)), id,
			       bsdk_helper_gpl_only(id) ? " (GPL-only)" : "",
			       i + 1 < nhelpers ? "," : "");
		if (i == 0) {
			col = (size_t)printf("  helpers: %s", item);
		} else if (col + 1 + (size_t)len > 78) {
			col = (size_t)printf("\n           %s", item) - 1;
		} else {
			col += (size_t)printf(" %s", item);
		}
		if (i + 1 == nhelpers)
			putchar('\n');
	}
	if (cli_prog_prints(prog))
		printf("  bpf_printk: its lines go to %s, which the whole system shares; 'bpfsdk run' relays them (--no-trace-pipe leaves them)\n",
		       cli_trace_pipe_path());
	return 0;
}

/* The entry and exit programs of one kind that share a map: bpfsdk run attaches them, or
 * leaves them out, together. Listed at the first of the two. */
static void print_pairs(const struct bsdk_obj *obj)
{
	const struct bsdk_prog *prog = NULL, *other;
	const struct bsdk_map *map;
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		if (pass && n)
			printf("\nentry and exit: %zu pair%s sharing a map (bpfsdk run attaches both ends as one kind, the best the kernel takes for both)\n",
			       n, n == 1 ? "" : "s");
		while ((prog = bsdk_obj_prog_next(obj, prog))) {
			other = bsdk_prog_twin_partner(prog, &map);
			if (!other || other < prog)
				continue;
			if (!pass)
				n++;
			else
				printf("  %s (%s) + %s (%s): map '%s'\n", bsdk_prog_name(prog),
				       bsdk_prog_section(prog), bsdk_prog_name(other),
				       bsdk_prog_section(other), bsdk_map_name(map));
		}
	}
}

/* The groups of twins, one line each, best kind first ("a > b"; programs
 * of one kind "a + b"): what `bpfsdk run` attaches one kind of. A group is
 * listed at its first member, the program that comes before its twins. */
static void print_twins(const struct bsdk_obj *obj)
{
	const struct bsdk_prog *prog = NULL, *q;
	size_t ngroups = 0;

	for (int pass = 0; pass < 2; pass++) {
		if (pass && ngroups)
			printf("\ntwins: %zu group%s (bpfsdk run attaches the first kind this kernel takes; --all-twins all)\n",
			       ngroups, ngroups == 1 ? "" : "s");
		while ((prog = bsdk_obj_prog_next(obj, prog))) {
			const struct bsdk_prog *first = bsdk_prog_twin_next(prog, NULL);
			int last = -1;

			if (!first || first < prog)
				continue;	/* no group, or listed with an earlier member */
			if (!pass) {
				ngroups++;
				continue;
			}
			printf(" ");
			for (int rank = 0; rank <= 2; rank++) {
				for (q = prog; q; q = bsdk_prog_twin_next(prog, q == prog ? NULL : q)) {
					if (bsdk_prog_twin_rank(q) != rank)
						continue;
					printf(" %s%s (%s)", last < 0 ? "" : last == rank ? "+ " : "> ",
					       bsdk_prog_name(q), bsdk_prog_section(q));
					last = rank;
				}
			}
			printf("\n");
		}
	}
	print_pairs(obj);
}

int inspect_print_text(const struct bsdk_obj *obj, const struct warnings *w)
{
	static const char *const prog_headers[] = {
		"NAME", "SECTION", "TYPE", "ATTACH TARGET", "INSNS", "LINKED",
		"FUNC INFO", "LINE INFO" };
	static const char *const map_headers[] = {
		"NAME", "TYPE", "KEY", "VALUE", "MAX ENTRIES", "ORIGIN" };
	const char *license = bsdk_obj_license(obj);
	const struct bsdk_prog *prog = NULL;
	const struct bsdk_map *map = NULL;
	struct table *progs, *maps;
	char clean[512];
	int ret = -1;

	progs = table_new(prog_headers, 8, "llllrrrr");
	maps = table_new(map_headers, 6, "llrrrl");
	if (!progs || !maps)
		goto out;
	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		const char *target = bsdk_prog_attach_target(prog);

		if (!table_cell(progs, "%s", bsdk_prog_name(prog)) ||
		    !table_cell(progs, "%s", bsdk_prog_section(prog)) ||
		    !table_cell(progs, "%s", bsdk_prog_type_name(prog)) ||
		    !table_cell(progs, "%s", target[0] ? target : "-") ||
		    !table_cell(progs, "%zu", bsdk_prog_insn_count(prog)) ||
		    !table_cell(progs, "%zu", bsdk_prog_linked_insn_count(prog)) ||
		    !table_cell(progs, "%zu", bsdk_prog_func_info_count(prog)) ||
		    !table_cell(progs, "%zu", bsdk_prog_line_info_count(prog)))
			goto out;
	}
	while ((map = bsdk_obj_map_next(obj, map))) {
		char buf[32];

		if (!table_cell(maps, "%s", bsdk_map_name(map)) ||
		    !table_cell(maps, "%s", map_type_label(map, buf, sizeof(buf))) ||
		    !table_cell(maps, "%u", bsdk_map_key_size(map)) ||
		    !table_cell(maps, "%u", bsdk_map_value_size(map)) ||
		    !table_cell(maps, "%u", bsdk_map_max_entries(map)) ||
		    !table_cell(maps, "%s%s", bsdk_map_origin(map),
				bsdk_map_pinning(map) ? ", pinned by name" : ""))
			goto out;
	}

	printf("object   %s\n", text_printable(bsdk_obj_name(obj), clean, sizeof(clean)));
	if (license[0])
		printf("license  %s (%s)\n", text_printable(license, clean, sizeof(clean)),
		       bsdk_obj_gpl_compatible(obj) ?
		       "GPL-compatible" : "not GPL-compatible");
	else
		printf("license  none\n");
	printf("version  %u\n", bsdk_obj_kversion(obj));
	printf("BTF      %s\n", bsdk_obj_has_btf(obj) ? "yes" : "no");

	printf("\nprograms: %zu\n", table_rows(progs));
	if (table_rows(progs) && table_print(progs, stdout, 2))
		goto out;
	print_twins(obj);
	printf("\nmaps: %zu\n", table_rows(maps));
	if (table_rows(maps) && table_print(maps, stdout, 2))
		goto out;
	if (print_records(obj))
		goto out;
	if (print_externs(obj))
		goto out;
	while ((prog = bsdk_obj_prog_next(obj, prog)))
		if (print_prog_details(prog))
			goto out;
	printf("\nwarnings: %zu\n", w->count);
	for (size_t i = 0; i < w->count; i++)
		printf("  %s\n", w->msgs[i]);
	ret = 0;
out:
	table_free(progs);
	table_free(maps);
	return ret;
}

