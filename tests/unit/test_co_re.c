// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_co_re.c - the CO-RE resolver over BTF built here: a "kernel" BTF written to a file (as
 * --btf would name it) and a local BTF with flavoured types of other layouts. Every
 * relocation kind, flavours, arrays, anonymous members, bitfields, candidates that agree and
 * that disagree, accesses nothing satisfies; then the instruction patches.
 */
#include <limits.h>
#include <unistd.h>

#include "test_obj_craft.h"
#include "btf_build.h"
#include "object/object.h"
#include "ext/co-re/co_re_obj.h"
#include "channel/channel.h"
#include "format/btf.h"
#include "co-re/co_re.h"
#include "co-re/kbtf.h"

static char kpath[PATH_MAX];
static struct btf *local;

/* Kernel-side IDs the checks compare against. */
static uint32_t k_foo, k_inner, k_enum;
/* Local IDs. */
static uint32_t l_foo, l_inner, l_inner_bad, l_enum, l_bar, l_baz, l_nosuch, l_tdef;
/* Local typedefs of a tracepoint's prototype: the kernel's shape, one argument fewer, and
 * one that returns int where the kernel's returns void. */
static uint32_t l_tp_new, l_tp_old, l_tp_int;

/* typedef RET (*name)(void *, _Bool, struct foo *[, unsigned int]), as the kernel declares
 * btf_trace_<tracepoint>; foo is the struct the pointer param points to. */
static uint32_t tp_typedef(struct bb *b, const char *name, uint32_t ret, uint32_t foo,
			   int with_state)
{
	uint32_t vptr = bb_ref(b, BTF_KIND_PTR, NULL, 0);
	uint32_t boolean = bb_int(b, "_Bool", 1, BTF_INT_BOOL);
	uint32_t uint = bb_int(b, "unsigned int", 4, 0);
	uint32_t fptr = bb_ref(b, BTF_KIND_PTR, NULL, foo);
	uint32_t proto = bb_type(b, NULL, BTF_KIND_FUNC_PROTO, with_state ? 4 : 3, 0, ret);
	uint32_t params[] = { vptr, boolean, fptr, uint };

	for (int i = 0; i < (with_state ? 4 : 3); i++) {
		bb_word(b, 0);
		bb_word(b, params[i]);
	}
	return bb_ref(b, BTF_KIND_TYPEDEF, name, bb_ref(b, BTF_KIND_PTR, NULL, proto));
}

static void build_kernel(void)
{
	struct bb b;
	uint32_t i32, u32, i64, anon, arr, ptr;

	bb_init(&b);
	i32 = bb_int(&b, "int", 4, BTF_INT_SIGNED);
	u32 = bb_int(&b, "unsigned int", 4, 0);
	i64 = bb_int(&b, "long", 8, BTF_INT_SIGNED);
	k_inner = bb_struct(&b, "inner", 8, 2);
	bb_member(&b, "x", i32, 0);
	bb_member(&b, "y", i32, 32);
	anon = bb_union(&b, NULL, 8, 2);
	bb_member(&b, "u1", i32, 0);
	bb_member(&b, "u2", i64, 0);
	arr = bb_array(&b, i32, i32, 4);
	ptr = bb_ref(&b, BTF_KIND_PTR, NULL, b.next_id + 1);	/* to foo, next */
	/* struct foo { int a; union { int u1; long u2; }; struct inner in; int arr[4];
	 *              unsigned bf1:3, bf2:5; struct foo *next; unsigned small; } */
	k_foo = bb_struct(&b, "foo", 64, 8);
	bb_member(&b, "a", i32, 0);
	bb_member(&b, NULL, anon, 64);
	bb_member(&b, "in", k_inner, 128);
	bb_member(&b, "arr", arr, 192);
	bb_member_bits(&b, "bf1", u32, 320, 3);
	bb_member_bits(&b, "bf2", u32, 323, 5);
	bb_member(&b, "next", ptr, 384);
	bb_member(&b, "small", u32, 448);
	k_enum = bb_enum(&b, "e", 4, 2);
	bb_enumval(&b, "E_A", 1);
	bb_enumval(&b, "E_B", 5);
	/* two candidates for "bar" that disagree on f's offset; two for "baz" that agree */
	bb_struct(&b, "bar", 4, 1);
	bb_member(&b, "f", i32, 0);
	bb_struct(&b, "bar___other", 8, 2);
	bb_member(&b, "pad", i32, 0);
	bb_member(&b, "f", i32, 32);
	bb_struct(&b, "baz", 4, 1);
	bb_member(&b, "f", i32, 0);
	bb_struct(&b, "baz___same", 4, 1);
	bb_member(&b, "f", u32, 0);
	bb_ref(&b, BTF_KIND_TYPEDEF, "u32_t", u32);
	tp_typedef(&b, "tp_sw", 0, k_foo, 1);
	bb_write_tmp(&b, kpath, sizeof(kpath));
	bb_free(&b);
}

