// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * closest.c - "did you mean": the name a mistyped one was probably meant
 * to be, by edit distance (insertions, deletions, substitutions and swaps
 * of two neighbours), as git suggests a command, and a name cut short at
 * an underscore as one edit. A name counts only when it is close: at most a
 * third of the word's length, and 1 for a short one.
 */
#include <dirent.h>

#include "base/base.h"

/* Damerau-Levenshtein (optimal string alignment) of a and b, or limit + 1
 * as soon as it must exceed limit. Names are short: words longer than 255
 * bytes are not compared. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
	enum { MAX = 256 };
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][MAX];	/* two rows back, previous, current */
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2], *t;

	if (la >= MAX || lb >= MAX || (la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t best = cur[0] = i;

		for (size_t j = 1; j <= lb; j++) {
			size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			cur[j] = d;
			best = d < best ? d : best;
		}
		if (best > limit)
			return limit + 1;
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* The distance a suggestion for word may be at. */
static size_t closest_limit(const char *word)
{
	size_t n = strlen(word) / 3;

	return n ? n : 1;
}

/* Whether name is word with a part added after an underscore,
 * "bpf_get_current_pid" -> "bpf_get_current_pid_tgid": a name cut short,
 * which counts as one edit however long the part. */
static bool extends_word(const char *word, const char *name)
{
	size_t n = strlen(word);

	return n && strncmp(word, name, n) == 0 && name[n] == '_';
}

const char *bsdk_name_closest(const char *word, const char *const *names, size_t count)
{
	size_t limit = closest_limit(word), best = limit + 1;
	const char *found = NULL;

	for (size_t i = 0; word && names && i < count; i++) {
		size_t d = !names[i] ? limit + 1 : extends_word(word, names[i]) ? 1 :
			   edit_distance(word, names[i], limit);

		if (d < best && d > 0) {
			best = d;
			found = names[i];
		}
	}
	return found;
}

int name_closest_in_dir(const char *dir, const char *word, char *out, size_t size)
{
	size_t limit = closest_limit(word), best = limit + 1;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		size_t dist;

		if (e->d_name[0] == '.')
			continue;
		dist = edit_distance(word, e->d_name, limit);
		if (dist < best && dist > 0) {
			best = dist;
			snprintf(out, size, "%s", e->d_name);
		}
	}
	closedir(d);
	return best <= limit ? 0 : -ENOENT;
}
