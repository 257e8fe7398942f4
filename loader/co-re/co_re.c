// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * co_re.c - CO-RE: make one object read the right fields on every kernel.
 *
 * A program compiled against one kernel's vmlinux.h has that kernel's field offsets in its
 * loads. clang marks each access to a type declared with preserve_access_index (all of
 * vmlinux.h, and the `struct task_struct___mine` a program writes itself) with a core_relo
 * record in .BTF.ext: the instruction, the local root type, an access string ("0:2:1": array
 * index 0 of the root, its member 2, that member's member 1) and what the instruction holds
 * about it (the byte offset, the size, whether it exists, ...). This file is the engine; it
 * knows BTF and instructions, never an object (ext/co-re/co_re_obj.c is the object's side):
 *
 *  1. co_re_relo_read() checks a record against the object's own BTF and the instruction it
 *     relocates, and works out the value the local BTF gives;
 *  2. co_re_calc() (co_re_match.c) resolves it against the candidates it is given, the kernel
 *     types with the local root's essential name ("task_struct" for task_struct___mine) and
 *     kind: the access string is followed in each by member *names*, through anonymous structs
 *     and unions and into arrays; every candidate that has the whole path must give the same
 *     value, else the relocation is in error;
 *  3. co_re_patch() patches the instruction when a program is linked: an ALU immediate, a load
 *     or store offset (and its size, when the kernel's field is another size and the value
 *     read stays right: pointers and unsigned integers), or an ld_imm64.
 *
 * A relocation nothing satisfies is never left with the compiler's value, which would read
 * the wrong bytes silently. Existence questions get 0; any other becomes libbpf's poison, a
 * call to the non-existent helper 0xbad2310: the verifier accepts the program when that path
 * cannot run (a field guarded by bpf_core_field_exists()), and otherwise refuses it there,
 * and the object's side says which relocation, type, access string and C line it was.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "base/base.h"
#include "format/btf.h"
#include "co-re/co_re.h"
#include "co-re/co_re_impl.h"

static const char *const kind_names[] = {
	"field_byte_offset", "field_byte_size", "field_exists", "field_signed",
	"field_lshift_u64", "field_rshift_u64", "type_id_local", "type_id_target",
	"type_exists", "type_size", "enumval_exists", "enumval_value", "type_matches",
};

/* ---- the local side: an access string followed in the object's BTF */

/* Parse "N:N:...": false when it is not one or is longer than CORE_SPEC_MAX. */
static bool access_parse(const char *s, struct co_re_spec *spec)
{
	spec->nraw = 0;
	do {
		unsigned long long v = 0;

		if (*s < '0' || *s > '9' || spec->nraw == CORE_SPEC_MAX)
			return false;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned)(*s++ - '0');
			if (v > UINT32_MAX)
				return false;
		}
		spec->raw[spec->nraw++] = (uint32_t)v;
	} while (*s++ == ':');
	return s[-1] == '\0';
}

/* Follow the local access string of r; NULL on success, else what is wrong. */
const char *co_re_local_spec(const struct btf *btf, const struct co_re_relo *r,
			    struct co_re_spec *spec)
{
	struct co_re_acc prev = { 0 };	/* the member last stepped into: flexible arrays */
	const struct btf_type *t;
	uint32_t id;
	uint64_t sz;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = r->type_id;
	if (!access_parse(r->access, spec))
		return "access string is not a list of numbers";
	t = resolve(btf, r->type_id, &id);
	if (!t)
		return "root type is a broken chain of modifiers";
	if (kind_is_enumval(r->kind)) {
		if (!is_enum(t) || spec->nraw != 1 || spec->raw[0] >= btf_vlen(t))
			return "access string is not an enumerator of the enum";
		spec->acc[0] = (struct co_re_acc){ id, spec->raw[0], NULL };
		spec->nacc = 1;
		return NULL;
	}
	if (!kind_is_field(r->kind)) {
		if (spec->nraw != 1 || spec->raw[0] != 0)
			return "access string of a type relocation must be \"0\"";
		spec->nacc = 1;
		spec->acc[0] = (struct co_re_acc){ id, 0, NULL };
		return NULL;
	}
	/* The first index steps over whole root objects (p[1].x). */
	if (btf_type_size(btf, id, &sz) || !add_elems(&spec->bit_offset, spec->raw[0], sz))
		return "root type has no size";
	spec->acc[spec->nacc++] = (struct co_re_acc){ id, spec->raw[0], NULL };
	for (size_t i = 1; i < spec->nraw; i++) {
		uint32_t idx = spec->raw[i];

		t = resolve(btf, id, &id);
		if (t && is_composite(t)) {
			const struct btf_member *m;
			const char *name;

			if (idx >= btf_vlen(t))
				return "access string names a member past the last";
			m = &btf_members(t)[idx];
			name = btf_str(btf, m->name_off);
			name = name ? name : "";
			spec->bit_offset += member_bit_off(t, (uint16_t)idx);
			/* anonymous members are a path, not something to match by name */
			if (*name)
				spec->acc[spec->nacc++] = (struct co_re_acc){ id, idx, name };
			prev = (struct co_re_acc){ id, idx, name };
			id = m->type;
		} else if (t && btf_kind(t) == BTF_KIND_ARRAY) {
			const struct btf_array *a = (const void *)(t + 1);

			if (idx >= a->nelems && !is_flex(btf, &prev, a))
				return "access string indexes past the end of an array";
			if (!resolve(btf, a->type, &id) || btf_type_size(btf, id, &sz) ||
			    !add_elems(&spec->bit_offset, idx, sz))
				return "array element has no size";
			prev = (struct co_re_acc){ 0 };
			spec->acc[spec->nacc++] = (struct co_re_acc){ id, idx, NULL };
		} else {
			return "access string goes into a type that is neither struct, union nor array";
		}
	}
	return NULL;
}