static void build_local(void)
{
	struct bb b;
	uint32_t i32, u32, i64, anon, arr, ptr;
	size_t size;
	void *raw;

	bb_init(&b);
	i32 = bb_int(&b, "int", 4, BTF_INT_SIGNED);
	u32 = bb_int(&b, "unsigned int", 4, 0);
	i64 = bb_int(&b, "long", 8, BTF_INT_SIGNED);
	l_inner = bb_struct(&b, "inner___l", 8, 2);
	bb_member(&b, "y", i32, 0);
	bb_member(&b, "x", i32, 32);
	anon = bb_struct(&b, NULL, 4, 1);
	bb_member(&b, "u1", i32, 0);
	arr = bb_array(&b, i32, i32, 2);
	/* struct foo___mine { long pad; int a; struct { int u1; }; struct inner___l in;
	 *                     int arr[2]; unsigned bf2:5; long small; int gone; } */
	l_foo = bb_struct(&b, "foo___mine", 48, 8);
	bb_member(&b, "pad", i64, 0);
	bb_member(&b, "a", i32, 64);
	bb_member(&b, NULL, anon, 96);
	bb_member(&b, "in", l_inner, 128);
	bb_member(&b, "arr", arr, 192);
	bb_member_bits(&b, "bf2", u32, 256, 5);
	bb_member(&b, "small", i64, 320);
	bb_member(&b, "gone", i32, 384);
	ptr = bb_ref(&b, BTF_KIND_PTR, NULL, l_foo);
	(void)ptr;
	l_inner_bad = bb_struct(&b, "inner___bad", 8, 1);
	bb_member(&b, "x", i64, 0);
	l_enum = bb_enum(&b, "e___mine", 4, 2);
	bb_enumval(&b, "E_B", 50);
	bb_enumval(&b, "E_C", 3);
	l_bar = bb_struct(&b, "bar___mine", 4, 1);
	bb_member(&b, "f", i32, 0);
	l_baz = bb_struct(&b, "baz___mine", 4, 1);
	bb_member(&b, "f", i32, 0);
	l_nosuch = bb_struct(&b, "nosuch___mine", 4, 1);
	bb_member(&b, "f", i32, 0);
	l_tdef = bb_ref(&b, BTF_KIND_TYPEDEF, "u32_t", u32);
	l_tp_new = tp_typedef(&b, "tp_sw___new", 0, l_foo, 1);
	l_tp_old = tp_typedef(&b, "tp_sw___old", 0, l_foo, 0);
	l_tp_int = tp_typedef(&b, "tp_sw___int", i32, l_foo, 1);
	raw = bb_raw(&b, &size);
	local = btf_parse(raw, size, "local");
	free(raw);
	bb_free(&b);
	if (!local)
		abort();
}

