/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * btf_build.h - write raw BTF in a test: types are appended one by one and get IDs in order
 * (1, 2, ...; after a base's last ID for split BTF), names are interned on the fly.
 *
 *   struct bb b; bb_init(&b);
 *   uint32_t i32 = bb_int(&b, "int", 4, BTF_INT_SIGNED);
 *   uint32_t s = bb_struct(&b, "foo", 8, 2);      then exactly 2 members:
 *   bb_member(&b, "a", i32, 0); bb_member(&b, "b", i32, 32);
 *   void *raw = bb_raw(&b, &size);                 header + types + strings, malloc'ed
 */
#ifndef BPFSDK_TESTS_BTF_BUILD_H
#define BPFSDK_TESTS_BTF_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

struct bb {
	uint32_t *w;		/* type section, in 32-bit words */
	size_t nw, capw;
	char *s;		/* string section */
	size_t ns, caps;
	uint32_t next_id;	/* the ID the next type gets */
	uint32_t str_base;	/* split BTF: the base's string length */
};

static void bb_word(struct bb *b, uint32_t v)
{
	if (b->nw == b->capw) {
		b->capw = b->capw ? b->capw * 2 : 64;
		b->w = realloc(b->w, b->capw * 4);
		if (!b->w)
			abort();
	}
	b->w[b->nw++] = v;
}

/* The offset of name in the string section (added at the end; "" for NULL is 0). */
__attribute__((unused))
static uint32_t bb_str(struct bb *b, const char *name)
{
	size_t len;

	if (!name || !*name)
		return 0;
	len = strlen(name) + 1;
	if (b->ns + len > b->caps) {
		b->caps = (b->ns + len) * 2;
		b->s = realloc(b->s, b->caps);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->ns, name, len);
	b->ns += len;
	return (uint32_t)(b->str_base + b->ns - len);
}

__attribute__((unused))
static void bb_init(struct bb *b)
{
	memset(b, 0, sizeof(*b));
	b->s = calloc(1, 1);
	b->ns = b->caps = 1;
	b->next_id = 1;
}

/* Split BTF on top of a base with base_types IDs (void included) and base_strs bytes. */
__attribute__((unused))
static void bb_init_split(struct bb *b, uint32_t base_types, uint32_t base_strs)
{
	memset(b, 0, sizeof(*b));
	b->next_id = base_types;
	b->str_base = base_strs;
}

static uint32_t bb_type(struct bb *b, const char *name, int kind, uint16_t vlen, int kflag,
			uint32_t size_or_type)
{
	bb_word(b, bb_str(b, name));
	bb_word(b, ((uint32_t)kflag << 31) | ((uint32_t)kind << 24) | vlen);
	bb_word(b, size_or_type);
	return b->next_id++;
}

__attribute__((unused))
static uint32_t bb_int(struct bb *b, const char *name, uint32_t size, int encoding)
{
	uint32_t id = bb_type(b, name, BTF_KIND_INT, 0, 0, size);

	bb_word(b, (uint32_t)encoding << 24 | size * 8);
	return id;
}

__attribute__((unused))
static uint32_t bb_ref(struct bb *b, int kind, const char *name, uint32_t type)
{
	return bb_type(b, name, kind, 0, 0, type);
}

/* A struct or union of size bytes, with vlen members to follow. */
__attribute__((unused))
static uint32_t bb_struct(struct bb *b, const char *name, uint32_t size, uint16_t vlen)
{
	return bb_type(b, name, BTF_KIND_STRUCT, vlen, 1, size);
}

__attribute__((unused))
static uint32_t bb_union(struct bb *b, const char *name, uint32_t size, uint16_t vlen)
{
	return bb_type(b, name, BTF_KIND_UNION, vlen, 1, size);
}

/* A member at bit_off; for a bitfield, bitsize > 0 (the struct has kind_flag set). */
__attribute__((unused))
static void bb_member_bits(struct bb *b, const char *name, uint32_t type, uint32_t bit_off,
			   uint32_t bitsize)
{
	bb_word(b, bb_str(b, name));
	bb_word(b, type);
	bb_word(b, bitsize << 24 | bit_off);
}

__attribute__((unused))
static void bb_member(struct bb *b, const char *name, uint32_t type, uint32_t bit_off)
{
	bb_member_bits(b, name, type, bit_off, 0);
}

__attribute__((unused))
static uint32_t bb_array(struct bb *b, uint32_t elem, uint32_t index, uint32_t nelems)
{
	uint32_t id = bb_type(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);

	bb_word(b, elem);
	bb_word(b, index);
	bb_word(b, nelems);
	return id;
}

/* An enum of size bytes with vlen values to follow (bb_enumval). */
__attribute__((unused))
static uint32_t bb_enum(struct bb *b, const char *name, uint32_t size, uint16_t vlen)
{
	return bb_type(b, name, BTF_KIND_ENUM, vlen, 0, size);
}

__attribute__((unused))
static void bb_enumval(struct bb *b, const char *name, int32_t val)
{
	bb_word(b, bb_str(b, name));
	bb_word(b, (uint32_t)val);
}

__attribute__((unused))
static uint32_t bb_fwd(struct bb *b, const char *name, int is_union)
{
	return bb_type(b, name, BTF_KIND_FWD, 0, is_union, 0);
}

/* Header, types and strings in one malloc'ed buffer. */
__attribute__((unused))
static void *bb_raw(const struct bb *b, size_t *size)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = (uint32_t)(b->nw * 4),
		.str_off = (uint32_t)(b->nw * 4), .str_len = (uint32_t)b->ns,
	};
	char *out = malloc(sizeof(h) + h.type_len + h.str_len + 1);

	if (!out)
		abort();
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), b->w, h.type_len);
	if (b->ns)
		memcpy(out + sizeof(h) + h.type_len, b->s, b->ns);
	*size = sizeof(h) + h.type_len + h.str_len;
	return out;
}

/* Write the raw BTF to a new temporary file; its path in path (PATH_MAX bytes). */
__attribute__((unused))
static void bb_write_tmp(const struct bb *b, char *path, size_t size)
{
	size_t n;
	void *raw = bb_raw(b, &n);
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, size, "%s/bpfsdk-btf-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f || fwrite(raw, 1, n, f) != n || fclose(f))
		abort();
	free(raw);
}

__attribute__((unused))
static void bb_free(struct bb *b)
{
	free(b->w);
	free(b->s);
}

#endif /* BPFSDK_TESTS_BTF_BUILD_H */