/* "task_struct___mine.real_parent.tgid", "foo[1].arr[2]", "struct foo", "enum e::A". */
static char *spec_desc(const struct btf *btf, const struct co_re_relo *r, const struct co_re_spec *s)
{
	const struct btf_type *root = btf_type_by_id(btf, r->type_id);
	const char *name = root ? btf_name(btf, root) : "";
	char buf[1024];
	size_t len;

	if (kind_is_enumval(r->kind)) {
		const struct btf_type *t = btf_type_by_id(btf, s->acc[0].type_id);
		uint32_t off = btf_kind(t) == BTF_KIND_ENUM ?
			((const struct btf_enum *)(t + 1))[s->acc[0].idx].name_off :
			((const struct btf_enum64 *)(t + 1))[s->acc[0].idx].name_off;
		const char *e = btf_str(btf, off);

		snprintf(buf, sizeof(buf), "enum %s::%s", *name ? name : "(anon)", e ? e : "?");
		return strdup(buf);
	}
	if (!kind_is_field(r->kind)) {
		static const char *const kinds[] = {
			[BTF_KIND_STRUCT] = "struct ", [BTF_KIND_UNION] = "union ",
			[BTF_KIND_ENUM] = "enum ", [BTF_KIND_ENUM64] = "enum ",
			[BTF_KIND_TYPEDEF] = "typedef ", [BTF_KIND_FWD] = "struct ",
		};
		int k = root ? btf_kind(root) : 0;
		const char *kw = (size_t)k < ARRAY_SIZE(kinds) && kinds[k] ? kinds[k] : "";

		snprintf(buf, sizeof(buf), "%s%s", kw, *name ? name : "(anon)");
		return strdup(buf);
	}
	len = (size_t)snprintf(buf, sizeof(buf), "%s", *name ? name : "(anon)");
	if (s->raw[0])
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "[%u]", s->raw[0]);
	for (size_t i = 1; i < s->nacc && len < sizeof(buf); i++) {
		if (s->acc[i].name)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ".%s", s->acc[i].name);
		else
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "[%u]", s->acc[i].idx);
	}
	return strdup(buf);
}

/* ---- what a relocation's value is, given where its access string led */


/* A pointer or an unsigned integer: a field that may be loaded with another size. */
static bool is_ptr_or_uint(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_PTR ||
	       (btf_kind(t) == BTF_KIND_INT && !(*(const uint32_t *)(t + 1) >> 24 & BTF_INT_SIGNED));
}

/* A field relocation on the root itself or an array element (acc, at bit_off). */
static const char *calc_element(const struct btf *btf, const struct co_re_acc *acc, uint64_t bit_off,
				enum bsdk_core_kind kind, struct calc *c)
{
	const struct btf_type *mt;
	uint64_t sz;

