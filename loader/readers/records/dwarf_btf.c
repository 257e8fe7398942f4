// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * dwarf_btf.c - one DWARF type, read through elfutils' libdw, written as a
 * small BTF of its own, so that the BTF printer shows records whose struct
 * clang left out of .BTF (a struct that only lives on the stack or behind a
 * ring buffer reservation).
 *
 * What a record can hold is converted: base types, structs and unions
 * (bitfields too), enums, arrays (several dimensions, flexible), typedefs.
 * Qualifiers are dropped, and every pointer becomes a pointer to void: the
 * printer shows a pointer as its address, and a pointer to void can never
 * close a loop. The converted types get IDs in the order they are finished,
 * so each one's members come before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "base/base.h"
#include "format/btf.h"
#include "readers/records/dwarf_btf.h"

/* Deeper than any record's nesting; a DWARF chain this long is a loop. */
#define MAX_DEPTH 64

struct conv {
	uint8_t *types;
	size_t len, cap;
	char *strs;
	size_t slen, scap;
	uint32_t next_id;
	struct { Dwarf_Off off; uint32_t id; } *done;
	size_t ndone, capdone;
	uint32_t index_id;	/* the int arrays are indexed by, 0 until needed */
	const char *obj;
};

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

static int add_bytes(struct conv *c, const void *p, size_t n)
{
	if (grow((void **)&c->types, &c->cap, c->len + n, 1))
		return -ENOMEM;
	memcpy(c->types + c->len, p, n);
	c->len += n;
	return 0;
}

/* The name's offset in the string section; "" is offset 0. */
static int add_str(struct conv *c, const char *s, uint32_t *off)
{
	size_t n = s ? strlen(s) : 0;

	*off = 0;
	if (!n)
		return 0;
	if (grow((void **)&c->strs, &c->scap, c->slen + n + 1, 1))
		return -ENOMEM;
	*off = (uint32_t)c->slen;
	memcpy(c->strs + c->slen, s, n + 1);
	c->slen += n + 1;
	return 0;
}

/* Append a type record and the entries after it; its ID is the next one. */
static int add_type(struct conv *c, const char *name, int kind, uint16_t vlen, bool kflag,
		    uint32_t size_or_type, const void *extra, size_t extra_len, uint32_t *id)
{
	struct btf_type t = {
		.info = (uint32_t)kflag << 31 | (uint32_t)kind << 24 | vlen,
		.size = size_or_type,
	};

	if (add_str(c, name, &t.name_off) || add_bytes(c, &t, sizeof(t)) ||
	    (extra_len && add_bytes(c, extra, extra_len)))
		return -ENOMEM;
	*id = c->next_id++;
	return 0;
}

static int remember(struct conv *c, Dwarf_Die *die, uint32_t id)
{
	if (grow((void **)&c->done, &c->capdone, c->ndone + 1, sizeof(*c->done)))
		return -ENOMEM;
	c->done[c->ndone].off = dwarf_dieoffset(die);
	c->done[c->ndone].id = id;
	c->ndone++;
	return 0;
}

static bool recall(const struct conv *c, Dwarf_Die *die, uint32_t *id)
{
	Dwarf_Off off = dwarf_dieoffset(die);

	for (size_t i = 0; i < c->ndone; i++)
		if (c->done[i].off == off) {
			*id = c->done[i].id;
			return true;
		}
	return false;
}

static int unsupported(const struct conv *c, Dwarf_Die *die, const char *what)
{
	const char *name = dwarf_diename(die);

	/* a warning: the caller goes on without the type (hex, or another rule) */
	log_warn("'%s': DWARF type %s%s%s at offset %#llx: %s: not converted to BTF", c->obj,
		 name ? "'" : "", name ? name : "", name ? "'" : "",
		 (unsigned long long)dwarf_dieoffset(die), what);
	return fail(EOPNOTSUPP);
}

static int udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *v)
{
	Dwarf_Attribute a;

	return dwarf_formudata(dwarf_attr_integrate(die, at, &a), v) ? -1 : 0;
}

static int conv_type(struct conv *c, Dwarf_Die *die, int depth, uint32_t *id);

