// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen.c - `bpfsdk gen skeleton`: a C header that embeds a BPF object and
 * names its parts, in the shape libbpf's users know from bpftool: a struct
 * with the object, its maps and programs by name, and its global variables
 * as structs laid out like their sections, plus NAME__open(), __load(),
 * __attach(), __detach(), __destroy(). A tool built on it ships as one binary.
 *
 * The header is written to memory first and to stdout only when all of it
 * could be made: a failure never leaves half a header behind a redirect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "tool/c_ident.h"
#include "cli/common/cli.h"
#include "gen.h"

static const char gen_usage[] =
"NAME\n"
"    bpfsdk gen skeleton - a C header that embeds an object and names its parts\n"
"    bpfsdk gen min-btf - the part of a kernel's BTF that objects' CO-RE needs\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk gen skeleton [--name NAME] [-v]... OBJECT.o [name NAME] > FILE.skel.h\n"
"    bpfsdk gen min-btf [--btf SOURCE] [-v]... -o FILE OBJECT.o...\n"
"\n"
"DESCRIPTION\n"
"    Opens OBJECT.o as 'bpfsdk inspect' does and writes to standard output\n"
"    a header for the user-space side of the program, with:\n"
"\n"
"    struct NAME\n"
"        obj, the struct bsdk_obj; maps.MAP, a struct bsdk_map * for each\n"
"        map (the global data sections as maps.rodata, maps.data,\n"
"        maps.bss); progs.PROG, a struct bsdk_prog * for each program; and\n"
"        rodata, data, bss: pointers to structs generated from the object's\n"
"        BTF with one member per global variable, at its offset in the\n"
"        section. Before load they point at the initial values (set\n"
"        skel->rodata->knob here), after load at the maps mapped into the\n"
"        process (read skel->bss->counter with no system call; .rodata is\n"
"        then read-only).\n"
"\n"
"    NAME__open(), NAME__open_file(PATH)\n"
"        open the object embedded in the header (or, for teaching and\n"
"        debugging, another build of it at PATH) and find its parts.\n"
"    NAME__load(skel), NAME__open_and_load()\n"
"    NAME__attach(skel)\n"
"        attach every program where its section says, as libbpf's does:\n"
"        0, or a negative errno when nothing could be attached (a program\n"
"        this kernel cannot attach is left out with a warning);\n"
"        bsdk_obj_attached_count(skel->obj) says how many are.\n"
"    NAME__detach(skel)\n"
"        detach them, closing nothing else, before the final drain.\n"
"    NAME__destroy(skel)\n"
"        detach, close and free everything.\n"
"    NAME__elf_bytes(&size)\n"
"        the embedded object.\n"
"\n"
"    A global of a named struct type is declared as 'struct TYPE': include\n"
"    the header that defines it before the skeleton. Enums and pointers\n"
"    become integers of their size; each member's offset and size are\n"
"    checked at compile time.\n"
"\n"
"    So are the records: for each perf event array or ring buffer whose\n"
"    record struct the object names (BPFSDK_RECORD(), or the variable its\n"
"    programs send, from DWARF), the struct of that name on the user side\n"
"    must have the object's size and each member's offset and size, or the\n"
"    build fails naming the member. Define it (include the header the BPF\n"
"    side includes) before the skeleton, or define\n"
"    BSDK_SKEL_NO_RECORD_CHECKS.\n"
"\n"
"    gen min-btf writes to FILE the types that the CO-RE relocations of\n"
"    the objects read in SOURCE (a kernel's BTF; default: the running\n"
"    kernel's /sys/kernel/btf/vmlinux), with each struct cut down to the\n"
"    members they access, at their offsets: a few KiB to ship beside a\n"
"    tool for a kernel built without BTF, and to give to 'bpfsdk run\n"
"    --btf FILE' (or bsdk_obj_open_opts.btf_path) there. Every relocation\n"
"    is then resolved against FILE and must give the value SOURCE gives,\n"
"    or nothing is written. Programs that attach by the kernel's own BTF\n"
"    type IDs (tp_btf, fentry, fexit, lsm, iter) get a warning: a kernel\n"
"    without BTF cannot load them, and FILE renumbers its types. Refused:\n"
"    bpf_core_type_id_kernel() (a kernel type ID) and a module's types.\n"
"\n";

/* After the OPTIONS that gen_options[] makes. */
static const char gen_usage_end[] =
"EXIT STATUS\n"
"    0   the header (the BTF file) was written\n"
"    1   the object could not be read or opened, or its parts cannot be\n"
"        named in C (two maps that would get the same member name);\n"
"        nothing is written to standard output\n"
"        (gen min-btf: an object's relocation did not resolve against\n"
"        SOURCE, or cannot be served; FILE is not left behind)\n"
"    2   the command line is wrong\n";

