// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen.c - `bpfsdk gen skeleton`: a C header that embeds a BPF object and
 * names its parts, in the shape libbpf's users know from bpftool: a struct
 * with the object, its maps and programs by name, and its global variables
 * as structs laid out like their sections, plus NAME__open(), __load(),
 * __attach(), __destroy(). A tool built on it ships as one binary.
 *
 * The header is written to memory first and to stdout only when all of it
 * could be made: a failure never leaves half a header behind a redirect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "c_ident.h"
#include "cli.h"

static const char gen_usage[] =
"NAME\n"
"    bpfsdk gen skeleton - a C header that embeds an object and names its parts\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk gen skeleton [--name NAME] [-v]... OBJECT.o > NAME.skel.h\n"
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
"        attach every program where its section says\n"
"        (bsdk_obj_attach_all()); the number attached.\n"
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
"OPTIONS\n"
"    -n, --name NAME\n"
"        The name of the struct and the prefix of the functions (a C\n"
"        identifier). Default: the file name without .bpf.o or .o.\n"
"\n"
"    -v, --verbose\n"
"        Say what the loader does.\n"
"\n"
"    -h, --help\n"
"        Show this text and exit.\n"
"\n"
"EXIT STATUS\n"
"    0   the header was written\n"
"    1   the object could not be read or opened, or its parts cannot be\n"
"        named in C (two maps that would get the same member name);\n"
"        nothing is written to standard output\n"
"    2   the command line is wrong\n";

enum { OPT_NAME = 1, OPT_VERBOSE, OPT_HELP };

static const struct cli_option gen_options[] = {
	{ "name",    'n', true,  OPT_NAME },
	{ "verbose", 'v', false, OPT_VERBOSE },
	{ "help",    'h', false, OPT_HELP },
	{ 0 },
};

/* A part of the object and the C identifier it gets in the struct. */
struct part {
	const char *name;	/* as the object says */
	char *field;
	const struct bsdk_map *map;
};

struct skel {
	const char *name;	/* the struct and the functions' prefix */
	const char *label;	/* the object's name in messages */
	struct bsdk_obj *obj;
	const unsigned char *bytes;
	size_t size;
	struct part *maps, *progs;
	size_t nmaps, nprogs;
	FILE *f;
};

/* Write s so that it is the same bytes inside a C string literal and
 * harmless inside a comment: the object's names and the file's go into
 * both, and an object is input (a name may hold a quote, a newline, a
 * comment's start or end, a trigraph). */
static void put_c_text(FILE *f, const char *s)
{
	int prev = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; prev = *p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f || (*p == '/' && prev == '*') ||
			 (*p == '*' && prev == '/'))
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	}
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
	for (char *p = s; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			*p = '_';
	return s;
}

/* "dir/trace_output.bpf.o" -> "trace_output"; NULL on ENOMEM. */
static char *name_of_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *s;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 6 && strcmp(base + len - 6, ".bpf.o") == 0)
		len -= 6;
	else if (len > 2 && strcmp(base + len - 2, ".o") == 0)
		len -= 2;
	s = strndup(base, len);
	return s;
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