/* Resolve kind/type/access against the kernel file; the relocation comes back. */
static struct co_re_relo resolve_one(enum bsdk_core_kind kind, uint32_t type, const char *access)
{
	struct co_re_relo r = { .kind = kind, .type_id = type, .access = access, .desc = "test" };

	if (co_re_resolve(local, &r, kpath))
		r.state = (enum bsdk_core_state)-1;
	return r;
}

static void expect(enum bsdk_core_kind kind, uint32_t type, const char *access,
		   enum bsdk_core_state state, uint64_t value, const char *what)
{
	struct co_re_relo r = resolve_one(kind, type, access);

	check_i64(r.state, state, "%s: state", what);
	if (state == BSDK_CORE_RESOLVED)
		check_u64(r.value, value, "%s: value", what);
	if (r.note[0])
		check_diag("    %s: %s", what, r.note);
}

static void test_fields(void)
{
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:1", BSDK_CORE_RESOLVED, 0,
	       "foo___mine.a: offset 8 locally, 0 in the kernel");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:2:0", BSDK_CORE_RESOLVED, 8,
	       "u1 through an anonymous struct locally, an anonymous union there");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:3:1", BSDK_CORE_RESOLVED, 16,
	       "in.x: members of a nested flavoured struct, by name");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:3:0", BSDK_CORE_RESOLVED, 20, "in.y");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:4:1", BSDK_CORE_RESOLVED, 28, "arr[1]");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "1:1", BSDK_CORE_RESOLVED, 64,
	       "p[1].a: the root index steps over the kernel's whole struct");
	expect(BSDK_CORE_FIELD_BYTE_SIZE, l_foo, "0:4", BSDK_CORE_RESOLVED, 16,
	       "sizeof arr: 4 ints there");
	expect(BSDK_CORE_FIELD_BYTE_SIZE, l_foo, "0:1", BSDK_CORE_RESOLVED, 4, "sizeof a");
	expect(BSDK_CORE_FIELD_EXISTS, l_foo, "0:1", BSDK_CORE_RESOLVED, 1, "a exists");
	expect(BSDK_CORE_FIELD_EXISTS, l_foo, "0:7", BSDK_CORE_RESOLVED, 0, "gone does not");
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:7", BSDK_CORE_POISONED, 0,
	       "the offset of gone: poisoned");
	expect(BSDK_CORE_FIELD_SIGNED, l_foo, "0:1", BSDK_CORE_RESOLVED, 1, "a is signed");
	expect(BSDK_CORE_FIELD_SIGNED, l_foo, "0:5", BSDK_CORE_RESOLVED, 0, "bf2 is unsigned");
	/* bf2: bits 323..327 there; the 4-byte load at 40 holds it, bits 3..7 of it */
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:5", BSDK_CORE_RESOLVED, 40, "bitfield offset");
	expect(BSDK_CORE_FIELD_BYTE_SIZE, l_foo, "0:5", BSDK_CORE_RESOLVED, 4, "bitfield load size");
	expect(BSDK_CORE_FIELD_LSHIFT_U64, l_foo, "0:5", BSDK_CORE_RESOLVED, 56, "bitfield lshift");
	expect(BSDK_CORE_FIELD_RSHIFT_U64, l_foo, "0:5", BSDK_CORE_RESOLVED, 59, "bitfield rshift");
}

static void test_sizes(void)
{
	struct co_re_relo r = { .kind = BSDK_CORE_FIELD_BYTE_OFFSET, .type_id = l_foo,
			       .access = "0:6", .orig_sz = 8 };

	/* local long small (8 bytes, signed) against the kernel's unsigned int (4) */
	check_i64(co_re_resolve(local, &r, kpath), 0, "small resolves");
	check_i64(r.state, BSDK_CORE_RESOLVED, "small: resolved");
	check_u64(r.value, 56, "small's offset there");
	check_u64(r.new_sz, 4, "the kernel's field is 4 bytes");
	check(r.memsz_fixed, "a signed 8-byte local field may not be loaded as 4 bytes");
	r.orig_ptr_or_uint = true;
	check_i64(co_re_resolve(local, &r, kpath), 0, "again, the local field unsigned");
	check(!r.memsz_fixed, "an unsigned one may: zero extension keeps the value");
}