/* The options of both forms, in the order --help shows them; each form
 * refuses the other's. */
const struct bsdk_opt gen_options[] = {
	{ "name", 'n', BSDK_OPT_STRING, .id = GEN_OPT_NAME, .arg = "NAME",
	  .help =
	"gen skeleton: the name of the struct and the prefix of the functions\n"
	"(a C identifier); also 'name NAME' after the object, bpftool's form.\n"
	"Default: bpftool's, the file name without .o with every character C\n"
	"does not take in a name made '_': X.bpf.o gives struct X_bpf and\n"
	"X_bpf__open()." },
	{ "output", 'o', BSDK_OPT_STRING, .id = GEN_OPT_OUTPUT, .arg = "FILE",
	  .help = "gen min-btf: the BTF file to write." },
	{ "btf", 0, BSDK_OPT_STRING, .id = GEN_OPT_BTF, .arg = "SOURCE",
	  .help = "gen min-btf: the kernel BTF to take the types from." },
	{ "verbose", 'v', BSDK_OPT_FLAG, .id = GEN_OPT_VERBOSE,
	  .help = "Say what the loader does." },
	{ "help", 'h', BSDK_OPT_FLAG, .id = GEN_OPT_HELP,
	  .help = "Show this text and exit." },
	{ 0 },
};

/* Every character of s that C does not take in a name made '_', as bpftool does; s. */
static char *underscore_others(char *s)
{
	for (char *p = s; p && *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			*p = '_';
	return s;
}

/* ".rodata.str1.1" -> "rodata_str1_1"; NULL on ENOMEM. */
static char *ident_of(const char *name)
{
	char *s;

	while (*name == '.')
		name++;
	s = malloc(strlen(name) + 2);
	if (!s)
		return NULL;
	sprintf(s, "%s%s", *name >= '0' && *name <= '9' ? "_" : "", name);
	return underscore_others(s);
}

/* The name bpftool gives: "dir/trace_output.bpf.o" -> "trace_output_bpf" (the file's name
 * without ".o", every character C does not take in a name made '_'); NULL on ENOMEM. */
static char *name_of_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *s;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 2 && strcmp(base + len - 2, ".o") == 0)
		len -= 2;
	s = strndup(base, len);
	return underscore_others(s);
}

static unsigned char *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*size = len;
	return buf;
}

static int add_part(struct part **arr, size_t *n, const char *name, const struct bsdk_map *map,
		    const char *what)
{
	struct part *grown = realloc(*arr, (*n + 1) * sizeof(**arr));
	char *field;

	if (!grown)
		return -ENOMEM;
	*arr = grown;
	field = ident_of(name);
	if (!field)
		return -ENOMEM;
	if (!c_ident_ok(field)) {
		cli_error("%s '%s' would be called '%s' in the skeleton, which C cannot name",
			  what, name, field);
		free(field);
		return -EINVAL;
	}
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*arr)[i].field, field) == 0) {
			cli_error("%ss '%s' and '%s' would both be called '%s' in the skeleton",
				  what, (*arr)[i].name, name, field);
			free(field);
			return -EINVAL;
		}
	}
	(*arr)[(*n)++] = (struct part){ name, field, map };
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 0; -EINVAL (said) when two variables of p's section would be members of
 * one name; -ENOMEM (not said). */
static int check_var_names(const struct part *p)
{
	struct bsdk_global_info v;
	const char **names = NULL, **grown;
	size_t n = 0, cap = 0;
	int err = 0;

	for (size_t i = 0; bsdk_map_global_var(p->map, i, &v) == 0; i++) {
		if (!skel_var_emitted(&v))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown) {
				free(names);
				return -ENOMEM;
			}
			names = grown;
		}
		names[n++] = v.name;
	}
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 1; !err && i < n; i++) {
		if (strcmp(names[i - 1], names[i]) == 0) {
			cli_error("section '%s' has two variables called '%s'", p->name, names[i]);
			err = -EINVAL;
		}
	}
	free(names);
	return err;
}

static void skel_free(struct skel *s)
{
	for (size_t i = 0; i < s->nmaps; i++)
		free(s->maps[i].field);
	for (size_t i = 0; i < s->nprogs; i++)
		free(s->progs[i].field);
	free(s->maps);
	free(s->progs);
	bsdk_obj_close(s->obj);
}

