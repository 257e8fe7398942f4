// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_closest.c - bsdk_name_closest(), the "did you mean" of every layer:
 * the names it suggests, and that ruling names out by the bytes they do
 * not share (the cheap bound that keeps a scan of the kernel's 56,000
 * function names short) never changes what it finds. The reference below
 * computes the same distance for every name, without any bound.
 */
#include <stdlib.h>

#include "bpfsdk.h"
#include "check.h"

/* Optimal string alignment distance of a and b, plainly. */
static size_t osa(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[40][40];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* What bsdk_name_closest() documents, computed for every name. */
static const char *reference(const char *word, char *const *names, size_t n)
{
	size_t limit = strlen(word) / 3 ? strlen(word) / 3 : 1, best = limit + 1, wl = strlen(word);
	const char *found = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = strncmp(word, names[i], wl) == 0 && names[i][wl] == '_' ? 1 :
			   osa(word, names[i]);

		if (d < best && d > 0) {
			best = d;
			found = names[i];
		}
	}
	return found;
}

/* A name of 3 to 24 bytes from a small alphabet (so that many are close). */
static void random_name(char *out, unsigned *seed)
{
	static const char alphabet[] = "abcdeilnorst_";
	size_t len = 3 + (size_t)rand_r(seed) % 22;

	for (size_t i = 0; i < len; i++)
		out[i] = alphabet[(size_t)rand_r(seed) % (sizeof(alphabet) - 1)];
	out[len] = '\0';
}

int main(void)
{
	static const char *const kernel[] = {
		"vfs_read", "vfs_write", "relay_file_read", "dquot_file_open", "fuse_getattr",
		"bpf_get_current_pid_tgid", "do_unlinkat", "tcp_v4_connect",
	};
	enum { NAMES = 2000, WORDS = 300 };
	static char pool[NAMES][32], words[WORDS][32];
	char *names[NAMES];
	unsigned seed = 30;
	size_t same = 0, found = 0;

	check_str(bsdk_name_closest("vfs_raed", kernel, 8), "vfs_read", "a swap of two bytes");
	check_str(bsdk_name_closest("dummy_file_read", kernel, 8), "relay_file_read",
		  "a third of the word changed");
	check_str(bsdk_name_closest("bpf_get_current_pid", kernel, 8), "bpf_get_current_pid_tgid",
		  "a name cut short at an underscore");
	check(bsdk_name_closest("qwerty_xyz", kernel, 8) == NULL,
	      "nothing within a third of the word: no suggestion");
	check(bsdk_name_closest("vfs_read", kernel, 8) == NULL, "the word itself is no suggestion");

	for (size_t i = 0; i < NAMES; i++) {
		random_name(pool[i], &seed);
		names[i] = pool[i];
	}
	for (size_t w = 0; w < WORDS; w++) {
		const char *got, *want;

		/* half the words a name with a few bytes changed, half new */
		if (w % 2) {
			snprintf(words[w], sizeof(words[w]), "%s", pool[(size_t)rand_r(&seed) % NAMES]);
			for (int k = rand_r(&seed) % 4; k >= 0; k--)
				words[w][(size_t)rand_r(&seed) % strlen(words[w])] = "xyz_a"[rand_r(&seed) % 5];
		} else {
			random_name(words[w], &seed);
		}
		got = bsdk_name_closest(words[w], (const char *const *)names, NAMES);
		want = reference(words[w], names, NAMES);
		same += got == want;
		found += want != NULL;
		if (got != want)
			check_diag("'%s': got '%s', the reference '%s'", words[w], got ? got : "(none)",
				   want ? want : "(none)");
	}
	check_u64(same, WORDS, "the same suggestion as the unbounded reference for each word");
	check(found > WORDS / 4, "the words have suggestions to find (%zu of %d)", found, WORDS);
	return check_done();
}
