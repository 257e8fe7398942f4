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

/* A lower bound of edit_distance(word, b): the bytes one has that the other lacks (an edit
 * changes at most one on each side; a swap none), from word's byte counts in have, which it
 * leaves as they were. Linear, where the distance is quadratic: most names of a long list
 * are ruled out by it. */
static size_t bag_distance(unsigned char *have, size_t la, const char *b, size_t lb)
{
	unsigned char taken[256];
	size_t common = 0;

	/* lb < 256: count what b takes of word's bytes, then give it back */
	for (size_t j = 0; j < lb; j++) {
		unsigned char c = (unsigned char)b[j];

		if (have[c]) {
			have[c]--;
			taken[common++] = c;
		}
	}
	for (size_t k = 0; k < common; k++)
		have[taken[k]]++;
	return la - common > lb - common ? la - common : lb - common;
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
	size_t limit = closest_limit(word), best = limit + 1, la = word ? strlen(word) : 0;
	unsigned char have[256] = { 0 };
	const char *found = NULL;

	/* a word of 255 bytes or more is compared without the bound (a count is a byte) */
	for (size_t i = 0; i < la && i < 255; i++)
		have[(unsigned char)word[i]]++;
	for (size_t i = 0; word && names && i < count; i++) {
		size_t d, lb;

		if (!names[i])
			continue;
		lb = strlen(names[i]);
		if (lb > la && names[i][la] == '_' && extends_word(word, names[i]))
			d = 1;
		else if ((la > lb ? la - lb : lb - la) > limit || lb >= 256 ||
			 (la < 255 && bag_distance(have, la, names[i], lb) > limit))
			continue;
		else
			d = edit_distance(word, names[i], limit);
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