static int gen_skeleton(const char *path, const char *name)
{
	struct skel s = { .label = path };
	const struct bsdk_map *map = NULL;
	const struct bsdk_prog *prog = NULL;
	unsigned char *bytes;
	char *buf = NULL, *auto_name = NULL;
	size_t len = 0;
	int err = 0;

	bytes = read_all(path, &s.size);
	if (!bytes) {
		cli_error("cannot read '%s': %s", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	s.bytes = bytes;
	s.label = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!name)
		name = auto_name = name_of_path(path);
	if (!name || !c_ident_ok(name)) {
		cli_usage_error("gen", "'%s' is not a C identifier: name the skeleton with --name",
				name ? name : path);
		free(auto_name);
		free(bytes);
		return EXIT_USAGE;
	}
	s.name = name;
	s.obj = bsdk_obj_open_mem(bytes, s.size, s.label);
	if (!s.obj) {
		cli_error_unless_logged("cannot open '%s': %s", path, bsdk_strerror(errno));
		err = -1;
		goto out;
	}
	while (!err && (map = bsdk_obj_map_next(s.obj, map)))
		err = add_part(&s.maps, &s.nmaps, bsdk_map_name(map), map, "map");
	while (!err && (prog = bsdk_obj_prog_next(s.obj, prog)))
		err = add_part(&s.progs, &s.nprogs, bsdk_prog_name(prog), NULL, "program");
	for (size_t i = 0; !err && i < s.nmaps; i++) {
		const char *f = s.maps[i].field;

		if (skel_map_is_data(s.maps[i].map) &&
		    (!strcmp(f, "obj") || !strcmp(f, "maps") || !strcmp(f, "progs"))) {
			cli_error("section '%s' would be called '%s', a name the skeleton uses itself",
				  s.maps[i].name, f);
			err = -EINVAL;
		}
	}
	for (size_t i = 0; !err && i < s.nmaps; i++)
		if (skel_map_is_data(s.maps[i].map))
			err = check_var_names(&s.maps[i]);
	if (err == -ENOMEM)
		cli_error("out of memory");
	if (err)
		goto out;

	s.f = open_memstream(&buf, &len);
	if (!s.f) {
		cli_error("out of memory");
		err = -ENOMEM;
		goto out;
	}
	skel_emit(&s);
	if (fclose(s.f)) {
		cli_error("out of memory");
		err = -ENOMEM;
		goto out;
	}
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		cli_error("cannot write the output: %s", strerror(errno));
		err = -EIO;
	}
out:
	free(buf);
	skel_free(&s);
	free(auto_name);
	free(bytes);
	return err ? EXIT_RUNTIME : EXIT_OK;
}

static int gen_main(int argc, char **argv)
{
	const char *what = NULL, *path = NULL, *name = NULL, *value;
	bool name_next = false;	/* bpftool's form: OBJECT.o name NAME */
	struct cli_opts o;
	int opt;

	if (argc > 1 && strcmp(argv[1], "min-btf") == 0)
		return gen_min_btf_main(argc - 1, argv + 1);
	cli_opts_init(&o, "gen", gen_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			if (name_next)
				name = value, name_next = false;
			else if (!what)
				what = value;
			else if (!path)
				path = value;
			else if (strcmp(value, "name") == 0 && !name)
				name_next = true;
			else
				return cli_usage_error("gen", "one object at a time: '%s' and '%s'",
						       path, value);
			break;
		case GEN_OPT_NAME:
			name = value;
			break;
		case GEN_OPT_OUTPUT:
		case GEN_OPT_BTF:
			return cli_usage_error("gen", "'--%s' is for gen min-btf",
					       opt == GEN_OPT_BTF ? "btf" : "output");
		case GEN_OPT_VERBOSE:
			cli_verbosity++;
			break;
		case GEN_OPT_HELP:
			cli_print_usage(&cmd_gen);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!what)
		return cli_usage_error("gen", "say what to generate: 'skeleton' or 'min-btf'");
	if (strcmp(what, "skeleton") != 0)
		return cli_usage_error("gen", "unknown thing to generate '%s' ('skeleton' or 'min-btf')", what);
	if (!path)
		return cli_usage_error("gen", "no object file given");
	if (name_next)
		return cli_usage_error("gen", "'name' wants the skeleton's name after it");
	cli_log_init(cli_verbosity);
	return gen_skeleton(path, name);
}

const struct cli_cmd cmd_gen = {
	.name = "gen",
	.summary = "generate a C skeleton header, or a minimal BTF for CO-RE",
	.usage = gen_usage,
	.options = gen_options,
	.usage_end = gen_usage_end,
	.main = gen_main,
};
