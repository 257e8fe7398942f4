// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen_emit.c - the skeleton header `bpfsdk gen skeleton` writes: the data
 * structs laid out like their sections, with compile-time checks, the
 * struct of the object's parts, the object's bytes, and the inline
 * functions that open, load and attach it.
 */
#include <stdio.h>
#include <string.h>

#include "bpfsdk.h"
#include "tool/c_ident.h"
#include "cli/common/cli.h"
#include "gen.h"

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

bool skel_var_emitted(const struct bsdk_global_info *v)
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

/* Whether the data section of map gets a struct: some variable is emitted. */
static bool data_has_struct(const struct bsdk_map *map)
{
	struct bsdk_global_info v;

	for (size_t i = 0; bsdk_map_global_var(map, i, &v) == 0; i++)
		if (skel_var_emitted(&v))
			return true;
	return false;
}

bool skel_map_is_data(const struct bsdk_map *map)
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
		if (!skel_var_emitted(&v) || v.offset < cur)
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
		if (!skel_var_emitted(&v) || v.offset < cur)
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
		n += skel_map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map);
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

/* The header's first lines: where it comes from and how to use it. */
static void emit_intro(const struct skel *s)
{
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
" *	err = @N@__attach(skel);           (0, or -errno: nothing attached)\n"
" *	... skel->bss->counter ...         (after load: the map itself)\n"
" *	@N@__detach(skel);                 (then drain the buffers)\n"
" *	@N@__destroy(skel);\n"
" *\n"
" * open and open_and_load return NULL with errno set; load returns 0 or a\n"
" * negative errno. The library's log (bsdk_set_log()) says why. After load,\n"
" * rodata is read-only, and the data pointers are NULL on kernels that cannot\n"
" * map global data (before 5.5): read those maps with bsdk_map_lookup_elem().\n"
" */\n");
}

/* struct NAME: the object, its maps and programs, the data structs. */
static void emit_struct(const struct skel *s)
{
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
		if (skel_map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
			fprintf(s->f, "\tstruct %s__%s *%s;\n", s->name, s->maps[i].field,
				s->maps[i].field);
	fputs("};\n\n", s->f);

}

/* NAME__elf_bytes(), __destroy(), and __bind_data() and __bind(), which
 * find the parts by name. */
static void emit_binders(const struct skel *s)
{
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
		if (skel_map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
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
}

/* NAME__open_from(): open the embedded bytes or a file, bind the parts. */
static void emit_open_from(const struct skel *s)
{
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
"\n");
}

/* The calls a tool makes: NAME__open(), __open_file(), __load(),
 * __open_and_load(), __attach(). */
static void emit_api(const struct skel *s)
{
	put(s,
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
" * those this kernel cannot attach: bsdk_obj_attach_skeleton(). Loads first\n"
" * when @N@__load() was not called. 0, or -errno when none is attached;\n"
" * bsdk_obj_attached_count(skel->obj) says how many are. */\n"
"static inline int @N@__attach(struct @N@ *skel)\n"
"{\n"
"	int err = bsdk_obj_attach_skeleton(skel->obj);\n"
"\n"
"	@N@__bind_data(skel);\n"
"	return err;\n"
"}\n"
"\n"
"/* Detach what @N@__attach() attached, closing nothing else: the maps stay,\n"
" * so a final drain of the buffers reads what came before. */\n"
"static inline void @N@__detach(struct @N@ *skel)\n"
"{\n"
"	bsdk_obj_detach_all(skel->obj);\n"
"}\n"
"\n");
}

void skel_emit(const struct skel *s)
{
	char guard[256];
	size_t n = 0;

	for (const char *c = s->name; *c && n + 1 < sizeof(guard); c++)
		guard[n++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	guard[n] = '\0';

	emit_intro(s);
	fprintf(s->f, "#ifndef BSDK_SKEL_%s_H\n#define BSDK_SKEL_%s_H\n\n", guard, guard);
	fputs("#include <errno.h>\n#include <stddef.h>\n#include <stdlib.h>\n#include <linux/types.h>\n#include <bpfsdk.h>\n\n", s->f);

	for (size_t i = 0; i < s->nmaps; i++)
		if (skel_map_is_data(s->maps[i].map) && data_has_struct(s->maps[i].map))
			emit_data_struct(s, &s->maps[i]);
	skel_emit_record_checks(s);

	emit_struct(s);
	emit_bytes(s);
	emit_binders(s);
	emit_open_from(s);
	emit_api(s);
	fprintf(s->f, "#endif /* BSDK_SKEL_%s_H */\n", guard);
}
