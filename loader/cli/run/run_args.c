// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_args.c - `bpfsdk run`'s command line read by the rows of
 * run_options.c: each value checked, and --set, which stores a value in a
 * global variable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/run/run.h"
#include "run_privs.h"

/* ---- the command line (run_options.c has the options) ---- */

/* Parse "[-]DIGITS" into a magnitude and a sign. */
static bool parse_set_value(const char *s, uint64_t *mag, bool *negative)
{
	*negative = s[0] == '-';
	/* "-0x10" would be odd; keep negatives decimal */
	if (*negative && (!(s[1] >= '0' && s[1] <= '9') || s[2] == 'x' || s[2] == 'X'))
		return false;
	return cli_parse_u64(s + *negative, mag);
}

static int check_set(const char *arg)
{
	const char *eq = strchr(arg, '=');
	uint64_t mag;
	bool neg;

	if (!eq || eq == arg)
		return cli_usage_error("run", "--set '%s' is not NAME=VALUE", arg);
	if (!parse_set_value(eq + 1, &mag, &neg))
		return cli_usage_error("run", "--set %.*s: '%s' is not a decimal or 0x hexadecimal integer",
				       (int)(eq - arg), arg, eq + 1);
	return 0;
}

/* A positive number of seconds, decimal. strtod takes "inf", "nan" and hex
 * floats: refuse them by asking for digits and at most one dot. */
static bool parse_seconds(const char *value, double *sec)
{
	char *end;

	errno = 0;
	*sec = strtod(value, &end);
	return !(errno || end == value || *end || strspn(value, "0123456789.") != strlen(value) ||
		 !(*sec > 0) || *sec > 1e9);
}

