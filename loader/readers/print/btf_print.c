// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_print.c - show bytes as the value of a BTF type: JSON, name=value
 * text, or the columns of a flat struct. This is how `bpfsdk run` prints
 * the records and maps of any object without code of its own.
 *
 * The bytes come from a BPF program and the types from an object file, so
 * neither is trusted: every read is checked against the record's size (a
 * member past it prints as null), and every step - a typedef followed, a
 * member or element printed, 16 bytes of a member's name - spends from a
 * budget proportional to the record's size, so that a struct that holds
 * itself, a typedef loop, an array of 2^32 empty structs or names of a
 * megabyte end the walk instead of the process. The
 * output stays well formed whatever happens: containers are closed.
 *
 * Output goes through a buffer on the stack and one fwrite per 4 KiB, so
 * that printing a record costs about what formatting it does.
 */
#include <limits.h>
#include <stddef.h>
#include <math.h>

#include "object/object.h"
#include "format/btf.h"
#include "readers/print/btf_print.h"
#include "readers/print/btf_print_out.h"

#define MAX_DEPTH 32		/* nesting of structs and arrays */
#define COL_WIDTH_MAX 16	/* a column is at least this wide if its values may be */

static void note(struct pr *p, int err)
{
	if (!p->err)
		p->err = err;
}

static bool spend(struct pr *p, uint64_t n)
{
	if (p->budget <= n) {	/* the last step is not taken: budget 0 always means noted */
		p->budget = 0;
		note(p, -BSDK_EBTF);
		return false;
	}
	p->budget -= n;
	return true;
}

/* A member's step: one, and one more for every 16 bytes of its name, which
 * is printed with each value (an array of structs prints the names once per
 * element), so that the output, like the work, stays proportional to the
 * record however long the object's names are. */
static bool spend_name(struct pr *p, const char *name)
{
	return spend(p, 1 + strlen(name) / 16);
}

/* ---- types: modifiers skipped and sizes computed, each step paid for */

static const struct btf_type *resolve(struct pr *p, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf_type_by_id(p->btf, id);

	while (t && spend(p, 1)) {
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
			id = t->type;
			t = btf_type_by_id(p->btf, id);
			continue;
		default:
			*res = id;
			return t;
		}
	}
	return NULL;
}

static bool size_of(struct pr *p, uint32_t id, uint64_t *size)
{
	uint64_t n = 1;

	for (;;) {
		const struct btf_type *t = resolve(p, id, &id);
		const struct btf_array *a;

		if (!t)
			return false;
		switch (btf_kind(t)) {
		case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_FLOAT:
		case BTF_KIND_DATASEC:
			return !__builtin_mul_overflow(n, (uint64_t)t->size, size);
		case BTF_KIND_PTR:
			return !__builtin_mul_overflow(n, (uint64_t)8, size);
		case BTF_KIND_ARRAY:
			a = (const void *)(t + 1);
			if (__builtin_mul_overflow(n, (uint64_t)a->nelems, &n))
				return false;
			id = a->type;
			continue;
		case BTF_KIND_VAR:
			id = t->type;
			continue;
		default:
			return false;
		}
	}
}

/* ---- reading */

/* nbits (1..128) little-endian bits from bit off of the record. */
static bool read_bits(struct pr *p, uint64_t off, uint32_t nbits, unsigned __int128 *v)
{
	uint64_t first = off / 8, last;
	unsigned __int128 x = 0;
	unsigned int shift = off % 8;

	if (nbits == 0 || nbits > 128 || off > UINT64_MAX - nbits)
		return false;
	last = (off + nbits - 1) / 8;
	if (last >= p->size)
		return false;
	if (shift == 0 && nbits % 8 == 0 && nbits <= 64) {
		uint64_t w = 0;

		memcpy(&w, p->data + first, nbits / 8);	/* little-endian hosts */
		*v = w;
		return true;
	}
	if (nbits > 64) {	/* at a bit offset 128 bits span 17 bytes: two reads */
		unsigned __int128 hi;

		if (!read_bits(p, off + 64, nbits - 64, &hi) || !read_bits(p, off, 64, &x))
			return false;
		*v = hi << 64 | x;
		return true;
	}
	for (uint64_t i = last + 1; i-- > first;)	/* at most 9 bytes */
		x = x << 8 | p->data[i];
	x >>= shift;
	if (nbits < 128)
		x &= ((unsigned __int128)1 << nbits) - 1;
	*v = x;
	return true;
}