static void test_types(void)
{
	struct co_re_relo r;

	expect(BSDK_CORE_TYPE_EXISTS, l_foo, "0", BSDK_CORE_RESOLVED, 1, "type foo exists");
	expect(BSDK_CORE_TYPE_EXISTS, l_nosuch, "0", BSDK_CORE_RESOLVED, 0, "type nosuch does not");
	expect(BSDK_CORE_TYPE_SIZE, l_foo, "0", BSDK_CORE_RESOLVED, 64, "sizeof(struct foo) there");
	expect(BSDK_CORE_TYPE_SIZE, l_nosuch, "0", BSDK_CORE_POISONED, 0, "sizeof a missing type");
	expect(BSDK_CORE_TYPE_ID_TARGET, l_foo, "0", BSDK_CORE_RESOLVED, k_foo, "foo's kernel ID");
	expect(BSDK_CORE_TYPE_ID_LOCAL, l_foo, "0", BSDK_CORE_RESOLVED, l_foo, "foo's local ID");
	expect(BSDK_CORE_TYPE_EXISTS, l_tdef, "0", BSDK_CORE_RESOLVED, 1, "typedef u32_t exists");
	expect(BSDK_CORE_TYPE_SIZE, l_tdef, "0", BSDK_CORE_RESOLVED, 4, "sizeof(u32_t)");
	expect(BSDK_CORE_TYPE_MATCHES, l_inner, "0", BSDK_CORE_RESOLVED, 1,
	       "inner___l matches inner (members by name, in any order)");
	expect(BSDK_CORE_TYPE_MATCHES, l_inner_bad, "0", BSDK_CORE_RESOLVED, 0,
	       "inner___bad does not (long x against int x)");
	expect(BSDK_CORE_TYPE_MATCHES, l_foo, "0", BSDK_CORE_RESOLVED, 0,
	       "foo___mine does not (it has gone)");
	expect(BSDK_CORE_TYPE_MATCHES, l_tp_new, "0", BSDK_CORE_RESOLVED, 1,
	       "tp_sw___new matches tp_sw (void return, a void * parameter, 4 parameters)");
	expect(BSDK_CORE_TYPE_MATCHES, l_tp_old, "0", BSDK_CORE_RESOLVED, 0,
	       "tp_sw___old does not (3 parameters against 4)");
	expect(BSDK_CORE_TYPE_MATCHES, l_tp_int, "0", BSDK_CORE_RESOLVED, 0,
	       "tp_sw___int does not (int return against void)");
	r = resolve_one(BSDK_CORE_TYPE_ID_TARGET, l_inner, "0");
	check_u64(r.targ_id, k_inner, "the target type is recorded");
	expect(BSDK_CORE_ENUMVAL_VALUE, l_enum, "0", BSDK_CORE_RESOLVED, 5, "E_B is 5 there, 50 here");
	expect(BSDK_CORE_ENUMVAL_EXISTS, l_enum, "0", BSDK_CORE_RESOLVED, 1, "E_B exists");
	expect(BSDK_CORE_ENUMVAL_EXISTS, l_enum, "1", BSDK_CORE_RESOLVED, 0, "E_C does not");
	expect(BSDK_CORE_ENUMVAL_VALUE, l_enum, "1", BSDK_CORE_POISONED, 0, "E_C's value: poisoned");
	r = resolve_one(BSDK_CORE_ENUMVAL_VALUE, l_enum, "0");
	check_u64(r.targ_id, k_enum, "enum e is the target");
}