	if (btf_type_size(btf, acc->type_id, &sz))
		return "field has no size";
	if (kind == BSDK_CORE_FIELD_BYTE_OFFSET) {
		c->val = bit_off / 8;
		c->sz = sz <= 8 ? (uint32_t)sz : 0;
		mt = resolve(btf, acc->type_id, NULL);
		c->ptr_or_uint = mt && is_ptr_or_uint(mt);
		return NULL;
	}
	if (kind == BSDK_CORE_FIELD_BYTE_SIZE) {
		c->val = sz;
		return NULL;
	}
	return "relocation of this kind cannot be applied to an array element";
}

/* The value of a field relocation (not FIELD_EXISTS) over spec. NULL, or why not. */
static const char *calc_field(const struct co_re_spec *s, enum bsdk_core_kind kind,
			      struct calc *c)
{
	const struct co_re_acc *acc = &s->acc[s->nacc - 1];
	const struct btf *btf = s->btf;
	uint64_t bit_off = s->bit_offset, byte_off, byte_sz;
	const struct btf_type *t, *mt;
	uint32_t bit_sz, ft_id;
	bool bitfield;

	c->validate = true;
	if (!acc->name)	/* the root itself, or an array element */
		return calc_element(btf, acc, bit_off, kind, c);
	t = btf_type_by_id(btf, acc->type_id);
	mt = resolve(btf, btf_members(t)[acc->idx].type, &ft_id);
	if (!mt)
		return "field type is a broken chain of modifiers";
	bit_sz = member_bitfield(t, (uint16_t)acc->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		if (mt->size == 0 || mt->size > 8)
			return "bitfield of a type that is not an integer";
		byte_sz = mt->size;
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		/* the smallest aligned load that holds the whole bitfield */
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return "bitfield does not fit in a 64-bit load";
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
		c->validate = false;	/* clang may pick another load; both are right */
	} else {
		if (btf_type_size(btf, ft_id, &byte_sz))
			return "field has no size";
		byte_off = bit_off / 8;
		bit_sz = (uint32_t)(byte_sz * 8 > 64 ? 64 : byte_sz * 8);
	}
	switch (kind) {
	case BSDK_CORE_FIELD_BYTE_OFFSET:
		c->val = byte_off;
		if (!bitfield) {
			c->sz = byte_sz <= 8 ? (uint32_t)byte_sz : 0;
			c->ptr_or_uint = is_ptr_or_uint(mt);
		}
		break;
	case BSDK_CORE_FIELD_BYTE_SIZE:
		c->val = byte_sz;
		break;
	case BSDK_CORE_FIELD_SIGNED:
		c->val = (is_enum(mt) && BTF_INFO_KFLAG(mt->info)) ||
			 (btf_kind(mt) == BTF_KIND_INT &&
			  (*(const uint32_t *)(mt + 1) >> 24 & BTF_INT_SIGNED));
		c->validate = true;
		break;
	case BSDK_CORE_FIELD_LSHIFT_U64:	/* little-endian: the low bits come first */
		c->val = 64 - (bit_off + bit_sz - byte_off * 8);
		break;
	case BSDK_CORE_FIELD_RSHIFT_U64:
		c->val = 64 - bit_sz;
		c->validate = true;
		break;
	default:
		return "not a field relocation";
	}
	return NULL;
}

static uint64_t enum_value(const struct btf_type *t, uint32_t i)
{
	if (btf_kind(t) == BTF_KIND_ENUM)	/* s32, sign-extended as libbpf does */
		return (uint64_t)(int64_t)((const struct btf_enum *)(t + 1))[i].val;
	const struct btf_enum64 *e = (const struct btf_enum64 *)(t + 1) + i;

	return (uint64_t)e->val_hi32 << 32 | e->val_lo32;
}

const char *co_re_enum_name(const struct btf *btf, const struct btf_type *t, uint32_t i)
{
	const char *n = btf_str(btf, btf_kind(t) == BTF_KIND_ENUM ?
				((const struct btf_enum *)(t + 1))[i].name_off :
				((const struct btf_enum64 *)(t + 1))[i].name_off);

	return n ? n : "";
}