static __int128 sign_extend(unsigned __int128 v, uint32_t nbits)
{
	if (nbits < 128 && (v >> (nbits - 1)) & 1)
		v |= ~(unsigned __int128)0 << nbits;
	return (__int128)v;
}

static bool ends_with_ns(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 3 && strcmp(name + n - 3, "_ns") == 0;
}

/* ---- values */

static void value(struct pr *p, uint32_t id, uint64_t off, uint32_t bitfield, const char *name,
		  int depth);

static void print_int(struct pr *p, const struct btf_type *t, uint64_t off, uint32_t bitfield,
		      const char *name)
{
	uint32_t enc = *(const uint32_t *)(t + 1);
	uint32_t bits = bitfield ? bitfield : BTF_INT_BITS(enc);
	unsigned __int128 v;
	bool is_signed = BTF_INT_ENCODING(enc) & BTF_INT_SIGNED;

	if (t->size > 16 || BTF_INT_BITS(enc) > 128 || bits == 0 || bits > 128) {
		note(p, -BSDK_EBTF);
		pr_out_null(p);
		return;
	}
	if (!read_bits(p, off + BTF_INT_OFFSET(enc), bits, &v)) {
		note(p, -ERANGE);
		pr_out_null(p);
		return;
	}
	if (BTF_INT_ENCODING(enc) & BTF_INT_BOOL) {
		pr_outs(p, v ? "true" : "false");
	} else if (is_signed && sign_extend(v, bits) < 0) {
		pr_out_u128(p, -(unsigned __int128)sign_extend(v, bits), true);
	} else if ((p->flags & BSDK_BTF_DURATIONS) && p->fmt != BSDK_BTF_JSON && bits == 64 &&
		   !is_signed && ends_with_ns(name)) {
		pr_out_duration(p, (uint64_t)v);
	} else {
		pr_out_u128(p, v, false);
	}
}

static void print_enum(struct pr *p, const struct btf_type *t, uint64_t off, uint32_t bitfield)
{
	bool is_signed = BTF_INFO_KFLAG(t->info), e64 = btf_kind(t) == BTF_KIND_ENUM64;
	uint32_t bits = bitfield ? bitfield : t->size * 8;
	unsigned __int128 raw;
	int64_t sv;
	uint64_t v;

	if (t->size == 0 || t->size > 8 || bits > 64) {
		note(p, -BSDK_EBTF);
		pr_out_null(p);
		return;
	}
	if (!read_bits(p, off, bits, &raw)) {
		note(p, -ERANGE);
		pr_out_null(p);
		return;
	}
	sv = (int64_t)sign_extend(raw, bits);
	v = is_signed ? (uint64_t)sv : (uint64_t)raw;
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		uint64_t ev;
		const char *ename;

		if (e64) {
			const struct btf_enum64 *e = (const struct btf_enum64 *)(t + 1) + i;

			ev = (uint64_t)e->val_hi32 << 32 | e->val_lo32;
			ename = btf_str(p->btf, e->name_off);
		} else {
			const struct btf_enum *e = (const struct btf_enum *)(t + 1) + i;

			/* 32-bit values: signed ones widen with their sign */
			ev = is_signed ? (uint64_t)(int64_t)e->val : (uint32_t)e->val;
			ename = btf_str(p->btf, e->name_off);
		}
		if (!is_signed && bits < 64)
			ev &= (UINT64_C(1) << bits) - 1;
		if (ev == v && ename && *ename) {
			pr_out_str(p, (const unsigned char *)ename, strlen(ename),
				p->fmt == BSDK_BTF_JSON);
			return;
		}
	}
	if (is_signed && sv < 0)
		pr_out_u128(p, (unsigned __int128)(-(__int128)sv), true);
	else
		pr_out_u64(p, v);
}

