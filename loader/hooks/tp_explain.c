// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tp_explain.c - why a tracepoint could not be found, told as fully as
 * the system allows: tracefs closed to this user, tracefs not mounted,
 * or a name that is probably a typo of one that exists ("did you mean",
 * by the edit distance of base/closest.c). The core's tracepoint attach
 * calls tracepoint_explain() through the hook ext/passes.c sets; the
 * attach policy asks tracepoint_suggest() itself.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "tool/tool.h"

/* Whether tracefs is mounted at one of the roots: asked of the file
 * system, since a user who may not enter the directory cannot see into it. */
static bool tracefs_mounted(void)
{
	struct statfs st;

	for (size_t i = 0; i < TRACEFS_ROOTS; i++)
		if (statfs(tracefs_roots[i], &st) == 0 && (unsigned long)st.f_type == TRACEFS_MAGIC)
			return true;
	return false;
}

/* Of the categories under events that have the event name, the one
 * closest to cat (for an empty cat, the only one), into out (NAME_MAX + 1
 * bytes); 0 or -ENOENT. */
static int category_suggest(const char *events, const char *cat, const char *name, char *out)
{
	char path[PATH_MAX], (*cands)[NAME_MAX + 1] = NULL;
	const char **names = NULL;
	const char *near;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(events);
	int err = -ENOENT;

	while (d && (e = readdir(d))) {
		int len = snprintf(path, sizeof(path), "%s/%s/%s", events, e->d_name, name);

		if (e->d_name[0] == '.' || len < 0 || (size_t)len >= sizeof(path) || access(path, F_OK))
			continue;
		if (n == cap) {
			void *c = realloc(cands, (cap = cap ? 2 * cap : 16) * sizeof(*cands));

			if (!c)
				break;
			cands = c;
		}
		snprintf(cands[n++], NAME_MAX + 1, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	names = n ? calloc(n, sizeof(*names)) : NULL;
	for (size_t i = 0; names && i < n; i++)
		names[i] = cands[i];
	/* no category given: the one that has the event, when only one has */
	near = !names ? NULL : *cat ? bsdk_name_closest(cat, names, n) : n == 1 ? names[0] : NULL;
	if (near) {
		snprintf(out, NAME_MAX + 1, "%s", near);
		err = 0;
	}
	free(names);
	free(cands);
	return err;
}

int tracepoint_suggest(const char *target, char *out, size_t size)
{
	const char *slash = strchr(target, '/'), *root = NULL;
	char dir[PATH_MAX], cat[NAME_MAX + 1], name[NAME_MAX + 1], near[NAME_MAX + 1];

	for (size_t i = 0; i < TRACEFS_ROOTS && !root; i++) {
		snprintf(dir, sizeof(dir), "%s/events", tracefs_roots[i]);
		root = access(dir, F_OK) == 0 ? tracefs_roots[i] : NULL;
	}
	if (!root || !slash || (size_t)(slash - target) > NAME_MAX || strlen(slash + 1) > NAME_MAX)
		return -ENOENT;
	snprintf(cat, sizeof(cat), "%.*s", (int)(slash - target), target);
	snprintf(name, sizeof(name), "%s", slash + 1);
	snprintf(dir, sizeof(dir), "%s/events/%s", root, cat);
	if (access(dir, F_OK)) {	/* the category is the typo */
		snprintf(dir, sizeof(dir), "%s/events", root);
		if (category_suggest(dir, cat, name, near) == 0) {
			snprintf(out, size, "%s/%s", near, name);
			return 0;
		}
		if (name_closest_in_dir(dir, cat, near, sizeof(near)))
			return -ENOENT;
		memcpy(cat, near, sizeof(cat));
		snprintf(dir, sizeof(dir), "%s/events/%s", root, cat);
	}
	if (name_closest_in_dir(dir, name, near, sizeof(near)))
		return -ENOENT;
	snprintf(out, size, "%s/%s", cat, near);
	return 0;
}

/* A tracepoint named without its category, SEC("tp/sys_enter_write"):
 * the section with the category that has an event of that name, logged;
 * 0 when no category has one. */
static int category_missing(const struct bsdk_prog *prog)
{
	char dir[PATH_MAX], cat[NAME_MAX + 1];
	int err = -ENOENT;

	for (size_t i = 0; i < TRACEFS_ROOTS && err; i++) {
		snprintf(dir, sizeof(dir), "%s/events", tracefs_roots[i]);
		err = category_suggest(dir, "", prog->target, cat);
	}
	if (err)
		return 0;
	/* the section's own target, or one bsdk_prog_set_attach_target() gave */
	uintptr_t t = (uintptr_t)prog->target, sec = (uintptr_t)prog->section;

	if (t < sec || t > sec + strlen(prog->section))
		return log_fail(BSDK_ESECTION, "program '%s': tracepoint '%s' is not of the form CATEGORY/NAME; did you mean '%s/%s'?",
				prog->fn.name, prog->target, cat, prog->target);
	return log_fail(BSDK_ESECTION, "program '%s': tracepoint '%s' is not of the form CATEGORY/NAME; did you mean SEC(\"%.*s%s/%s\")?",
			prog->fn.name, prog->target, (int)(prog->target - prog->section),
			prog->section, cat, prog->target);
}

int tracepoint_explain(const struct bsdk_prog *prog, const char *root, int err)
{
	char near[2 * NAME_MAX + 2];

	if (err == -ENOENT && !strchr(prog->target, '/'))
		return category_missing(prog);

	if (err == -EACCES || err == -EPERM)
		/* mounted, but its mode (0700 root) keeps this user out */
		return log_fail(EACCES, "program '%s': tracepoint '%s': %s/events is not readable by this user: reading tracefs takes CAP_DAC_READ_SEARCH (or root; a raw_tp/ or tp_btf/ program needs no tracefs)",
				prog->fn.name, prog->target, root);
	if (err != -ENOENT)
		return 0;
	if (!tracefs_mounted())
		return log_fail(BSDK_ENOPROBE, "program '%s': tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)",
				prog->fn.name);
	if (tracepoint_suggest(prog->target, near, sizeof(near)) == 0)
		return log_fail(BSDK_ENOPROBE, "program '%s': tracepoint '%s' does not exist on this kernel; did you mean '%s'?",
				prog->fn.name, prog->target, near);
	return 0;
}
