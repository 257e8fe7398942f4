// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * choose.c - what `bpfsdk run` does to an object before loading it, as a
 * tool's own user space would: the programs chosen by name (--program,
 * --no-program, what bpf_program__set_autoload() does for a tool) and the
 * maps whose size the object leaves to the tool (max_entries 0, what
 * bpf_map__set_max_entries() does).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/run/run.h"

int choose_check_glob(const char *cmd, const char *opt, const char *glob)
{
	size_t i = 0;

	if (!*glob)
		return cli_usage_error(cmd, "--%s needs a program name or a glob (e.g. 'handle_*')", opt);
	/* fnmatch() takes an unclosed '[' as a plain character: say it */
	while (glob[i]) {
		if (glob[i] == '\\' && glob[i + 1]) {
			i += 2;
			continue;
		}
		if (glob[i] == '[') {
			size_t j = i + 1;

			j += glob[j] == '!' || glob[j] == '^';
			j += glob[j] == ']';
			while (glob[j] && glob[j] != ']')
				j++;
			if (!glob[j])
				return cli_usage_error(cmd, "--%s '%s': the '[' at %zu has no ']'", opt, glob,
						       i + 1);
			i = j;
		}
		i++;
	}
	return 0;
}

/* Whether any program of obj matches glob; otherwise a usage error that
 * lists them. */
static bool glob_used(const struct bsdk_obj *obj, const char *opt, const char *glob)
{
	const struct bsdk_prog *prog = NULL;

	while ((prog = bsdk_obj_prog_next(obj, prog)))
		if (fnmatch(glob, bsdk_prog_name(prog), 0) == 0)
			return true;
	fprintf(stderr, "error: --%s '%s': no program of '%s' has a name it matches; its programs:",
		opt, glob, bsdk_obj_name(obj));
	while ((prog = bsdk_obj_prog_next(obj, prog)))
		fprintf(stderr, " %s", bsdk_prog_name(prog));
	fputc('\n', stderr);
	return false;
}

int choose_programs(struct bsdk_obj *obj, const struct choice *choices, size_t n)
{
	struct bsdk_prog *prog = NULL;
	bool some_chosen = false;

	for (size_t i = 0; i < n; i++) {
		if (!glob_used(obj, choices[i].keep ? "program" : "no-program", choices[i].glob))
			return EXIT_USAGE;
		some_chosen |= choices[i].keep;
	}
	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		const char *name = bsdk_prog_name(prog), *by = NULL;
		bool named = false;

		/* kept: named by a --program (when there is one), by no --no-program */
		for (size_t i = 0; i < n; i++)
			if (fnmatch(choices[i].glob, name, 0) == 0) {
				named |= choices[i].keep;
				by = choices[i].keep || by ? by : choices[i].glob;
			}
		if ((named || !some_chosen) && !by)
			continue;
		bsdk_prog_set_autoload(prog, false);
		if (cli_verbosity)
			fprintf(stderr, "'%s': program '%s' (section '%s'): left out: %s%s%s\n",
				bsdk_obj_name(obj), name, bsdk_prog_section(prog),
				by ? "--no-program '" : "no --program names it", by ? by : "",
				by ? "'" : "");
	}
	return 0;
}

/* The map types whose size a tool chooses: those run gives a default. */
static bool sized_by_tool(int type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_STACK_TRACE:
		return true;
	default:
		return false;
	}
}

int choose_check_size(const char *cmd, const char *arg)
{
	const char *eq = strchr(arg, '=');
	uint64_t n;

	if (!eq || eq == arg)
		return cli_usage_error(cmd, "--max-entries '%s' is not MAP=N", arg);
	if (!cli_parse_u64(eq + 1, &n) || n == 0 || n > UINT32_MAX)
		return cli_usage_error(cmd, "--max-entries %.*s: '%s' is not a number of entries from 1 to %u",
				       (int)(eq - arg), arg, eq + 1, UINT32_MAX);
	return 0;
}

int choose_map_sizes(struct bsdk_obj *obj, const char **sizes, size_t n)
{
	struct bsdk_map *map = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(sizes[i], '=');
		uint64_t entries;
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - sizes[i]), sizes[i]);
		map = bsdk_obj_map_find(obj, name);
		if (!map) {
			cli_error("--max-entries %s: '%s' has no map '%s'", name, bsdk_obj_name(obj), name);
			return EXIT_USAGE;
		}
		cli_parse_u64(eq + 1, &entries);	/* checked already */
		bsdk_map_set_max_entries(map, (uint32_t)entries);
		if (cli_verbosity)
			fprintf(stderr, "map '%s': max_entries %u (--max-entries)\n", name,
				(uint32_t)entries);
	}
	map = NULL;
	while ((map = bsdk_obj_map_next(obj, map))) {
		if (bsdk_map_type(map) == BPF_MAP_TYPE_STACK_TRACE && !bsdk_map_value_size(map)) {
			/* a stack is perf_event_max_stack addresses, 127 by default */
			bsdk_map_set_value_size(map, RUN_STACK_DEPTH * 8);
			if (cli_verbosity)
				fprintf(stderr, "map '%s': a stack trace map without a value size: %u addresses of 8 bytes\n",
					bsdk_map_name(map), RUN_STACK_DEPTH);
		}
		if (bsdk_map_max_entries(map) || !sized_by_tool(bsdk_map_type(map)))
			continue;
		bsdk_map_set_max_entries(map, RUN_MAX_ENTRIES);
		if (cli_verbosity)
			fprintf(stderr, "map '%s': max_entries 0 in the object, left to the tool: %u (--max-entries %s=N to choose)\n",
				bsdk_map_name(map), RUN_MAX_ENTRIES, bsdk_map_name(map));
	}
	return 0;
}