static void test_candidates(void)
{
	struct co_re_relo r;

	r = resolve_one(BSDK_CORE_FIELD_BYTE_OFFSET, l_bar, "0:0");
	check_i64(r.state, BSDK_CORE_ERROR, "bar and bar___other give f at 0 and 4: an error");
	check(strstr(r.note, "disagree") != NULL, "the note says they disagree: %s", r.note);
	expect(BSDK_CORE_FIELD_BYTE_OFFSET, l_baz, "0:0", BSDK_CORE_RESOLVED, 0,
	       "baz and baz___same agree");
	r = resolve_one(BSDK_CORE_FIELD_BYTE_OFFSET, l_nosuch, "0:0");
	check_i64(r.state, BSDK_CORE_POISONED, "no kernel type named nosuch: poisoned");
	check(strstr(r.note, "'nosuch'") != NULL, "the note names it by its essential name: %s",
	      r.note);
	r = resolve_one(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:9");
	check_i64(r.state, BSDK_CORE_ERROR, "an access past the last local member is an error");
	r = resolve_one(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:4:2");
	check_i64(r.state, BSDK_CORE_ERROR, "an index past a local array is an error");
	r = resolve_one(BSDK_CORE_FIELD_BYTE_OFFSET, l_foo, "0:x");
	check_i64(r.state, BSDK_CORE_ERROR, "a malformed access string is an error");
}

static void test_patch(void)
{
	struct co_re_relo r = { .kind = BSDK_CORE_FIELD_BYTE_OFFSET, .desc = "t",
			       .state = BSDK_CORE_RESOLVED, .value = 1264 };
	struct bpf_insn alu = { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 16 };
	struct bpf_insn ldx = { .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 1, .src_reg = 2,
				.off = 16 };
	struct bpf_insn ld[2] = { { .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 1, .imm = 7 },
				  { 0 } };

	co_re_patch(&r, &alu, 1, "t");
	check_i64(alu.imm, 1264, "ALU immediate patched");
	check_u64(alu.code, BPF_ALU64 | BPF_MOV | BPF_K, "ALU opcode kept");
	r.orig_sz = 8;
	r.new_sz = 4;
	co_re_patch(&r, &ldx, 1, "t");
	check_i64(ldx.off, 1264, "load offset patched");
	check_u64(ldx.code, BPF_LDX | BPF_MEM | BPF_W, "load size follows the kernel's field");
	check_u64(ldx.dst_reg * 16 + ldx.src_reg, 0x12, "registers kept");
	r.value = 0x100000005ull;
	co_re_patch(&r, ld, 2, "t");
	check_u64((uint32_t)ld[0].imm | (uint64_t)(uint32_t)ld[1].imm << 32, 0x100000005ull,
		  "ld_imm64 gets all 64 bits");
	r.state = BSDK_CORE_POISONED;
	co_re_patch(&r, ld, 2, "t");
	check(ld[0].code == (BPF_JMP | BPF_CALL) && ld[0].imm == CORE_POISON_IMM &&
	      ld[1].code == (BPF_JMP | BPF_CALL) && ld[1].imm == CORE_POISON_IMM,
	      "a poisoned ld_imm64 becomes two invalid calls");
	co_re_patch(&r, &alu, 1, "t");
	check(alu.code == (BPF_JMP | BPF_CALL) && alu.imm == CORE_POISON_IMM && alu.dst_reg == 0,
	      "a poisoned ALU instruction becomes call 0xbad2310");
}

/* Flexible arrays: a zero-length array that ends its struct may be indexed anywhere, on both
 * sides; one in the middle may not. */
static void test_flex(void)
{
	char path[PATH_MAX];
	struct bb k, l;
	uint32_t i32, arr0, arr1, lid, lmid;
	struct co_re_relo r = { .kind = BSDK_CORE_FIELD_BYTE_OFFSET, .desc = "t" };
	struct btf *lb;
	size_t size;
	void *raw;

	bb_init(&k);
	i32 = bb_int(&k, "int", 4, BTF_INT_SIGNED);
	arr0 = bb_array(&k, i32, i32, 0);
	bb_struct(&k, "fl", 8, 2);		/* struct fl { int n; int data[]; } */
	bb_member(&k, "n", i32, 0);
	bb_member(&k, "data", arr0, 32);
	bb_struct(&k, "mid", 8, 2);		/* struct mid { int data[0]; int n; } */
	bb_member(&k, "data", arr0, 0);
	bb_member(&k, "n", i32, 0);
	bb_write_tmp(&k, path, sizeof(path));

	bb_init(&l);
	i32 = bb_int(&l, "int", 4, BTF_INT_SIGNED);
	arr0 = bb_array(&l, i32, i32, 0);
	arr1 = bb_array(&l, i32, i32, 1);
	lid = bb_struct(&l, "fl___l", 8, 2);	/* data first here: offset 0 locally */
	bb_member(&l, "data", arr1, 0);
	bb_member(&l, "n", i32, 32);
	lmid = bb_struct(&l, "mid___l", 4, 1);
	bb_member(&l, "data", arr0, 0);		/* the last member here: flexible locally */
	raw = bb_raw(&l, &size);
	lb = btf_parse(raw, size, "flex");

	r.type_id = lid;
	r.access = "0:0:0";
	check(lb && co_re_resolve(lb, &r, path) == 0 && r.state == BSDK_CORE_RESOLVED,
	      "data[0] against a flexible array: resolved");
	check_u64(r.value, 4, "at 4 there");
	r.type_id = lmid;
	r.access = "0:0:5";
	check(lb && co_re_resolve(lb, &r, path) == 0, "mid___l.data[5]: a flexible array locally");
	check_i64(r.state, BSDK_CORE_POISONED, "but not there (the array is not the last member)");
	btf_free(lb);
	free(raw);
	bb_free(&k);
	bb_free(&l);
	unlink(path);
}

/* A struct that embeds itself twice, anonymously: following it naively takes 2^64 steps. */
static void test_hostile(void)
{
	char path[PATH_MAX];
	struct bb k, l;
	uint32_t i32, lid, self;
	struct btf *lb;
	struct co_re_relo r = { .kind = BSDK_CORE_FIELD_BYTE_OFFSET, .access = "0:0", .desc = "t" };
	size_t size;
	void *raw;

	bb_init(&k);
	i32 = bb_int(&k, "int", 4, BTF_INT_SIGNED);
	self = k.next_id;
	bb_struct(&k, "loop", 8, 2);
	bb_member(&k, NULL, self, 0);
	bb_member(&k, NULL, self, 0);
	(void)i32;
	bb_write_tmp(&k, path, sizeof(path));
	bb_init(&l);
	i32 = bb_int(&l, "int", 4, BTF_INT_SIGNED);
	lid = bb_struct(&l, "loop___l", 4, 1);
	bb_member(&l, "f", i32, 0);
	raw = bb_raw(&l, &size);
	lb = btf_parse(raw, size, "hostile");
	r.type_id = lid;
	check(lb && co_re_resolve(lb, &r, path) == 0, "a self-embedding kernel struct: resolution ends");
	check_i64(r.state, BSDK_CORE_ERROR, "as an error: %s", r.note);
	r.kind = BSDK_CORE_TYPE_MATCHES;
	r.access = "0";
	check(lb && co_re_resolve(lb, &r, path) == 0, "type_matches against it ends too");
	btf_free(lb);
	free(raw);
	bb_free(&k);
	bb_free(&l);
	unlink(path);
}

int main(void)
{
	build_kernel();
	build_local();
	test_fields();
	test_sizes();
	test_types();
	test_candidates();
	test_patch();
	test_hostile();
	test_flex();
	btf_free(local);
	kbtf_release();
	unlink(kpath);
	return check_done();
}
