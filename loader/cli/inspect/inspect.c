// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect.c - `bpfsdk inspect`: what an object holds, without loading it.
 *
 * Everything shown comes from bsdk_obj_open(), which parses and checks as
 * much as `bpfsdk run` does short of the bpf() system calls: an object
 * inspect accepts fails in run only where the kernel says no.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "inspect.h"

static const char inspect_usage[] =
"NAME\n"
"    bpfsdk inspect - show what a BPF object holds, without loading it\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk inspect [--json] [--btf FILE] [-v]... OBJECT.o\n"
"\n"
"DESCRIPTION\n"
"    Opens OBJECT.o the way 'bpfsdk run' does - sections, symbols, license,\n"
"    BTF, maps, programs and their relocations are all parsed, checked and\n"
"    linked - but creates nothing in the kernel, so it needs no privileges.\n"
"    Then it prints:\n"
"\n"
"    the object\n"
"        its license (the kernel refuses GPL-only helpers to programs\n"
"        whose license is not GPL-compatible), the kernel version of its\n"
"        \"version\" section, and whether it carries BTF (.BTF).\n"
"\n"
"    programs\n"
"        for each program: the C function's name, its ELF section, the\n"
"        program type the section name selects, where it attaches (the\n"
"        section name after its prefix), its instruction count in its own\n"
"        section (INSNS) and once the .text subprograms it calls are\n"
"        appended, as load will do (LINKED), and the BTF func_info and\n"
"        line_info records load passes to the kernel (line info is what\n"
"        lets the verifier's log quote C source lines).\n"
"\n"
"    relocations and helpers, per program\n"
"        each relocation of the linked program: the instruction, its kind\n"
"        (map: a map's fd; data: a global variable's map and offset; call,\n"
"        func: a .text subprogram; ksym, kfunc: a kernel variable or\n"
"        function), the ELF symbol and what it resolves\n"
"        to; its CO-RE relocations (clang's records of accesses to kernel\n"
"        types), each with the value the object's BTF gives and the one the\n"
"        kernel's BTF (or --btf FILE) gives, or why there is none; then the\n"
"        kernel helpers the program calls, by name and ID,\n"
"        marking those the kernel allows only under a GPL-compatible\n"
"        license.\n"
"\n"
"    externs\n"
"        the __kconfig and __ksym externs the programs use, and what the\n"
"        running kernel resolves each to: a value (kconfig), a kernel BTF\n"
"        ID (typed ksym, kfunc) or an address from /proc/kallsyms; 'absent'\n"
"        for a __weak one the kernel lacks, or why it cannot be resolved\n"
"        (load will fail then).\n"
"\n"
"    maps\n"
"        for each map: its name, type, key and value sizes in bytes, its\n"
"        maximum number of entries and where it was defined: '.maps'\n"
"        (BTF-defined maps), 'maps' (the legacy struct bpf_map_def), or\n"
"        '.rodata', '.data', '.bss' (global variables, each section one\n"
"        array map with a single entry), '.kconfig' (the __kconfig externs). A perf_event_array with 0 entries\n"
"        gets one per possible CPU at load.\n"
"\n"
"    warnings\n"
"        what will likely fail later: no license, a GPL-only helper called\n"
"        under a license that is not GPL-compatible, an extern the running\n"
"        kernel cannot resolve, CO-RE relocations that cannot be resolved\n"
"        (no kernel BTF) or whose candidates disagree, a program 'bpfsdk run'\n"
"        cannot attach, no perf_event_array or ringbuf map to read records\n"
"        from.\n"
"\n"
"    docs/inspect.md shows an annotated example.\n"
"\n";