/* The type DW_AT_type names; void (0) when there is none. */
static int conv_ref(struct conv *c, Dwarf_Die *die, int depth, uint32_t *id)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	*id = 0;
	if (!dwarf_attr_integrate(die, DW_AT_type, &a))
		return 0;
	if (!dwarf_formref_die(&a, &t))
		return unsupported(c, die, "its DW_AT_type leads nowhere");
	return conv_type(c, &t, depth + 1, id);
}

static int conv_base(struct conv *c, Dwarf_Die *die, uint32_t *id)
{
	Dwarf_Word size, enc;
	uint32_t bits;

	if (udata(die, DW_AT_byte_size, &size) || udata(die, DW_AT_encoding, &enc) || !size ||
	    size > 16)
		return unsupported(c, die, "a base type without a size or encoding BTF can take");
	switch (enc) {
	case DW_ATE_float:
		return add_type(c, dwarf_diename(die), BTF_KIND_FLOAT, 0, false, (uint32_t)size, NULL, 0, id);
	case DW_ATE_boolean:
		bits = BTF_INT_BOOL << 24;
		break;
	/* as clang writes .BTF: no BTF_INT_CHAR, a "char" is a string by its name, so that
	 * a __u8 array stays numbers */
	case DW_ATE_signed_char:
	case DW_ATE_signed:
		bits = BTF_INT_SIGNED << 24;
		break;
	case DW_ATE_unsigned_char:
	case DW_ATE_unsigned:
		bits = 0;
		break;
	default:
		return unsupported(c, die, "a base type encoding BTF has no integer for");
	}
	bits |= (uint32_t)size * 8;
	return add_type(c, dwarf_diename(die), BTF_KIND_INT, 0, false, (uint32_t)size, &bits,
			sizeof(bits), id);
}

static int conv_enum(struct conv *c, Dwarf_Die *die, uint32_t *id)
{
	struct btf_enum64 *vals = NULL;
	size_t n = 0, cap = 0;
	bool is_signed = false, wide = false;
	Dwarf_Word size;
	Dwarf_Die child;
	int err = 0;

	if (udata(die, DW_AT_byte_size, &size) || !size || size > 8)
		return unsupported(c, die, "an enum without a size of 1 to 8 bytes");
	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Sword sv;
			Dwarf_Word uv;
			uint32_t off;

			if (dwarf_tag(&child) != DW_TAG_enumerator)
				continue;
			if (!dwarf_attr(&child, DW_AT_const_value, &a)) {
				err = unsupported(c, &child, "an enumerator without a value");
				break;
			}
			if (dwarf_whatform(&a) == DW_FORM_sdata) {
				if (dwarf_formsdata(&a, &sv))
					sv = 0;
				uv = (Dwarf_Word)sv;
				if (sv < 0)
					is_signed = true;
			} else if (dwarf_formudata(&a, &uv)) {
				uv = 0;
			}
			if (grow((void **)&vals, &cap, n + 1, sizeof(*vals)) ||
			    add_str(c, dwarf_diename(&child), &off)) {
				err = -ENOMEM;
				break;
			}
			vals[n].name_off = off;
			vals[n].val_lo32 = (uint32_t)uv;
			vals[n].val_hi32 = (uint32_t)(uv >> 32);
			n++;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!err && n > 0xffff)
		err = unsupported(c, die, "an enum with more values than BTF holds");
	for (size_t i = 0; !err && i < n; i++) {
		int64_t v = (int64_t)(((uint64_t)vals[i].val_hi32 << 32) | vals[i].val_lo32);

		if (is_signed ? (v < INT32_MIN || v > INT32_MAX) : (uint64_t)v > UINT32_MAX)
			wide = true;
	}
	if (!err && wide) {
		err = add_type(c, dwarf_diename(die), BTF_KIND_ENUM64, (uint16_t)n, is_signed,
			       (uint32_t)size, vals, n * sizeof(*vals), id);
	} else if (!err) {
		/* struct btf_enum is the first two words of struct btf_enum64 */
		for (size_t i = 0; i < n; i++) {
			struct btf_enum e = { vals[i].name_off, (int32_t)vals[i].val_lo32 };

			memcpy((struct btf_enum *)vals + i, &e, sizeof(e));
		}
		err = add_type(c, dwarf_diename(die), BTF_KIND_ENUM, (uint16_t)n, is_signed,
			       (uint32_t)size, vals, n * sizeof(struct btf_enum), id);
	}
	free(vals);
	return err;
}