/* The value r asks for, over spec (local or target). */
const char *co_re_value(const struct co_re_relo *r, const struct co_re_spec *s, struct calc *c)
{
	const struct btf_type *t;
	uint64_t sz;

	memset(c, 0, sizeof(*c));
	c->validate = true;
	switch (r->kind) {
	case BSDK_CORE_FIELD_EXISTS:
	case BSDK_CORE_TYPE_EXISTS:
	case BSDK_CORE_TYPE_MATCHES:
	case BSDK_CORE_ENUMVAL_EXISTS:
		c->val = 1;
		return NULL;
	case BSDK_CORE_TYPE_ID_LOCAL:
	case BSDK_CORE_TYPE_ID_TARGET:
		c->val = s->root_id;
		return NULL;
	case BSDK_CORE_TYPE_SIZE:
		if (btf_type_size(s->btf, s->root_id, &sz))
			return "type has no size";
		c->val = sz;
		return NULL;
	case BSDK_CORE_ENUMVAL_VALUE:
		t = btf_type_by_id(s->btf, s->acc[0].type_id);
		c->val = enum_value(t, s->acc[0].idx);
		return NULL;
	default:
		return calc_field(s, r->kind, c);
	}
}

/* ---- the instruction */

static bool is_ld_imm64(const struct bpf_insn *insn) { return insn->code == (BPF_LD | BPF_IMM | BPF_DW); }

static bool is_mem(const struct bpf_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code);

	return cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX;
}

static bool is_alu_imm(const struct bpf_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code);

	return (cls == BPF_ALU || cls == BPF_ALU64) && BPF_SRC(insn->code) == BPF_K;
}

static const uint8_t mem_bytes[] = { [BPF_W >> 3] = 4, [BPF_H >> 3] = 2, [BPF_B >> 3] = 1,
				     [BPF_DW >> 3] = 8 };

static uint8_t mem_size_code(uint32_t bytes)
{
	return bytes == 1 ? BPF_B : bytes == 2 ? BPF_H : bytes == 4 ? BPF_W : BPF_DW;
}

int co_re_patch(const struct co_re_relo *r, struct bpf_insn *insn, size_t room, const char *prog)
{
	if (r->state == BSDK_CORE_POISONED) {
		if (is_ld_imm64(insn) && room >= 2)	/* else the verifier says "unknown opcode 00" */
			insn[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = CORE_POISON_IMM };
		insn[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = CORE_POISON_IMM };
		log_debug("program '%s': CO-RE relocation %u (%s %s) poisoned: %s", prog, r->index,
			  kind_names[r->kind], r->desc, r->note);
		return 0;
	}
	if (r->state != BSDK_CORE_RESOLVED)
		return 0;	/* load refuses these before it gets here */
	if (is_ld_imm64(insn)) {
		insn[0].imm = (int32_t)(uint32_t)r->value;
		insn[1].imm = (int32_t)(uint32_t)(r->value >> 32);
	} else if (is_mem(insn)) {
		insn->off = (int16_t)r->value;
		if (r->new_sz && r->new_sz != r->orig_sz)
			insn->code = (uint8_t)(BPF_MODE(insn->code) | mem_size_code(r->new_sz) |
					       BPF_CLASS(insn->code));
	} else {
		insn->imm = (int32_t)(uint32_t)r->value;
	}
	if (is_mem(insn) && r->new_sz && r->new_sz != r->orig_sz)
		log_debug("program '%s': CO-RE relocation %u (%s %s): %llu -> %llu, access %u -> %u bytes",
			  prog, r->index, kind_names[r->kind], r->desc, (unsigned long long)r->orig,
			  (unsigned long long)r->value, r->orig_sz, r->new_sz);
	else
		log_debug("program '%s': CO-RE relocation %u (%s %s): %llu -> %llu", prog, r->index,
			  kind_names[r->kind], r->desc, (unsigned long long)r->orig,
			  (unsigned long long)r->value);
	return 0;
}

/* Whether the resolved value fits the instruction r is on; if not, r becomes an error (or,
 * for a load that cannot change size and still read the value right, poisoned). */
void co_re_check_fits(struct co_re_relo *r, const struct bpf_insn *insn)
{
	int64_t v = (int64_t)r->value;
	uint32_t bytes = is_mem(insn) ? mem_bytes[BPF_SIZE(insn->code) >> 3] : 0;

	if (r->state != BSDK_CORE_RESOLVED)
		return;
	if (is_mem(insn) && r->value > SHRT_MAX) {
		snprintf(r->note, sizeof(r->note), "offset %llu does not fit a load or store",
			 (unsigned long long)r->value);
	} else if (is_alu_imm(insn) && r->value > UINT32_MAX && !(v < 0 && v >= INT32_MIN)) {
		snprintf(r->note, sizeof(r->note), "value %llu does not fit a 32-bit immediate",
			 (unsigned long long)r->value);
	} else if (is_mem(insn) && r->new_sz && r->orig_sz && r->new_sz != r->orig_sz) {
		/* the kernel's field has another size: the access must be of the whole local field
		 * (as clang emits it) to be resized, and resizing must keep the value */
		if (bytes != r->orig_sz) {
			snprintf(r->note, sizeof(r->note),
				 "the instruction accesses %u bytes of a %u-byte field, which is %u bytes in the kernel",
				 bytes, r->orig_sz, r->new_sz);
		} else if (r->memsz_fixed || BPF_MODE(insn->code) != BPF_MEM) {
			r->state = BSDK_CORE_POISONED;
			snprintf(r->note, sizeof(r->note),
				 "the kernel's field is %u bytes, the program reads %u, and it is not a pointer or unsigned integer",
				 r->new_sz, r->orig_sz);
			return;
		} else {
			return;
		}
	} else {
		return;
	}
	r->state = BSDK_CORE_ERROR;
}