static void print_float(struct pr *p, const struct btf_type *t, uint64_t off)
{
	unsigned __int128 raw;
	double d;
	char b[40];
	int n;

	if ((t->size != 4 && t->size != 8) || !read_bits(p, off, t->size * 8, &raw)) {
		note(p, t->size == 4 || t->size == 8 ? -ERANGE : -BSDK_EBTF);
		pr_out_null(p);
		return;
	}
	if (t->size == 4) {
		uint32_t w = (uint32_t)raw;
		float fl;

		memcpy(&fl, &w, 4);
		d = fl;
	} else {
		uint64_t w = (uint64_t)raw;

		memcpy(&d, &w, 8);
	}
	if (!isfinite(d) && p->fmt == BSDK_BTF_JSON) {
		pr_outs(p, "null");	/* JSON has no NaN or infinity */
		return;
	}
	n = snprintf(b, sizeof(b), p->fmt == BSDK_BTF_JSON ? "%.17g" : "%g", d);
	pr_out(p, b, (size_t)n);
}

static void print_array(struct pr *p, const struct btf_type *t, uint64_t off, int depth)
{
	const struct btf_array *a = (const void *)(t + 1);
	const struct btf_type *e;
	uint64_t esize = 0, start = off / 8;
	uint32_t eid;
	bool argv = p->argv;

	p->argv = false;	/* the array's own elements are no command lines */
	e = resolve(p, a->type, &eid);
	if (!e || !size_of(p, eid, &esize)) {
		note(p, -BSDK_EBTF);
		pr_out_null(p);
		return;
	}
	if (btfp_is_char(p->btf, e) && off % 8 == 0) {
		uint64_t avail = start < p->size ? p->size - start : 0;
		uint64_t n = a->nelems < avail ? a->nelems : avail;
		const unsigned char *s = p->data + start, *nul;

		if (a->nelems > avail)
			note(p, -ERANGE);
		nul = n ? memchr(s, 0, n) : NULL;
		if (argv) {
			pr_out_strings(p, s, (size_t)n);
			return;
		}
		pr_out_str(p, s, nul ? (size_t)(nul - s) : n, p->fmt != BSDK_BTF_COLUMNS);
		return;
	}
	pr_outc(p, '[');
	for (uint64_t i = 0; i < a->nelems; i++) {
		uint64_t eoff;

		/* past the record (or an offset that does not fit): stop */
		if (__builtin_mul_overflow(i, esize, &eoff) || eoff > (UINT64_MAX >> 4) ||
		    (esize && start + eoff >= p->size)) {
			note(p, -ERANGE);
			break;
		}
		if (i)
			pr_outs(p, p->fmt == BSDK_BTF_JSON ? "," : ", ");
		value(p, eid, off + eoff * 8, 0, NULL, depth + 1);
		if (!p->budget)
			break;
	}
	pr_outc(p, ']');
}

/* The members of struct or union t at bit off, each preceded by a
 * separator unless it is the first (*first) of its object; anonymous
 * struct and union members are inlined, as C names their fields. */
static void print_members(struct pr *p, const struct btf_type *t, uint64_t off, int depth,
			  bool *first)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *name = btf_name(p->btf, (const void *)&m[i]);
		uint64_t moff = off + (kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset);
		uint32_t bitfield = kflag ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;

		if (!spend_name(p, name))
			break;
		if (!*name) {
			uint32_t rid;
			const struct btf_type *in = resolve(p, m[i].type, &rid);

			if (in && (btf_kind(in) == BTF_KIND_STRUCT || btf_kind(in) == BTF_KIND_UNION)) {
				if (depth + 1 > MAX_DEPTH) {
					note(p, -BSDK_EBTF);
					continue;
				}
				print_members(p, in, moff, depth + 1, first);
			}
			continue;	/* an unnamed bitfield is padding */
		}
		if (!*first)
			pr_outc(p, p->fmt == BSDK_BTF_JSON ? ',' : ' ');
		*first = false;
		pr_out_name(p, name);
		p->argv = pr_argv_member(p->btf, t, name, m[i].type);
		if (!net_member(p, m[i].type, moff, bitfield, name))
			value(p, m[i].type, moff, bitfield, name, depth + 1);
		p->argv = false;
	}
}

