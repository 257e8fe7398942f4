// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * suggest.c - what the object has, for an option that names what it does
 * not: "did you mean" (bsdk_name_closest()) and, for maps, the names
 * there are, so that `--maps count` on an object whose map is `counts`
 * says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/run/show/show.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Append "; did you mean 'NEAR'?" to buf when one of names is close. */
static void add_near(char *buf, size_t size, const char *word, const char *const *names, size_t n)
{
	const char *near = bsdk_name_closest(word, names, n);
	size_t len = strlen(buf);

	if (near && len < size)
		snprintf(buf + len, size - len, "; did you mean '%s'?", near);
}

const char *cli_map_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size)
{
	const char *names[64];
	const struct bsdk_map *map = NULL;
	size_t n = 0, len;

	buf[0] = '\0';
	while ((map = bsdk_obj_map_next(obj, map)) && n < NELEMS(names))
		names[n++] = bsdk_map_name(map);
	add_near(buf, size, name, names, n);
	len = strlen(buf);
	for (size_t i = 0; i < n && len < size; i++) {
		snprintf(buf + len, size - len, "%s%s", i ? ", " : " (its maps: ", names[i]);
		len = strlen(buf);
	}
	if (n && len < size)
		snprintf(buf + len, size - len, ")");
	return buf;
}

const char *cli_global_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size)
{
	static const char *const secs[] = { ".rodata", ".data", ".bss" };
	const char *names[256];
	struct bsdk_global_info info;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t s = 0; s < NELEMS(secs); s++) {
		const struct bsdk_map *map = bsdk_obj_map_find(obj, secs[s]);

		for (size_t i = 0; map && n < NELEMS(names) &&
				   bsdk_map_global_var(map, i, &info) == 0; i++)
			names[n++] = info.name;
	}
	add_near(buf, size, name, names, n);
	return buf;
}

const char *cli_type_hint(const struct bsdk_obj *obj, const char *name, char *buf, size_t size)
{
	const struct bsdk_btf *btf = bsdk_obj_btf(obj);
	uint32_t count = btf ? bsdk_btf_type_count(btf) : 0;
	const char **names = calloc(count ? count : 1, sizeof(*names));
	struct bsdk_btf_info info;
	size_t n = 0;

	buf[0] = '\0';
	if (!names)
		return buf;
	for (uint32_t id = 1; id < count; id++)
		if (bsdk_btf_info(btf, id, NULL, &info) == 0 && info.name[0] && info.type_id == id)
			names[n++] = info.name;
	add_near(buf, size, name, names, n);
	free(names);
	return buf;
}
