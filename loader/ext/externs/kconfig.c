// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kconfig.c - the running kernel's configuration, for __kconfig externs:
 * its text, read once (/proc/config.gz, else /boot/config-RELEASE), a
 * CONFIG_ option looked up in it, and a value written into the bytes of
 * the extern's type.
 */
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "ext/externs/extern.h"

/* ---- The kernel's configuration text ----------------------------------- */

/* The text of the running kernel's configuration, read once: /proc/config.gz
 * (CONFIG_IKCONFIG_PROC), else /boot/config-$(uname -r). NULL when it cannot
 * be had: *err is -ENOENT when neither file is there, else why reading failed
 * (then the next call tries again); *where names what was read (or tried). */
static const char *kconfig_text_locked(size_t *len, const char **where, int *err)
{
	static char *text;
	static size_t text_len;
	static char path[PATH_MAX];
	static bool done;
	struct utsname u;
	gzFile gz;

	*where = path;
	*len = text_len;
	*err = text ? 0 : -ENOENT;
	if (done)
		return text;
	snprintf(path, sizeof(path), "/proc/config.gz");
	errno = 0;
	gz = gzopen(path, "rb");
	if (!gz && (errno == ENOENT || errno == 0) && uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		gz = gzopen(path, "rb");	/* zlib reads plain files too */
	}
	if (!gz) {
		*err = errno && errno != ENOENT ? -errno : -ENOENT;
		if (*err == -ENOENT) {
			done = true;
			snprintf(path, sizeof(path), "/proc/config.gz or /boot/config-$(uname -r)");
		}
		return NULL;
	}
	text_len = 0;
	*err = 0;
	for (size_t cap = 0;;) {
		char *grown;
		int n;

		if (text_len + 65536 > cap) {
			cap = cap ? cap * 2 : 262144;
			grown = realloc(text, cap + 1);
			if (!grown) {
				*err = -ENOMEM;
				break;
			}
			text = grown;
		}
		n = gzread(gz, text + text_len, 65536);
		if (n < 0)
			*err = errno ? -errno : -EIO;
		if (n <= 0)
			break;
		text_len += (size_t)n;
	}
	gzclose(gz);
	if (!*err) {
		text[text_len] = '\0';
		*len = text_len;
		done = true;
		return text;
	}
	/* half a configuration would make options that are there look absent */
	free(text);
	text = NULL;
	text_len = 0;
	return NULL;
}

/* kconfig_text_locked() for any thread: the first ones to ask may read at
 * once; once read, the text does not change. where (PATH_MAX bytes) gets
 * the path. */
const char *kconfig_text(size_t *len, char *where, int *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	const char *text, *path;

	pthread_mutex_lock(&lock);
	text = kconfig_text_locked(len, &path, err);
	snprintf(where, PATH_MAX, "%s", path);
	pthread_mutex_unlock(&lock);
	return text;
}

/*
 * Find name in a configuration text: its value, as written after '=' with
 * a string's quotes kept, into val (size bytes, NUL-terminated; truncated
 * values fail). "# CONFIG_X is not set" gives "n". 1 when found, 0 when
 * the text does not mention it, -EINVAL for a value too long for val.
 */
int kconfig_lookup(const char *text, size_t len, const char *name, char *val, size_t size)
{
	size_t nlen = strlen(name);
	const char *end = text + len;

	for (const char *line = text; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		size_t llen;

		if (!eol)
			eol = end;
		llen = (size_t)(eol - line);
		if (llen > nlen + 1 && memcmp(line, name, nlen) == 0 && line[nlen] == '=') {
			size_t vlen = llen - nlen - 1;

			while (vlen && (line[nlen + 1 + vlen - 1] == '\r' ||
					line[nlen + 1 + vlen - 1] == ' '))
				vlen--;
			if (vlen + 1 > size)
				return -EINVAL;
			memcpy(val, line + nlen + 1, vlen);
			val[vlen] = '\0';
			return 1;
		}
		if (llen == nlen + 13 && memcmp(line, "# ", 2) == 0 &&
		    memcmp(line + 2, name, nlen) == 0 &&
		    memcmp(line + 2 + nlen, " is not set", 11) == 0) {
			if (size < 2)
				return -EINVAL;
			strcpy(val, "n");
			return 1;
		}
		line = eol + 1;
	}
	return 0;
}