static void print_datasec(struct pr *p, const struct btf_type *t, uint64_t off, int depth,
			  bool *first)
{
	const struct btf_var_secinfo *v = btf_secinfos(t);

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *var = btf_type_by_id(p->btf, v[i].type);
		const char *name = var ? btf_name(p->btf, var) : "";

		if (!spend_name(p, name))
			break;
		if (!*first)
			pr_outc(p, p->fmt == BSDK_BTF_JSON ? ',' : ' ');
		*first = false;
		pr_out_name(p, name);
		value(p, v[i].type, off + (uint64_t)v[i].offset * 8, 0, name, depth + 1);
	}
}

static void value(struct pr *p, uint32_t id, uint64_t off, uint32_t bitfield, const char *name,
		  int depth)
{
	const struct btf_type *t;
	bool first = true;
	int kind;

	/* paid for first: a value too deep is a step too (an array of 2^32 of them) */
	if (!spend(p, 1) || depth > MAX_DEPTH || !(t = resolve(p, id, &id))) {
		note(p, -BSDK_EBTF);
		pr_out_null(p);
		return;
	}
	kind = btf_kind(t);
	if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION || kind == BTF_KIND_ARRAY ||
	     kind == BTF_KIND_DATASEC) && off / 8 >= p->size &&
	    !(p->argv && off / 8 == p->size)) {	/* a command line sent empty: [] */
		note(p, -ERANGE);
		pr_out_null(p);
		return;
	}
	switch (kind) {
	case BTF_KIND_INT:
		print_int(p, t, off, bitfield, name);
		break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		print_enum(p, t, off, bitfield);
		break;
	case BTF_KIND_FLOAT:
		print_float(p, t, off);
		break;
	case BTF_KIND_PTR: {
		unsigned __int128 v;

		if (!read_bits(p, off, 64, &v)) {
			note(p, -ERANGE);
			pr_out_null(p);
			break;
		}
		if (p->fmt == BSDK_BTF_JSON)
			pr_outc(p, '"');
		pr_out_hex(p, (uint64_t)v);
		if (p->fmt == BSDK_BTF_JSON)
			pr_outc(p, '"');
		break;
	}
	case BTF_KIND_ARRAY:
		print_array(p, t, off, depth);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC:
		pr_outc(p, '{');
		p->named_nest++;	/* views name the top struct's members, not these */
		if (kind == BTF_KIND_DATASEC)
			print_datasec(p, t, off, depth, &first);
		else
			print_members(p, t, off, depth, &first);
		p->named_nest--;
		pr_outc(p, '}');
		break;
	case BTF_KIND_VAR:
		value(p, t->type, off, 0, name, depth + 1);
		break;
	default:	/* void, fwd, func, func_proto, decl_tag: no value */
		note(p, -BSDK_EBTF);
		pr_out_null(p);
	}
}

/* ---- columns */