/* Write text with every "@N@" replaced by the skeleton's name. */
static void put(const struct skel *s, const char *text)
{
	const char *at;

	while ((at = strstr(text, "@N@"))) {
		fwrite(text, 1, (size_t)(at - text), s->f);
		fputs(s->name, s->f);
		text = at + 3;
	}
	fputs(text, s->f);
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

/* "__pad0", "__pad1", ...: the names of the padding members. */
static bool is_pad_name(const char *name)
{
	if (strncmp(name, "__pad", 5) != 0 || !name[5])
		return false;
	for (name += 5; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

/* The variables of a data section that get a member: named like C, not
 * static, not a name a padding member takes. */
static bool var_emitted(const struct bsdk_global_info *v)
{
	return !v->is_static && c_ident_ok(v->name) && !is_pad_name(v->name);
}

/* Whether v's type has the size its section gives it. When not (an object
 * the compiler did not write), the member is an array of that many bytes.
 * An offset the type's alignment does not divide is left to the header's
 * _Static_assert, which names the variable. */
static bool decl_fits(const struct bsdk_btf *btf, const struct bsdk_global_info *v)
{
	struct bsdk_btf_info info;

	return bsdk_btf_info(btf, v->btf_type_id, NULL, &info) == 0 && info.size == v->size;
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
		if (!var_emitted(&v))
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

/* Whether the data section of map gets a struct: some variable is emitted. */
static bool data_has_struct(const struct bsdk_map *map)
{
	struct bsdk_global_info v;

	for (size_t i = 0; bsdk_map_global_var(map, i, &v) == 0; i++)
		if (var_emitted(&v))
			return true;
	return false;
}

static bool map_is_data(const struct bsdk_map *map)
{
	size_t size;

	return bsdk_map_global_data(map, &size) != NULL;
}

/* struct NAME__SEC: one member per variable at its offset, padding between;
 * then compile-time checks of every offset and size. */
static int emit_data_struct(const struct skel *s, const struct part *p)
{
	const struct bsdk_btf *btf = bsdk_obj_btf(s->obj);
	struct bsdk_global_info v;
	uint64_t cur = 0;
	uint32_t pads = 0;
	char decl[1024];

	fputs("/* ", s->f);
	put_c_text(s->f, p->name);
	fprintf(s->f, " */\nstruct %s__%s {\n", s->name, p->field);
	for (size_t i = 0; bsdk_map_global_var(p->map, i, &v) == 0; i++) {
		int n = -1;

		/* a variable over another's bytes is left out */
		if (!var_emitted(&v) || v.offset < cur)
			continue;
		if (v.offset > cur)
			fprintf(s->f, "\tchar __pad%u[%llu];\n", pads++, (unsigned long long)(v.offset - cur));
		if (decl_fits(btf, &v))
			n = bsdk_btf_c_decl(btf, v.btf_type_id, v.name, decl, sizeof(decl));
		if (n < 0 || (size_t)n >= sizeof(decl))
			fprintf(s->f, "\tunsigned char %s[%u];\t/* a type C cannot declare here */\n",
				v.name, v.size);
		else
			fprintf(s->f, "\t%s;\n", decl);
		cur = (uint64_t)v.offset + v.size;
	}
	fputs("};\n\n#ifndef __cplusplus\n", s->f);
	cur = 0;
	for (size_t i = 0; bsdk_map_global_var(p->map, i, &v) == 0; i++) {
		if (!var_emitted(&v) || v.offset < cur)
			continue;
		cur = (uint64_t)v.offset + v.size;
		fprintf(s->f, "_Static_assert(offsetof(struct %s__%s, %s) == %u && sizeof(((struct %s__%s *)0)->%s) == %u, \"",
			s->name, p->field, v.name, v.offset, s->name, p->field, v.name, v.size);
		put_c_text(s->f, s->label);
		fprintf(s->f, ": the layout of '%s' in ", v.name);
		put_c_text(s->f, p->name);
		fputs("\");\n", s->f);
	}
	fputs("#endif\n\n", s->f);
	return 0;
}

static size_t n_data_structs(const struct skel *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nmaps; i++)
		n += map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map);
	return n;
}

static void emit_bytes(const struct skel *s)
{
	fputs("/* ", s->f);
	put_c_text(s->f, s->label);
	fprintf(s->f, ", %zu bytes */\nstatic const char %s__elf[] =\n", s->size, s->name);
	for (size_t i = 0; i < s->size; i += 16) {
		fputs("\t\"", s->f);
		for (size_t j = i; j < s->size && j < i + 16; j++)
			fprintf(s->f, "\\x%02x", s->bytes[j]);
		fputs(i + 16 >= s->size ? "\";\n\n" : "\"\n", s->f);
	}
	if (s->size == 0)
		fputs("\t\"\";\n\n", s->f);
}

/* skel->maps.F = bsdk_obj_map_find(...), or progs: kind "map" or "prog". */
static void emit_bind(const struct skel *s, const struct part *p, const char *kind)
{
	fprintf(s->f, "\tskel->%ss.%s = bsdk_obj_%s_find(skel->obj, \"", kind, p->field, kind);
	put_c_text(s->f, p->name);
	fprintf(s->f, "\");\n\tif (!skel->%ss.%s)\n"
		"\t\treturn bsdk_obj_skeleton_mismatch(skel->obj, \"%s\", \"", kind, p->field,
		strcmp(kind, "prog") ? kind : "program");
	put_c_text(s->f, p->name);
	fputs("\");\n", s->f);
}

static void emit(const struct skel *s)
{
	char guard[256];
	size_t n = 0;

	for (const char *c = s->name; *c && n + 1 < sizeof(guard); c++)
		guard[n++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	guard[n] = '\0';

	fprintf(s->f, "/* %s.skel.h - generated by `bpfsdk gen skeleton` from ", s->name);
	put_c_text(s->f, s->label);
	fputs("; do not edit. */\n", s->f);
	put(s,
"/*\n"
" * struct @N@ holds the object, its maps and programs by name, and its global\n"
" * variables as structs laid out like their sections:\n"
" *\n"
" *	struct @N@ *skel = @N@__open();    (or @N@__open_file(path))\n"
" *	skel->rodata->knob = 42;           (before load: the initial value)\n"
" *	err = @N@__load(skel);\n"
" *	n = @N@__attach(skel);             (programs attached, or -errno)\n"
" *	... skel->bss->counter ...         (after load: the map itself)\n"
" *	@N@__destroy(skel);\n"
" *\n"
" * open and open_and_load return NULL with errno set; load returns 0 or a\n"
" * negative errno. The library's log (bsdk_set_log()) says why. After load,\n"
" * rodata is read-only, and the data pointers are NULL on kernels that cannot\n"
" * map global data (before 5.5): read those maps with bsdk_map_lookup_elem().\n"
" */\n");
	fprintf(s->f, "#ifndef BSDK_SKEL_%s_H\n#define BSDK_SKEL_%s_H\n\n", guard, guard);
	fputs("#include <errno.h>\n#include <stddef.h>\n#include <stdlib.h>\n#include <linux/types.h>\n#include <bpfsdk.h>\n\n", s->f);

	for (size_t i = 0; i < s->nmaps; i++)
		if (map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
			emit_data_struct(s, &s->maps[i]);

	put(s, "struct @N@ {\n\tstruct bsdk_obj *obj;\n");
	if (s->nmaps) {
		fputs("\tstruct {\n", s->f);
		for (size_t i = 0; i < s->nmaps; i++)
			fprintf(s->f, "\t\tstruct bsdk_map *%s;\n", s->maps[i].field);
		fputs("\t} maps;\n", s->f);
	}
	fputs("\tstruct {\n", s->f);
	for (size_t i = 0; i < s->nprogs; i++)
		fprintf(s->f, "\t\tstruct bsdk_prog *%s;\n", s->progs[i].field);
	fputs("\t} progs;\n", s->f);
	for (size_t i = 0; i < s->nmaps; i++)
		if (map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
			fprintf(s->f, "\tstruct %s__%s *%s;\n", s->name, s->maps[i].field,
				s->maps[i].field);
	fputs("};\n\n", s->f);

	emit_bytes(s);

	put(s,
"static inline const void *@N@__elf_bytes(size_t *size)\n"
"{\n"
"	*size = sizeof(@N@__elf) - 1;\n"
"	return @N@__elf;\n"
"}\n"
"\n"
"static inline void @N@__destroy(struct @N@ *skel)\n"
"{\n"
"	if (!skel)\n"
"		return;\n"
"	bsdk_obj_close(skel->obj);\n"
"	free(skel);\n"
"}\n"
"\n"
"/* Point the data structs at the sections: the initial values before load, the\n"
" * mapped maps after. */\n"
"static inline void @N@__bind_data(struct @N@ *skel)\n"
"{\n");
	for (size_t i = 0; i < s->nmaps; i++)
		if (map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
			fprintf(s->f, "\tskel->%s = (struct %s__%s *)bsdk_map_global_data(skel->maps.%s, NULL);\n",
				s->maps[i].field, s->name, s->maps[i].field, s->maps[i].field);
	if (!n_data_structs(s))
		fputs("\t(void)skel;\n", s->f);
	put(s,
"}\n"
"\n"
"/* Find the maps and programs by name: 0, or -ENOENT (logged) for an object\n"
" * that is not the one the skeleton was generated from. */\n"
"static inline int @N@__bind(struct @N@ *skel)\n"
"{\n");
	for (size_t i = 0; i < s->nmaps; i++)
		emit_bind(s, &s->maps[i], "map");
	for (size_t i = 0; i < s->nprogs; i++)
		emit_bind(s, &s->progs[i], "prog");
	put(s, "\t@N@__bind_data(skel);\n\treturn 0;\n}\n\n");
	put(s,
"static inline struct @N@ *@N@__open_from(const void *buf, size_t size, const char *path)\n"
"{\n"
"	struct @N@ *skel = (struct @N@ *)calloc(1, sizeof(*skel));\n"
"	int err;\n"
"\n"
"	if (!skel) {\n"
"		errno = ENOMEM;\n"
"		return NULL;\n"
"	}\n");
	fputs("\tskel->obj = path ? bsdk_obj_open(path) : bsdk_obj_open_mem(buf, size, \"", s->f);
	put_c_text(s->f, s->label);
	fputs("\");\n", s->f);
	put(s,
"	err = skel->obj ? @N@__bind(skel) : -errno;\n"
"	if (err) {\n"
"		@N@__destroy(skel);\n"
"		errno = -err;\n"
"		return NULL;\n"
"	}\n"
"	return skel;\n"
"}\n"
"\n"
"/* Open the object embedded in this header. NULL with errno. */\n"
"static inline struct @N@ *@N@__open(void)\n"
"{\n"
"	size_t size;\n"
"	const void *buf = @N@__elf_bytes(&size);\n"
"\n"
"	return @N@__open_from(buf, size, NULL);\n"
"}\n"
"\n"
"/* Open another build of the same object, at path. NULL with errno (ENOENT\n"
" * when it lacks a map or program this skeleton knows). */\n"
"static inline struct @N@ *@N@__open_file(const char *path)\n"
"{\n"
"	return @N@__open_from(NULL, 0, path);\n"
"}\n"
"\n"
"/* Create the maps, load the programs, map the global data. 0 or -errno. */\n"
"static inline int @N@__load(struct @N@ *skel)\n"
"{\n"
"	int err = bsdk_obj_load(skel->obj);\n"
"\n"
"	if (err)\n"
"		return err;\n"
"	@N@__bind_data(skel);\n"
"	return 0;\n"
"}\n"
"\n"
"static inline struct @N@ *@N@__open_and_load(void)\n"
"{\n"
"	struct @N@ *skel = @N@__open();\n"
"	int err;\n"
"\n"
"	if (!skel)\n"
"		return NULL;\n"
"	err = @N@__load(skel);\n"
"	if (err) {\n"
"		@N@__destroy(skel);\n"
"		errno = -err;\n"
"		return NULL;\n"
"	}\n"
"	return skel;\n"
"}\n"
"\n"
"/* Attach every program where its section says, leaving out (with a warning)\n"
" * those this kernel cannot attach: bsdk_obj_attach_all(). Loads first when\n"
" * @N@__load() was not called. The number attached, or -errno. */\n"
"static inline int @N@__attach(struct @N@ *skel)\n"
"{\n"
"	int n = bsdk_obj_attach_all(skel->obj, 0);\n"
"\n"
"	@N@__bind_data(skel);\n"
"	return n;\n"
"}\n"
"\n");
	fprintf(s->f, "#endif /* BSDK_SKEL_%s_H */\n", guard);
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

		if (map_is_data(s.maps[i].map) &&
		    (!strcmp(f, "obj") || !strcmp(f, "maps") || !strcmp(f, "progs"))) {
			cli_error("section '%s' would be called '%s', a name the skeleton uses itself",
				  s.maps[i].name, f);
			err = -EINVAL;
		}
	}
	for (size_t i = 0; !err && i < s.nmaps; i++)
		if (map_is_data(s.maps[i].map))
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
	emit(&s);
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
	struct cli_opts o;
	int opt;

	cli_opts_init(&o, "gen", gen_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			if (!what)
				what = value;
			else if (!path)
				path = value;
			else
				return cli_usage_error("gen", "one object at a time: '%s' and '%s'",
						       path, value);
			break;
		case OPT_NAME:
			name = value;
			break;
		case OPT_VERBOSE:
			cli_verbosity++;
			break;
		case OPT_HELP:
			cli_print_usage(&cmd_gen);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!what)
		return cli_usage_error("gen", "say what to generate: 'skeleton'");
	if (strcmp(what, "skeleton") != 0)
		return cli_usage_error("gen", "unknown thing to generate '%s' (only 'skeleton')", what);
	if (!path)
		return cli_usage_error("gen", "no object file given");
	cli_log_init(cli_verbosity);
	return gen_skeleton(path, name);
}

const struct cli_cmd cmd_gen = {
	.name = "gen",
	.summary = "generate a C skeleton header that embeds an object",
	.usage = gen_usage,
	.main = gen_main,
};