/* The offset of member m in bits, and its bitfield size (0 when it is none). */
static int member_place(struct conv *c, Dwarf_Die *m, Dwarf_Word *bits, Dwarf_Word *bitsize)
{
	Dwarf_Word byte = 0, v;
	Dwarf_Attribute a;

	*bitsize = 0;
	if (dwarf_attr(m, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &byte))
		return unsupported(c, m, "a member whose place is an expression, not a number");
	*bits = byte * 8;
	if (udata(m, DW_AT_bit_size, bitsize))
		return 0;
	if (udata(m, DW_AT_data_bit_offset, &v) == 0) {
		*bits = v;
		return 0;
	}
	/* DWARF 2/3 bitfields: counted from the most significant bit of the storage unit */
	if (udata(m, DW_AT_bit_offset, &v) == 0 && udata(m, DW_AT_byte_size, &byte) == 0 &&
	    v + *bitsize <= byte * 8) {
		*bits += byte * 8 - v - *bitsize;
		return 0;
	}
	return unsupported(c, m, "a bitfield without a place");
}

static int conv_struct(struct conv *c, Dwarf_Die *die, int kind, int depth, uint32_t *id)
{
	struct btf_member *ms = NULL;
	size_t n = 0, cap = 0;
	bool kflag = false;
	Dwarf_Word size;
	Dwarf_Die child;
	int err = 0;

	if (dwarf_hasattr(die, DW_AT_declaration))
		return unsupported(c, die, "declared but not defined in this object");
	if (udata(die, DW_AT_byte_size, &size) || size > UINT32_MAX)
		return unsupported(c, die, "a struct without a size");
	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Word bits = 0, bitsize = 0;
			uint32_t type, off;

			if (dwarf_tag(&child) != DW_TAG_member)
				continue;
			err = member_place(c, &child, &bits, &bitsize);
			if (!err && (bits > 0xffffff || bitsize > 0xff))
				err = unsupported(c, &child, "a member too far or too wide for BTF");
			if (!err)
				err = conv_ref(c, &child, depth, &type);
			if (!err && grow((void **)&ms, &cap, n + 1, sizeof(*ms)))
				err = -ENOMEM;
			if (!err)
				err = add_str(c, dwarf_diename(&child), &off);
			if (err)
				break;
			ms[n].name_off = off;
			ms[n].type = type;
			ms[n].offset = (uint32_t)bits | (uint32_t)bitsize << 24;
			if (bitsize)
				kflag = true;
			n++;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!err && n > 0xffff)
		err = unsupported(c, die, "more members than BTF holds");
	/* without kind_flag an offset is bits alone: no bitfield sizes to keep */
	for (size_t i = 0; !err && !kflag && i < n; i++)
		ms[i].offset &= 0xffffff;
	if (!err)
		err = add_type(c, dwarf_diename(die), kind, (uint16_t)n, kflag, (uint32_t)size, ms,
			       n * sizeof(*ms), id);
	free(ms);
	return err;
}

static int index_type(struct conv *c, uint32_t *id)
{
	uint32_t bits = 32;

	if (!c->index_id && add_type(c, "__ARRAY_SIZE_TYPE__", BTF_KIND_INT, 0, false, 4, &bits,
				     sizeof(bits), &c->index_id))
		return -ENOMEM;
	*id = c->index_id;
	return 0;
}

/* An array of each subrange, the last one innermost; one without a count
 * (a flexible array) has 0 elements. */