/* How wide a member's column is, and whether it is right-aligned. */
static int column_width(const struct btf *btf, const struct btf_member *m, unsigned int flags,
			bool *right)
{
	const char *name = btf_name(btf, (const void *)m);
	const struct btf_type *t = btf_skip_mods(btf, m->type, NULL);
	int w = 1, n = (int)strlen(name);

	*right = true;
	switch (t ? btf_kind(t) : 0) {
	case BTF_KIND_INT: {
		uint32_t enc = *(const uint32_t *)(t + 1);
		uint32_t bits = BTF_INT_BITS(enc);

		if (BTF_INT_ENCODING(enc) & BTF_INT_BOOL)
			w = 5;
		else if ((flags & BSDK_BTF_DURATIONS) && bits == 64 && ends_with_ns(name))
			w = 9;
		else	/* room for usual values (pids, fds, sizes); larger ones push */
			w = (bits <= 8 ? 3 : bits <= 16 ? 5 : bits <= 32 ? 7 : 12) +
			    !!(BTF_INT_ENCODING(enc) & BTF_INT_SIGNED);
		break;
	}
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		*right = false;
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			uint32_t noff = btf_kind(t) == BTF_KIND_ENUM ?
				((const struct btf_enum *)(t + 1))[i].name_off :
				((const struct btf_enum64 *)(t + 1))[i].name_off;
			const char *en = btf_str(btf, noff);
			int len = en ? (int)strlen(en) : 0;

			if (len > w)
				w = len;
		}
		break;
	case BTF_KIND_PTR:
		w = 18;
		break;
	case BTF_KIND_FLOAT:
		w = 10;
		break;
	case BTF_KIND_ARRAY: {
		uint32_t nelems = ((const struct btf_array *)(t + 1))->nelems;

		*right = false;
		w = nelems > 1 ? (int)(nelems - 1 < COL_WIDTH_MAX ? nelems - 1 : COL_WIDTH_MAX) : 1;
		break;
	}
	}
	if (w > 20)
		w = 20;
	return n > w ? n : w;
}

static void print_columns(struct pr *p, const struct btf_type *t, const char *header)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);
	uint16_t n = btf_vlen(t);

	for (uint16_t i = 0; i < n; i++) {
		const char *name = btf_name(p->btf, (const void *)&m[i]);
		bool right, last = i + 1 == n;
		int width = column_width(p->btf, &m[i], p->flags, &right);
		uint64_t moff = kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		uint32_t bits = kflag ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;
		size_t start;

		pr_outs(p, "  ");
		if (p->len + 64 > sizeof(p->buf))
			pr_flush(p);
		start = p->len;
		if (header)
			pr_out_str(p, (const unsigned char *)name, strlen(name), false);
		else if (!net_member(p, m[i].type, moff, bits, name)) {
			p->argv = pr_argv_member(p->btf, t, name, m[i].type);
			value(p, m[i].type, moff, bits, name, 1);
			p->argv = false;
		}
		if (p->len >= start && (right || !last))
			pr_pad(p, start, width, right);
	}
}

/* ---- the API */

static void pr_init(struct pr *p, const struct bsdk_btf *btf, const void *data, size_t size,
		    enum bsdk_btf_format fmt, unsigned int flags, FILE *f)
{
	memset(p, 0, offsetof(struct pr, buf));
	p->btf = (const struct btf *)btf;
	p->data = data;
	p->size = size;
	p->f = f;
	p->fmt = fmt;
	p->flags = flags;
	p->budget = 4096 + 16 * (uint64_t)size;
	p->family = -1;
}

/* The value of type id, as the API says; 0, -EINVAL (nothing written) or
 * the first problem noted. */
static int print_top(struct pr *p, uint32_t id)
{
	const struct btf_type *t;
	uint32_t rid;
	bool first = false;

	t = resolve(p, id, &rid);
	net_init(p, id);
	if (p->fmt == BSDK_BTF_COLUMNS) {
		if (!t || !btfp_is_flat(p->btf, t))
			return -EINVAL;
		print_columns(p, t, NULL);
	} else if ((p->flags & BSDK_BTF_MEMBERS) && t &&
		   (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION)) {
		print_members(p, t, 0, 0, &first);
	} else if ((p->flags & BSDK_BTF_MEMBERS) && t && btf_kind(t) == BTF_KIND_DATASEC) {
		print_datasec(p, t, 0, 0, &first);
	} else {
		if (p->flags & BSDK_BTF_MEMBERS) {
			pr_outc(p, p->fmt == BSDK_BTF_JSON ? ',' : ' ');
			pr_out_name(p, "value");
		}
		p->named_nest = -1;	/* the top struct's own braces count one */
		value(p, id, 0, 0, NULL, 0);
	}
	pr_flush(p);
	return p->err;
}