/* After the OPTIONS that inspect_options[] makes. */
static const char inspect_usage_end[] =
"EXIT STATUS\n"
"    0 the object was parsed (warnings or not), 1 it could not be opened\n"
"    or is malformed (one 'error:' line says what and where), 2 the command\n"
"    line is wrong.\n"
"\n"
"EXAMPLES\n"
"    From the top of a bpfsdk clone after make, with build/bin on PATH.\n"
"\n"
"    What the headline sample's object holds:\n"
"        bpfsdk inspect build/bpf/trace_output.bpf.o\n"
"\n"
"    The names of opensnoop's maps, from the JSON form:\n"
"        bpfsdk inspect --json build/bpf/opensnoop.bpf.o | jq -r '.maps[].name'\n";

__attribute__((format(printf, 2, 3)))
static int warn_add(struct warnings *w, const char *fmt, ...)
{
	char **msgs, *msg;
	va_list ap;
	int n;

	msgs = realloc(w->msgs, (w->count + 1) * sizeof(*msgs));
	if (!msgs)
		return -1;
	w->msgs = msgs;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	text_clean(msg);	/* JSON escapes on its own; this is for text */
	w->msgs[w->count++] = msg;
	return 0;
}

static void warnings_free(struct warnings *w)
{
	for (size_t i = 0; i < w->count; i++)
		free(w->msgs[i]);
	free(w->msgs);
}

/* CO-RE relocations that make load fail whatever the program does: unresolved (no kernel BTF)
 * and in error. Poisoned ones are left to the verifier: behind bpf_core_field_exists() they are
 * what the program expects. */
static int co_re_warnings(const struct bsdk_prog *prog, struct warnings *w)
{
	size_t n = bsdk_prog_core_relo_count(prog), unresolved = 0;
	const char *why = "";

	for (size_t i = 0; i < n; i++) {
		struct bsdk_core_relo_info r;

		if (bsdk_prog_core_relo(prog, i, &r))
			continue;
		if (r.state == BSDK_CORE_UNRESOLVED && !unresolved++)
			why = r.note;
		if (r.state == BSDK_CORE_ERROR &&
		    warn_add(w, "program '%s': CO-RE relocation %s %s at instruction %zu: %s: load will fail",
			     bsdk_prog_name(prog), r.kind_name, r.spec, r.insn, r.note))
			return -1;
	}
	if (unresolved &&
	    warn_add(w, "program '%s': %zu CO-RE relocation%s cannot be resolved (%s): load will fail; --btf FILE names a kernel BTF",
		     bsdk_prog_name(prog), unresolved, unresolved == 1 ? "" : "s", why))
		return -1;
	return 0;
}

/* A knob declared `const`: clang folds its value into the code, so no
 * instruction reads the variable and --set or a skeleton change nothing. */
static int knob_warnings(const struct bsdk_obj *obj, struct warnings *w)
{
	const struct bsdk_map *map = bsdk_obj_map_find(obj, ".rodata");
	struct bsdk_global_info info;

	for (size_t i = 0; map && bsdk_map_global_var(map, i, &info) == 0; i++)
		if (!info.is_static && !info.is_volatile &&
		    bsdk_obj_global_readers(obj, info.name) == 0 &&
		    warn_add(w, "global '%s' in .rodata: no instruction reads it, so --set and a skeleton change nothing: the compiler folded a `const` into the code; declare it `const volatile`",
			     info.name))
			return -1;
	return 0;
}

/* Calls of a function nothing declares (a misspelled helper, a missing
 * include): the program will not load; the helper meant. */
static int undeclared_warnings(const struct bsdk_prog *prog, struct warnings *w)
{
	struct bsdk_relo_info r;

	for (size_t i = 0; bsdk_prog_relo(prog, i, &r) == 0; i++) {
		const char *near = r.kind == BSDK_RELO_UNDECLARED ? bsdk_helper_closest(r.symbol) : NULL;

		if (r.kind != BSDK_RELO_UNDECLARED)
			continue;
		if (warn_add(w, "program '%s' calls '%s' (instruction %zu), which is no BPF helper and which nothing declares: it will not load%s%s%s",
			     bsdk_prog_name(prog), r.symbol, r.insn,
			     near ? "; did you mean " : "", near ? near : "", near ? "()?" : ""))
			return -1;
	}
	return 0;
}

