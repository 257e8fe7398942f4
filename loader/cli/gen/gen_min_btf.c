// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen_min_btf.c - `bpfsdk gen min-btf OBJ... -o FILE [--btf SOURCE]`: the part of a kernel's
 * BTF that the objects' CO-RE relocations read, as a small BTF file to ship for kernels without
 * /sys/kernel/btf/vmlinux and give to --btf (bsdk_btf_write_min() does the work and checks it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "gen.h"

/* Sections whose programs attach by the kernel's own BTF type IDs. */
static bool attaches_by_btf_id(const char *section)
{
	static const char *const prefixes[] = {
		"tp_btf/", "fentry/", "fexit/", "fmod_ret/", "fentry.s/", "fexit.s/", "fmod_ret.s/",
		"lsm/", "lsm.s/", "lsm_cgroup/", "iter/", "iter.s/",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(section, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Warn once per program the file cannot serve, as the loader's warnings go. */
static void warn_btf_attach(struct bsdk_obj *obj, const char *path)
{
	for (struct bsdk_prog *p = bsdk_obj_prog_next(obj, NULL); p; p = bsdk_obj_prog_next(obj, p))
		if (attaches_by_btf_id(bsdk_prog_section(p)))
			fprintf(stderr, "warning: '%s': program '%s' (%s) attaches by a type ID of the "
				"kernel's own BTF, which a kernel without BTF cannot give: not in the "
				"minimal BTF\n", path, bsdk_prog_name(p), bsdk_prog_section(p));
}

static int min_btf_write(char **objs, size_t n, const char *out, const char *source)
{
	struct bsdk_obj_open_opts opts = { .sz = sizeof(opts), .btf_path = source };
	struct bsdk_obj **o = calloc(n, sizeof(*o));
	struct bsdk_min_btf_stats st;
	int err = 0;

	if (!o) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n && !err; i++) {
		o[i] = bsdk_obj_open_opts(objs[i], &opts);
		if (!o[i]) {
			err = -errno;
			cli_error_unless_logged("cannot open '%s': %s", objs[i], bsdk_strerror(err));
		} else {
			warn_btf_attach(o[i], objs[i]);
		}
	}
	if (!err) {
		err = bsdk_btf_write_min(o, n, out, &st);
		if (err)
			cli_error_unless_logged("cannot write the minimal BTF '%s': %s", out, bsdk_strerror(err));
	}
	if (!err)
		fprintf(stderr, "wrote '%s': %zu types, %zu bytes, of the %zu of %s; %zu CO-RE "
			"relocation%s of %zu object%s resolve to the same values against both\n",
			out, st.types, st.bytes, st.source_types,
			source ? source : "/sys/kernel/btf/vmlinux", st.relos, st.relos == 1 ? "" : "s",
			n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		bsdk_obj_close(o[i]);
	free(o);
	return err ? EXIT_RUNTIME : EXIT_OK;
}

int gen_min_btf_main(int argc, char **argv)
{
	const char *out = NULL, *source = NULL, *value;
	char **objs = calloc((size_t)argc, sizeof(*objs));
	size_t n = 0;
	struct cli_opts o;
	int opt, rc;

	if (!objs) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	cli_opts_init(&o, "gen", gen_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			objs[n++] = (char *)value;
			break;
		case GEN_OPT_OUTPUT:
			out = value;
			break;
		case GEN_OPT_BTF:
			source = value;
			break;
		case GEN_OPT_NAME:
			free(objs);
			return cli_usage_error("gen", "'--name' is for gen skeleton");
		case GEN_OPT_VERBOSE:
			cli_verbosity++;
			break;
		case GEN_OPT_HELP:
			free(objs);
			cli_print_usage(&cmd_gen);
			return EXIT_OK;
		default:
			free(objs);
			return EXIT_USAGE;
		}
	}
	if (!n)
		rc = cli_usage_error("gen", "min-btf: no object file given");
	else if (!out)
		rc = cli_usage_error("gen", "min-btf: say where to write the BTF with -o FILE");
	else {
		cli_log_init(cli_verbosity);
		rc = min_btf_write(objs, n, out, source);
	}
	free(objs);
	return rc;
}