/* ---- reading a record */

/* A record that does not hold: the reason into why, -BSDK_EBTF. */
#define bad_record(fmt, ...) (snprintf(why, why_size, fmt, ##__VA_ARGS__), -BSDK_EBTF)

int co_re_relo_read(const struct btf *btf, const struct bpf_core_relo *rec,
		   const struct bpf_insn *insns, size_t ninsns, struct co_re_relo *out,
		   char *why, size_t why_size)
{
	struct bpf_core_relo cr = *rec;
	struct co_re_relo r = { 0 };
	const struct bpf_insn *insn;
	const char *err;
	struct co_re_spec spec;
	struct calc c;
	uint64_t have;

	if (cr.insn_off % sizeof(struct bpf_insn) || cr.insn_off / 8 >= ninsns)
		return bad_record("instruction offset %u is not an instruction of the section", cr.insn_off);
	if (cr.kind > BPF_CORE_TYPE_MATCHES)
		return bad_record("unknown kind %u", cr.kind);
	if (cr.type_id == 0 || !btf_type_by_id(btf, cr.type_id))
		return bad_record("type %u is not in the object's BTF", cr.type_id);
	r.access = btf_str(btf, cr.access_str_off);
	if (!r.access)
		return bad_record("access string offset %u is past the string section", cr.access_str_off);
	r.insn = cr.insn_off / 8;
	r.kind = (enum bsdk_core_kind)cr.kind;
	r.type_id = cr.type_id;
	err = co_re_local_spec(btf, &r, &spec);
	if (!err)
		err = co_re_value(&r, &spec, &c);
	if (err)
		return bad_record("%s access '%s' of type %u: %s", kind_names[r.kind], r.access,
				  r.type_id, err);
	r.orig = c.val;
	r.orig_sz = c.sz;
	r.orig_ptr_or_uint = c.ptr_or_uint;

	/* The instruction must be one that carries such a value, and carry the local one. */
	insn = insns + r.insn;
	if (is_ld_imm64(insn)) {
		if (r.insn + 1 >= ninsns)
			return bad_record("is on an ld_imm64 cut off by the end of the section");
		have = (uint64_t)(uint32_t)insn[1].imm << 32 | (uint32_t)insn[0].imm;
	} else if (is_mem(insn)) {
		if (r.kind != BSDK_CORE_FIELD_BYTE_OFFSET)
			return bad_record("%s is on a load or store (instruction %zu), which only a field offset can be",
					  kind_names[r.kind], r.insn);
		have = (uint64_t)(int64_t)insn->off;
	} else if (is_alu_imm(insn)) {
		have = (uint64_t)(int64_t)insn->imm;
		if (BPF_CLASS(insn->code) == BPF_ALU || c.val <= UINT32_MAX)
			have &= UINT32_MAX;
	} else {
		return bad_record("is on instruction %zu (code %#x), which cannot carry a relocated value",
				  r.insn, insn->code);
	}
	if (c.validate && r.kind != BSDK_CORE_ENUMVAL_VALUE && have != c.val &&
	    !(is_alu_imm(insn) && (have & UINT32_MAX) == (c.val & UINT32_MAX)))
		return bad_record("instruction %zu holds %llu where the object's BTF gives %s '%s' %llu",
				  r.insn, (unsigned long long)have, kind_names[r.kind], r.access,
				  (unsigned long long)c.val);
	r.desc = spec_desc(btf, &r, &spec);
	if (!r.desc)
		return fail(ENOMEM);
	r.state = BSDK_CORE_UNRESOLVED;
	*out = r;
	return 0;
}

const char *co_re_kind_name(enum bsdk_core_kind kind)
{
	return kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}