int bsdk_btf_print_views(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
			 enum bsdk_btf_format format, unsigned int flags,
			 const struct bsdk_btf_field_view *views, size_t n, FILE *f)
{
	struct pr p;
	int err;

	if (!btf || !f || (!data && size) || format > BSDK_BTF_COLUMNS || (!views && n))
		return fail(EINVAL);
	pr_init(&p, btf, data, size, format, flags, f);
	p.views = views;
	p.nviews = n;
	err = print_top(&p, id);
	return err ? fail(-err) : 0;
}

int bsdk_btf_print(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		   enum bsdk_btf_format format, unsigned int flags, FILE *f)
{
	return bsdk_btf_print_views(btf, id, data, size, format, flags, NULL, 0, f);
}

long bsdk_btf_snprint(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		      enum bsdk_btf_format format, unsigned int flags, char *buf, size_t buf_size,
		      int *err)
{
	return bsdk_btf_snprint_views(btf, id, data, size, format, flags, NULL, 0, buf, buf_size,
				      err);
}

long bsdk_btf_snprint_views(const struct bsdk_btf *btf, uint32_t id, const void *data,
			    size_t size, enum bsdk_btf_format format, unsigned int flags,
			    const struct bsdk_btf_field_view *views, size_t n, char *buf,
			    size_t buf_size, int *err)
{
	struct pr p;
	int e;

	if (!btf || (!data && size) || (!buf && buf_size) || format > BSDK_BTF_COLUMNS ||
	    (!views && n))
		return fail(EINVAL);
	pr_init(&p, btf, data, size, format, flags, NULL);
	p.views = views;
	p.nviews = n;
	p.mem = buf;
	p.mem_size = buf_size;
	e = print_top(&p, id);
	if (e == -EINVAL)
		return fail(EINVAL);
	if (err)
		*err = e;
	if (buf_size)	/* NUL-terminated, what fits */
		buf[p.total < buf_size ? p.total : buf_size - 1] = '\0';
	return p.total > LONG_MAX ? LONG_MAX : (long)p.total;
}

long bsdk_btf_snprint_member(const struct bsdk_btf *btf, uint32_t id, uint32_t i,
			     const void *data, size_t size, char *buf, size_t buf_size)
{
	const struct btf_type *t;
	const struct btf_member *m;
	uint64_t moff;
	uint32_t bits;
	struct pr p;

	if (!btf || (!data && size) || (!buf && buf_size))
		return fail(EINVAL);
	pr_init(&p, btf, data, size, BSDK_BTF_TEXT, BSDK_BTF_NET, NULL);
	t = btf_skip_mods(p.btf, id, NULL);
	if (!t || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) ||
	    i >= btf_vlen(t))
		return fail(EINVAL);
	p.mem = buf;
	p.mem_size = buf_size;
	net_init(&p, id);
	m = &btf_members(t)[i];
	moff = BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
	bits = BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;
	if (!net_member(&p, m->type, moff, bits, btf_name(p.btf, (const void *)m)))
		value(&p, m->type, moff, bits, btf_name(p.btf, (const void *)m), 1);
	pr_flush(&p);
	if (buf_size)
		buf[p.total < buf_size ? p.total : buf_size - 1] = '\0';
	return p.total > LONG_MAX ? LONG_MAX : (long)p.total;
}

int bsdk_btf_print_header(const struct bsdk_btf *btf, uint32_t id, unsigned int flags, FILE *f)
{
	const struct btf_type *t;
	struct pr p;
	uint32_t rid;

	if (!btf || !f)
		return fail(EINVAL);
	pr_init(&p, btf, NULL, 0, BSDK_BTF_COLUMNS, flags, f);
	t = resolve(&p, id, &rid);
	if (!t || !btfp_is_flat(p.btf, t))
		return fail(EINVAL);
	print_columns(&p, t, "");
	pr_flush(&p);
	return 0;
}