/* ---- Turning a value into the extern's bytes ---------------------------- */

/* Whether the extern's type can hold v: its size and signedness. */
static bool int_fits(const struct ext *e, unsigned long long v, bool neg)
{
	unsigned int bits = e->size * 8;

	if (bits >= 64)
		return !neg || e->is_signed;
	if (e->is_signed)
		return neg ? (long long)v >= -(1LL << (bits - 1)) : v < (1ULL << (bits - 1));
	return !neg && v < (1ULL << bits);
}

void put_int(void *dst, unsigned int size, unsigned long long v)
{
	/* the low bytes of v in the host's order: BPF runs in it */
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } u;

	switch (size) {
	case 1: u.u8 = (uint8_t)v; break;
	case 2: u.u16 = (uint16_t)v; break;
	case 4: u.u32 = (uint32_t)v; break;
	default: u.u64 = v; break;
	}
	memcpy(dst, &u, size);
}

/*
 * Store the configuration value val ("y", "m", "n", "123", "0x1f",
 * "\"text\"") into dst, as the extern's type wants it; the error, in
 * words, into err. 0 or -EINVAL.
 */
int kconfig_set(const struct ext *e, const char *val, void *dst, char *err, size_t err_size)
{
	bool tri = (val[0] == 'y' || val[0] == 'm' || val[0] == 'n') && val[1] == '\0';

	switch (e->kcfg) {
	case KCFG_BOOL:
		if (!tri || val[0] == 'm') {
			snprintf(err, err_size, "is declared bool but the kernel's value is '%s'%s", val,
				 val[0] == 'm' && tri ? " (a module): declare it enum libbpf_tristate" : "");
			return -EINVAL;
		}
		*(uint8_t *)dst = val[0] == 'y';
		return 0;
	case KCFG_TRISTATE:
		if (!tri) {
			snprintf(err, err_size, "is declared enum libbpf_tristate but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		put_int(dst, e->size, val[0] == 'y' ? 1 : val[0] == 'm' ? 2 : 0);
		return 0;
	case KCFG_CHAR:
		if (!tri) {
			snprintf(err, err_size, "is declared char but the kernel's value is '%s', not y, m or n", val);
			return -EINVAL;
		}
		*(char *)dst = val[0];
		return 0;
	case KCFG_CHAR_ARR: {
		size_t n = strlen(val);

		if (n < 2 || val[0] != '"' || val[n - 1] != '"') {
			snprintf(err, err_size, "is declared a char array but the kernel's value is '%s', not a string", val);
			return -EINVAL;
		}
		n -= 2;
		if (n + 1 > e->size) {
			snprintf(err, err_size, "holds %u bytes but the kernel's value %s needs %zu", e->size, val, n + 1);
			return -EINVAL;
		}
		memset(dst, 0, e->size);
		memcpy(dst, val + 1, n);
		return 0;
	}
	case KCFG_INT: {
		unsigned long long v;
		bool neg = val[0] == '-';
		char *endp;

		if (tri || !val[neg] || isspace((unsigned char)val[neg])) {
			snprintf(err, err_size, "is declared an integer but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		errno = 0;
		v = strtoull(val + neg, &endp, 0);
		if (errno || *endp || (neg && v > (1ULL << 63))) {
			snprintf(err, err_size, "is declared an integer but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		if (neg)
			v = (unsigned long long)-(long long)v;
		if (!int_fits(e, v, neg)) {
			snprintf(err, err_size, "is %u bytes%s, too small for the kernel's value %s",
				 e->size, e->is_signed ? "" : " unsigned", val);
			return -EINVAL;
		}
		put_int(dst, e->size, v);
		return 0;
	}
	}
	snprintf(err, err_size, "has a type the loader cannot fill");
	return -EINVAL;
}