/* A ring buffer or perf event helper in an object with no map of the type
 * it takes: the verifier will refuse the call ("cannot pass map_type 4
 * into func bpf_ringbuf_reserve#131"); which maps there are instead. */
static int map_type_warnings(const struct bsdk_obj *obj, const struct bsdk_prog *prog,
			     struct warnings *w)
{
	static const struct {
		int helper, type;
		const char *type_name;
	} needs[] = {
		{ BPF_FUNC_ringbuf_reserve, BPF_MAP_TYPE_RINGBUF, "BPF_MAP_TYPE_RINGBUF" },
		{ BPF_FUNC_ringbuf_output, BPF_MAP_TYPE_RINGBUF, "BPF_MAP_TYPE_RINGBUF" },
		{ BPF_FUNC_perf_event_output, BPF_MAP_TYPE_PERF_EVENT_ARRAY, "BPF_MAP_TYPE_PERF_EVENT_ARRAY" },
	};
	size_t nhelpers = bsdk_prog_helper_count(prog);

	for (size_t i = 0; i < nhelpers; i++) {
		int id = bsdk_prog_helper_id(prog, i);

		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++) {
			const struct bsdk_map *map = NULL;
			bool has = false;

			if (needs[k].helper != id)
				continue;
			while (!has && (map = bsdk_obj_map_next(obj, map)))
				has = bsdk_map_type(map) == needs[k].type;
			if (!has && warn_add(w, "program '%s' calls %s(), which takes a %s map, and the object has none: the verifier will refuse the call",
					     bsdk_prog_name(prog), bpf_helper_str(id), needs[k].type_name))
				return -1;
		}
	}
	return 0;
}

static int collect_warnings(const struct bsdk_obj *obj, struct warnings *w)
{
	const char *license = bsdk_obj_license(obj);
	bool gpl = bsdk_obj_gpl_compatible(obj);
	struct bsdk_prog *prog = NULL;
	const struct bsdk_map *map = NULL;
	bool has_record_map = false, has_iter = false, prints = false;
	char why[512];
	size_t nprogs = 0;

	if (!license[0] &&
	    warn_add(w, "no license: add char LICENSE[] SEC(\"license\") = \"GPL\"; without one the kernel refuses GPL-only helpers such as bpf_perf_event_output()"))
		return -1;
	if (knob_warnings(obj, w))
		return -1;

	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		size_t nhelpers = bsdk_prog_helper_count(prog);

		nprogs++;
		/* the kernel checks each call: name each helper it refuses */
		for (size_t i = 0; !gpl && i < nhelpers; i++) {
			const char *name = bsdk_helper_gpl_only(bsdk_prog_helper_id(prog, i));

			if (name &&
			    warn_add(w, "program '%s' calls %s(), which the kernel allows only under a GPL-compatible license, and the license is %s%s%s: it will not load",
				     bsdk_prog_name(prog), name,
				     license[0] ? "'" : "", license[0] ? license : "missing",
				     license[0] ? "'" : ""))
				return -1;
		}
		if (co_re_warnings(prog, w) || undeclared_warnings(prog, w) ||
		    map_type_warnings(obj, prog, w))
			return -1;
		/* what `bpfsdk run` will leave out, and why (a perf_event
		 * program it gives a CPU-clock event of its own) */
		has_iter |= bsdk_prog_expected_attach_type(prog) == BPF_TRACE_ITER;
		prints |= cli_prog_prints(prog);
		if (bsdk_prog_type(prog) != BPF_PROG_TYPE_PERF_EVENT &&
		    bsdk_prog_attach_check(prog, why, sizeof(why)) &&
		    warn_add(w, "program '%s' (section '%s'): 'bpfsdk run' will leave it out: %s",
			     bsdk_prog_name(prog), bsdk_prog_section(prog), why))
			return -1;
	}
	for (size_t i = 0; i < bsdk_obj_extern_count(obj); i++) {
		struct bsdk_extern_info e;

		if (bsdk_obj_extern(obj, i, &e) == 0 && !e.resolved && !e.weak &&
		    warn_add(w, "%s extern '%s' cannot be resolved on this kernel (%s): load will fail",
			     e.kind_name, e.name, e.value))
			return -1;
	}
	while ((map = bsdk_obj_map_next(obj, map)))
		has_record_map |= bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
				  bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF;
	if (nprogs == 0 && warn_add(w, "no programs: nothing to load"))
		return -1;
	/* an iterator's output is printed, bpf_printk()'s relayed: they need no map */
	if (nprogs && !has_record_map && !has_iter && !prints &&
	    warn_add(w, "no perf_event_array or ringbuf map: 'bpfsdk run' has no records to print"))
		return -1;
	return 0;
}