/* --metrics and the options that shape the metrics: 0, or EXIT_USAGE after the error line. */
static int parse_metrics_value(int opt, const char *value, struct run_args *a)
{
	uint64_t n;

	switch (opt) {
	case OPT_METRICS:
		if (!*value)
			return cli_usage_error("run", "--metrics needs ADDR:PORT, e.g. 127.0.0.1:9435");
		a->metrics.addr = value;
		break;
	case OPT_METRICS_FILE:
		if (!*value)
			return cli_usage_error("run", "--metrics-file needs a path");
		a->metrics.file = value;
		break;
	case OPT_METRICS_PREFIX:
		a->metrics.prefix = value;
		break;
	case OPT_METRICS_MAX:
		if (!cli_parse_u64(value, &n) || n == 0 || n > SIZE_MAX)
			return cli_usage_error("run", "--metrics-max-series '%s' is not a positive integer",
					       value);
		a->metrics.max_series = (size_t)n;
		break;
	case OPT_METRICS_GAUGES:
		if (!*value || value[0] == ',' || strstr(value, ",,") ||
		    value[strlen(value) - 1] == ',')
			return cli_usage_error("run", "--metrics-gauges '%s' is not MAP[,MAP]...", value);
		a->metrics.gauges = value;
		break;
	case OPT_WEB_CONFIG:
		a->metrics.web_config = value;
		break;
	case OPT_USER:
		a->privs.user = value;
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

/* An option whose value is checked: 0, or EXIT_USAGE after the error line
 * (also for an id that is none of them: OPT_ERROR, already said). */
static int parse_value(int opt, const char *value, struct run_args *a)
{
	uint64_t n;

	switch (opt) {
	case OPT_COUNT:
		if (!cli_parse_u64(value, &n) || n == 0)
			return cli_usage_error("run", "--count '%s' is not a positive integer",
					       value);
		a->count = n;
		break;
	case OPT_DURATION:
		if (!parse_seconds(value, &a->duration))
			return cli_usage_error("run", "--duration '%s' is not a positive number of seconds",
					       value);
		break;
	case OPT_PAGES:
		if (!cli_parse_u64(value, &n) || n == 0 ||
		    (n & (n - 1)) || n > (1u << 20))
			return cli_usage_error("run", "--pages '%s' is not a power of two between 1 and 1048576",
					       value);
		a->pages = (unsigned int)n;
		break;
	case OPT_FORMAT:
		a->format_given = true;
		if (strcmp(value, "hex") == 0)
			a->format = RECORD_HEX;
		else if (strcmp(value, "text") == 0)
			a->format = RECORD_TEXT;
		else if (strcmp(value, "json") == 0)
			a->format = RECORD_JSON;
		else
			return cli_usage_error("run", "--format '%s' is not one of hex, text, json",
					       value);
		break;
	case OPT_TYPE:
		if (!*value || value[0] == '=' || value[strlen(value) - 1] == '=')
			return cli_usage_error("run", "--type '%s' is not NAME or MAP=NAME", value);
		a->types[a->ntypes++] = value;
		break;
	case OPT_FIELD:
		if (decode_check_field(value))
			return EXIT_USAGE;
		a->fields[a->nfields++] = value;
		break;
	case OPT_INTERVAL:
		if (!parse_seconds(value, &a->interval))
			return cli_usage_error("run", "--interval '%s' is not a positive number of seconds",
					       value);
		break;
	case OPT_TOP:
		if (!cli_parse_u64(value, &n) || n == 0 || n > SIZE_MAX)
			return cli_usage_error("run", "--top '%s' is not a positive integer", value);
		a->views.top = (size_t)n;
		break;
	case OPT_MAPS:
		if (!*value || value[0] == ',' || strstr(value, ",,") ||
		    value[strlen(value) - 1] == ',')
			return cli_usage_error("run", "--maps '%s' is not NAME[,NAME]...", value);
		a->views.maps = value;
		break;
	case OPT_UNIT:
		if (!*value)
			return cli_usage_error("run", "--unit needs a name, e.g. usecs");
		a->views.unit = value;
		break;
	case OPT_FREQ:
		if (!cli_parse_u64(value, &n) || n == 0 || n > 100000)
			return cli_usage_error("run", "--freq '%s' is not a rate between 1 and 100000 Hz",
					       value);
		a->freq = (unsigned int)n;
		break;
	default:
		return parse_metrics_value(opt, value, a);
	}
	return 0;
}

/* The options that shape the metrics need one that exports them, and --clear goes with
 * neither: 0, or EXIT_USAGE after the error line. */
static int check_metrics_args(const struct run_args *a)
{
	if (!a->metrics.addr && !a->metrics.file &&
	    (a->metrics.prefix || a->metrics.max_series || a->metrics.gauges))
		return cli_usage_error("run", "--metrics-%s shapes the metrics: it needs --metrics or --metrics-file",
				       a->metrics.prefix ? "prefix" : a->metrics.max_series ?
				       "max-series" : "gauges");
	/* a counter only grows: emptied maps would make every scrape a reset */
	if ((a->metrics.addr || a->metrics.file) && a->views.clear)
		return cli_usage_error("run", "--clear empties the maps that --metrics%s exports as counters: drop one",
				       a->metrics.addr ? "" : "-file");
	return 0;
}

/* An option without a value that sets a switch: whether opt is one. */
static bool parse_switch(int opt, struct run_args *a)
{
	switch (opt) {
	case OPT_TIMESTAMP:
		a->timestamp = true;
		break;
	case OPT_DURATIONS:
		a->durations = true;
		break;
	case OPT_RAW:
		a->raw = true;
		break;
	case OPT_CLEAR:
		a->views.clear = true;
		break;
	case OPT_PER_CPU:
		a->views.per_cpu = true;
		break;
	case OPT_REQUIRE_ALL:
		a->attach_flags |= BSDK_ATTACH_REQUIRE_ALL;
		break;
	case OPT_ALL_TWINS:
		a->attach_flags |= BSDK_ATTACH_ALL_TWINS;
		break;
	case OPT_NO_TRACE_PIPE:
		a->no_trace_pipe = true;
		break;
	default:
		return false;
	}
	return true;
}

/* 0, or a usage error already printed (EXIT_USAGE), or -1 for --help. */
int run_parse_args(int argc, char **argv, struct run_args *a)
{
	const char *value;
	struct cli_opts o;
	int opt, ret;

	cli_opts_init(&o, "run", run_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			if (a->path)
				return cli_usage_error("run", "one object at a time: '%s' and '%s'",
						       a->path, value);
			a->path = value;
			break;
		case OPT_SET:
			if (check_set(value))
				return EXIT_USAGE;
			/* argv outlives the command: keep pointers only */
			a->sets[a->nsets++] = value;
			break;
		case OPT_SORT_BY:
			a->sort_by = value;
			break;
		case OPT_VERBOSE:
			cli_verbosity++;
			break;
		case OPT_BTF:
			a->btf_path = value;
			break;
		case OPT_PROGRAM:
		case OPT_NO_PROGRAM:
			if (choose_check_glob("run", opt == OPT_PROGRAM ? "program" : "no-program", value))
				return EXIT_USAGE;
			a->choices[a->nchoices++] = (struct choice){ .glob = value, .keep = opt == OPT_PROGRAM };
			break;
		case OPT_MAX_ENTRIES:
			if (choose_check_size("run", value))
				return EXIT_USAGE;
			a->sizes[a->nsizes++] = value;
			break;
		case OPT_HELP:
			return -1;
		default:
			if (parse_switch(opt, a))
				break;
			ret = parse_value(opt, value, a);
			if (ret)
				return ret;
			break;
		}
	}
	if (!a->path)
		return cli_usage_error("run", "no object file given");
	if (check_metrics_args(a))
		return EXIT_USAGE;
	if (a->format_given && a->format == RECORD_HEX && (a->ntypes || a->sort_by || a->durations))
		return cli_usage_error("run", "--%s decodes records: it needs --format text or json",
				       a->ntypes ? "type" : a->sort_by ? "sort-by" : "durations");
	return run_privs_args(a);
}

/* ---- configure: --set ---- */

/* Whether the global variable name lives in .rodata: a knob. */
static bool in_rodata(const struct bsdk_obj *obj, const char *name)
{
	const struct bsdk_map *map = bsdk_obj_map_find(obj, ".rodata");
	struct bsdk_global_info info;

	for (size_t i = 0; map && bsdk_map_global_var(map, i, &info) == 0; i++)
		if (strcmp(info.name, name) == 0)
			return true;
	return false;
}

int run_apply_set(struct bsdk_obj *obj, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned char bytes[8];
	char name[256];
	uint64_t mag, v, max;
	bool neg;
	int size, err;

	if ((size_t)(eq - arg) >= sizeof(name)) {
		cli_error("--set: variable name '%.*s...' is too long", 32, arg);
		return EXIT_USAGE;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	parse_set_value(eq + 1, &mag, &neg);	/* syntax checked already */

	size = bsdk_obj_global_size(obj, name);
	if (size < 0) {
		char hint[256];

		cli_error("--set %s: '%s' has no global variable '%s' in .rodata, .data or .bss%s",
			  name, bsdk_obj_name(obj), name, cli_global_hint(obj, name, hint, sizeof(hint)));
		return EXIT_USAGE;
	}
	if (bsdk_obj_global_readers(obj, name) == 0) {
		cli_error("--set %s: no instruction reads '%s', so setting it changes nothing%s",
			  name, name, in_rodata(obj, name) ?
			  ": the compiler folded a `const` into the code; declare it `const volatile`" : "");
		return EXIT_USAGE;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		cli_error("--set %s: the variable is %d bytes; --set takes integers of 1, 2, 4 or 8 bytes",
			  name, size);
		return EXIT_USAGE;
	}
	/* In range means it fits as an unsigned or as a signed integer of
	 * that size: 255 and -1 are both fine for a byte. */
	max = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
	if (neg ? mag > (UINT64_C(1) << (8 * size - 1)) : mag > max) {
		cli_error("--set %s: %s does not fit into the variable's %d byte%s",
			  name, eq + 1, size, size == 1 ? "" : "s");
		return EXIT_USAGE;
	}
	v = neg ? 0 - mag : mag;	/* two's complement, modulo 2^64 */
	/* the program reads it in the host's byte order */
	if (size == 1)
		bytes[0] = (uint8_t)v;
	else if (size == 2)
		memcpy(bytes, &(uint16_t){ (uint16_t)v }, 2);
	else if (size == 4)
		memcpy(bytes, &(uint32_t){ (uint32_t)v }, 4);
	else
		memcpy(bytes, &v, 8);
	err = bsdk_obj_set_global(obj, name, bytes, (size_t)size);
	if (err) {
		cli_error_unless_logged("--set %s: %s", name, bsdk_strerror(err));
		return EXIT_RUNTIME;
	}
	return 0;
}