static int conv_array(struct conv *c, Dwarf_Die *die, int depth, uint32_t *id)
{
	Dwarf_Word dims[16];
	size_t ndims = 0;
	uint32_t elem, index;
	Dwarf_Die child;
	int err;

	err = conv_ref(c, die, depth, &elem);
	if (err)
		return err;
	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Word n = 0, ub;
			Dwarf_Attribute a;

			if (dwarf_tag(&child) != DW_TAG_subrange_type)
				continue;
			if (ndims == sizeof(dims) / sizeof(dims[0]))
				return unsupported(c, die, "an array of more than 16 dimensions");
			if (udata(&child, DW_AT_count, &n) && dwarf_attr(&child, DW_AT_upper_bound, &a) &&
			    dwarf_formudata(&a, &ub) == 0)
				n = ub + 1;
			if (n > UINT32_MAX)
				return unsupported(c, die, "an array longer than BTF counts");
			dims[ndims++] = n;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!ndims)
		dims[ndims++] = 0;
	if (index_type(c, &index))
		return -ENOMEM;
	while (ndims--) {
		struct btf_array a = { .type = elem, .index_type = index,
				       .nelems = (uint32_t)dims[ndims] };

		if (add_type(c, NULL, BTF_KIND_ARRAY, 0, false, 0, &a, sizeof(a), &elem))
			return -ENOMEM;
	}
	*id = elem;
	return 0;
}

static int conv_type(struct conv *c, Dwarf_Die *die, int depth, uint32_t *id)
{
	int err;

	if (depth > MAX_DEPTH)
		return unsupported(c, die, "types nested too deep (a loop?)");
	if (recall(c, die, id))
		return 0;
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		err = conv_base(c, die, id);
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
		err = add_type(c, NULL, BTF_KIND_PTR, 0, false, 0, NULL, 0, id);
		break;
	case DW_TAG_typedef: {
		uint32_t to;

		err = conv_ref(c, die, depth, &to);
		if (!err)
			err = add_type(c, dwarf_diename(die), BTF_KIND_TYPEDEF, 0, false, to, NULL, 0, id);
		break;
	}
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return conv_ref(c, die, depth, id);	/* a record is read, not written */
	case DW_TAG_unspecified_type:
		*id = 0;
		return 0;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		err = conv_struct(c, die, BTF_KIND_STRUCT, depth, id);
		break;
	case DW_TAG_union_type:
		err = conv_struct(c, die, BTF_KIND_UNION, depth, id);
		break;
	case DW_TAG_enumeration_type:
		err = conv_enum(c, die, id);
		break;
	case DW_TAG_array_type:
		err = conv_array(c, die, depth, id);
		break;
	default:
		return unsupported(c, die, "a kind of type a record cannot hold");
	}
	return err ? err : remember(c, die, *id);
}

struct btf *dwarf_type_to_btf(Dwarf_Die *type, const char *obj, uint32_t *id)
{
	struct conv c = { .next_id = 1, .obj = obj };
	struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(hdr),
	};
	struct btf *btf = NULL;
	uint8_t *blob = NULL;
	int err;

	err = grow((void **)&c.strs, &c.scap, 1, 1);
	if (!err) {
		c.strs[0] = '\0';
		c.slen = 1;
		err = conv_type(&c, type, 0, id);
	}
	if (!err && (!*id || c.len > UINT32_MAX / 2 || c.slen > UINT32_MAX / 2))
		err = unsupported(&c, type, "not a type a record can have");
	if (!err) {
		hdr.type_len = (uint32_t)c.len;
		hdr.str_off = (uint32_t)c.len;
		hdr.str_len = (uint32_t)c.slen;
		blob = malloc(sizeof(hdr) + c.len + c.slen);
		if (!blob)
			err = -ENOMEM;
	}
	if (!err) {
		memcpy(blob, &hdr, sizeof(hdr));
		memcpy(blob + sizeof(hdr), c.types, c.len);
		memcpy(blob + sizeof(hdr) + c.len, c.strs, c.slen);
		btf = btf_parse(blob, sizeof(hdr) + c.len + c.slen, obj);
		if (!btf)
			err = -errno;
	}
	free(blob);
	free(c.types);
	free(c.strs);
	free(c.done);
	if (err == -ENOMEM)
		log_error("'%s': out of memory converting DWARF to BTF", obj);
	return btf ? btf : fail_ptr(-err);
}