enum { OPT_JSON = 1, OPT_VERBOSE, OPT_HELP, OPT_BTF };

/* The options, in the order --help shows them. */
static const struct bsdk_opt inspect_options[] = {
	{ "json", 0, BSDK_OPT_FLAG, .id = OPT_JSON,
	  .help =
	"Print one JSON document instead of tables, for scripts. Its keys\n"
	"are described in docs/inspect.md." },
	{ "btf", 0, BSDK_OPT_STRING, .id = OPT_BTF, .arg = "FILE",
	  .help =
	"The kernel BTF to resolve CO-RE relocations against (raw BTF, as\n"
	"/sys/kernel/btf/vmlinux), instead of the running kernel's." },
	{ "verbose", 'v', BSDK_OPT_FLAG, .id = OPT_VERBOSE,
	  .help = "Show the loader's progress; twice (-vv), every step." },
	{ "help", 'h', BSDK_OPT_FLAG, .id = OPT_HELP,
	  .help = "Show this text and exit." },
	{ 0 },
};

static int inspect_main(int argc, char **argv)
{
	struct warnings w = { 0 };
	const char *path = NULL, *btf_path = NULL, *value;
	struct bsdk_obj *obj;
	struct cli_opts o;
	bool json = false;
	int opt, ret;

	cli_opts_init(&o, "inspect", inspect_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			if (path)
				return cli_usage_error("inspect", "one object at a time: '%s' and '%s'",
						       path, value);
			path = value;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_VERBOSE:
			cli_verbosity++;
			break;
		case OPT_BTF:
			btf_path = value;
			break;
		case OPT_HELP:
			cli_print_usage(&cmd_inspect);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!path)
		return cli_usage_error("inspect", "no object file given");
	cli_log_init(cli_verbosity);
	if (json)	/* a failure is a JSON document too */
		bsdk_set_log(json_log, NULL);

	obj = bsdk_obj_open_opts(path, &(struct bsdk_obj_open_opts){
		.sz = sizeof(struct bsdk_obj_open_opts), .btf_path = btf_path });
	if (!obj && !json) {
		cli_error_unless_logged("cannot open '%s': %s", path,
					bsdk_strerror(errno));
		return EXIT_RUNTIME;
	}
	if (!obj) {
		if (!json_first_error[0]) {
			snprintf(json_first_error, sizeof(json_first_error), "cannot open '%s': %s",
				 path, bsdk_strerror(errno));
			cli_error("%s", json_first_error);
		}
		print_json_error(path, json_first_error);
		return EXIT_RUNTIME;
	}
	if (collect_warnings(obj, &w)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (json) {
		inspect_print_json(obj, &w);
	} else if (inspect_print_text(obj, &w)) {
		cli_error_unless_logged("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = EXIT_OK;
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write the output: %s", strerror(errno));
		ret = EXIT_RUNTIME;
	}
out:
	warnings_free(&w);
	bsdk_obj_close(obj);
	return ret;
}

const struct cli_cmd cmd_inspect = {
	.name = "inspect",
	.summary = "show the programs, maps and BTF of an object, without loading it",
	.usage = inspect_usage,
	.options = inspect_options,
	.usage_end = inspect_usage_end,
	.main = inspect_main,
};
