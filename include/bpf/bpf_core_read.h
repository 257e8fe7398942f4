/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_core_read.h - read kernel memory in a way that survives a change of
 * kernel (CO-RE: compile once, run everywhere).
 *
 * A tracing program reads kernel structs through pointers it may not
 * dereference directly, so it copies them with bpf_probe_read_kernel(). The
 * macros here wrap each access in clang's __builtin_preserve_access_index():
 * clang then emits the field offset it knows from the program's own headers
 * into the instruction, and records in .BTF.ext which type and field the
 * offset stands for. A CO-RE aware loader rewrites the offset to the
 * running kernel's layout (found in /sys/kernel/btf/vmlinux). A loader that
 * does not apply the records leaves the compiled offsets, which are right
 * when the program's headers match the running kernel.
 *
 *	pid = BPF_CORE_READ(task, real_parent, tgid);
 *
 * reads task->real_parent->tgid with two probe reads, each relocatable.
 *
 * Needs bpf_helpers.h (for bpf_probe_read_kernel) and clang with -g (the
 * relocations are BTF). Names and meaning are libbpf's.
 */
#ifndef BPFSDK_BPF_CORE_READ_H
#define BPFSDK_BPF_CORE_READ_H

#include "bpf_helpers.h"

/*
 * What the CO-RE builtins ask the loader for. The values are fixed by the
 * compiler and by the .BTF.ext relocation format (each kind below becomes
 * one relocation kind there); the names are the ones libbpf uses.
 */
enum bpf_field_info_kind {
	BPF_FIELD_BYTE_OFFSET = 0,	/* field's offset in bytes */
	BPF_FIELD_BYTE_SIZE = 1,	/* field's size in bytes */
	BPF_FIELD_EXISTS = 2,		/* 1 when the running kernel has it */
	BPF_FIELD_SIGNED = 3,		/* 1 when it is a signed integer */
	BPF_FIELD_LSHIFT_U64 = 4,	/* bitfield extraction: shift left... */
	BPF_FIELD_RSHIFT_U64 = 5,	/* ...then right, on a 64-bit load */
};

/* What __builtin_btf_type_id() reports. */
enum bpf_type_id_kind {
	BPF_TYPE_ID_LOCAL = 0,		/* the type's ID in the program's BTF */
	BPF_TYPE_ID_TARGET = 1,		/* its ID in the running kernel's BTF */
};

/* What __builtin_preserve_type_info() reports. */
enum bpf_type_info_kind {
	BPF_TYPE_EXISTS = 0,		/* 1 when the running kernel has the type */
	BPF_TYPE_SIZE = 1,		/* the type's size in bytes */
	BPF_TYPE_MATCHES = 2,		/* 1 when its layout matches (clang 15+) */
};

/* What __builtin_preserve_enum_value() reports. */
enum bpf_enum_value_kind {
	BPF_ENUMVAL_EXISTS = 0,		/* 1 when the kernel's enum has the name */
	BPF_ENUMVAL_VALUE = 1,		/* the value it has there */
};

/*
 * Where a field macro takes its field from: either one access expression
 * (task->pids, s.a.b) or a type and a member path (struct task_struct,
 * pids), the second form needing no object of the type at hand.
 */
#define __bpfsdk_field_ref1(field) (field)
#define __bpfsdk_field_ref2(type, field) (((__typeof__(type) *)0)->field)
#define __bpfsdk_field_ref(...)						\
	__bpfsdk_cat(__bpfsdk_field_ref, __bpfsdk_nfields(__VA_ARGS__))(__VA_ARGS__)

/* One field question, answered by the loader from the running kernel. */
#define __bpfsdk_field_info(kind, ...)					\
	__builtin_preserve_field_info(__bpfsdk_field_ref(__VA_ARGS__), kind)

/*
 * bpf_core_field_exists(field) or bpf_core_field_exists(type, field) - 1
 * when the running kernel's type has field, 0 when not:
 *
 *	if (bpf_core_field_exists(task->__state)) ...
 *	if (bpf_core_field_exists(struct task_struct, __state)) ...
 *
 * Evaluates nothing at run time: the loader writes the answer into the
 * instruction, so the branch not taken is dead code the verifier skips.
 */
#define bpf_core_field_exists(...)					\
	__bpfsdk_field_info(BPF_FIELD_EXISTS, __VA_ARGS__)

/* bpf_core_field_size(field) - the field's size in bytes in the running kernel. */
#define bpf_core_field_size(...)					\
	__bpfsdk_field_info(BPF_FIELD_BYTE_SIZE, __VA_ARGS__)

/* bpf_core_field_offset(field) - the field's byte offset in its struct there. */
#define bpf_core_field_offset(...)					\
	__bpfsdk_field_info(BPF_FIELD_BYTE_OFFSET, __VA_ARGS__)

/* bpf_core_field_signed(field) - 1 when the field is a signed integer there. */
#define bpf_core_field_signed(...)					\
	__bpfsdk_field_info(BPF_FIELD_SIGNED, __VA_ARGS__)

/*
 * bpf_core_type_id_local(type) - the type's ID in the program's own BTF;
 * bpf_core_type_id_kernel(type) - the ID of the matching type in the
 * running kernel's BTF (0 when it has none), e.g. for bpf_snprintf_btf().
 */
#define bpf_core_type_id_local(type)					\
	__builtin_btf_type_id(*(__typeof__(type) *)0, BPF_TYPE_ID_LOCAL)
#define bpf_core_type_id_kernel(type)					\
	__builtin_btf_type_id(*(__typeof__(type) *)0, BPF_TYPE_ID_TARGET)

/*
 * bpf_core_type_exists(type) - 1 when the running kernel knows type
 * (e.g. struct sched_entity); bpf_core_type_size(type) - its size there.
 */
#define bpf_core_type_exists(type)					\
	__builtin_preserve_type_info(*(__typeof__(type) *)0, BPF_TYPE_EXISTS)
#define bpf_core_type_size(type)					\
	__builtin_preserve_type_info(*(__typeof__(type) *)0, BPF_TYPE_SIZE)

/*
 * bpf_core_type_matches(type) - 1 when the kernel's type of that name has
 * the same shape (members by name, compatible types), not only the name.
 * clang 14's BPF back end aborts on this query, so there it is a compile
 * error that says what is missing rather than a compiler crash.
 */
#if __clang_major__ >= 15
#define bpf_core_type_matches(type)					\
	__builtin_preserve_type_info(*(__typeof__(type) *)0, BPF_TYPE_MATCHES)
#else
#define bpf_core_type_matches(type)					\
	({								\
		_Static_assert(0, "bpf_core_type_matches() needs clang 15 or later"); \
		0;							\
	})
#endif

/*
 * bpf_core_enum_value_exists(enum_type, value) - 1 when the kernel's enum
 * has the enumerator value (a name of the program's own enum);
 * bpf_core_enum_value(enum_type, value) - the number it has there:
 *
 *	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop)) ...
 */
#define bpf_core_enum_value_exists(enum_type, enum_value)		\
	__builtin_preserve_enum_value(*(__typeof__(enum_type) *)enum_value, \
				      BPF_ENUMVAL_EXISTS)
#define bpf_core_enum_value(enum_type, enum_value)			\
	__builtin_preserve_enum_value(*(__typeof__(enum_type) *)enum_value, \
				      BPF_ENUMVAL_VALUE)

/*
 * BPF_CORE_READ_BITFIELD_PROBED(s, field) - the value of bitfield s->field
 * (or of any integer field), read with bpf_probe_read_kernel() from where
 * the running kernel keeps it, sign-extended when the field is signed
 * there. A 64-bit result: cast it to the type you want.
 *
 * The loader gives the byte offset and size of the smallest load that
 * covers the bits, and two shifts that move them to the top of a 64-bit
 * value and back down, which is what extracts the field whatever its
 * width and position.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __bpfsdk_bitfield_dst(val, size) ((void *)&(val))
#else
#define __bpfsdk_bitfield_dst(val, size) ((void *)&(val) + 8 - (size))
#endif

#define __bpfsdk_bitfield_shift(val, s, field)				\
	({								\
		val <<= __builtin_preserve_field_info((s)->field, BPF_FIELD_LSHIFT_U64); \
		if (__builtin_preserve_field_info((s)->field, BPF_FIELD_SIGNED)) \
			val = (unsigned long long)((long long)val >>	\
				__builtin_preserve_field_info((s)->field, BPF_FIELD_RSHIFT_U64)); \
		else							\
			val >>= __builtin_preserve_field_info((s)->field, BPF_FIELD_RSHIFT_U64); \
		val;							\
	})

#define BPF_CORE_READ_BITFIELD_PROBED(s, field)				\
	({								\
		unsigned long long __bpfsdk_v = 0;			\
		unsigned int __bpfsdk_sz =				\
			__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_SIZE); \
		bpf_probe_read_kernel(__bpfsdk_bitfield_dst(__bpfsdk_v, __bpfsdk_sz), \
			__bpfsdk_sz, (const void *)(s) +		\
			__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_OFFSET)); \
		__bpfsdk_bitfield_shift(__bpfsdk_v, s, field);		\
	})

/*
 * BPF_CORE_READ_BITFIELD(s, field) - the same with a direct load, for
 * pointers the verifier lets a program dereference (tp_btf and fentry
 * arguments, bpf_get_current_task_btf()).
 */
#define BPF_CORE_READ_BITFIELD(s, field)				\
	({								\
		const void *__bpfsdk_a = (const void *)(s) +		\
			__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_OFFSET); \
		unsigned long long __bpfsdk_v;				\
									\
		/* Hide the address from the optimizer: otherwise clang	\
		 * copies the offset into every case below, and each copy \
		 * is one more relocation for the loader to apply. */	\
		barrier_var(__bpfsdk_a);				\
		switch (__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_SIZE)) { \
		case 1: __bpfsdk_v = *(const unsigned char *)__bpfsdk_a; break; \
		case 2: __bpfsdk_v = *(const unsigned short *)__bpfsdk_a; break; \
		case 4: __bpfsdk_v = *(const unsigned int *)__bpfsdk_a; break; \
		case 8: __bpfsdk_v = *(const unsigned long long *)__bpfsdk_a; break; \
		default: __bpfsdk_v = 0; break;				\
		}							\
		__bpfsdk_bitfield_shift(__bpfsdk_v, s, field);		\
	})

/*
 * bpf_core_read(dst, sz, src) - bpf_probe_read_kernel(dst, sz, src) with
 * src an address expression (&task->pid) whose offsets are relocatable.
 * Returns 0 or a negative error, as the helper does; on error dst is zeroed.
 */
#define bpf_core_read(dst, sz, src)					\
	bpf_probe_read_kernel(dst, sz,					\
		(const void *)__builtin_preserve_access_index(src))

/* bpf_core_read_user(dst, sz, src) - the same from user memory. */
#define bpf_core_read_user(dst, sz, src)				\
	bpf_probe_read_user(dst, sz,					\
		(const void *)__builtin_preserve_access_index(src))

/*
 * bpf_core_read_str(dst, sz, src) - a NUL-terminated string, relocatable:
 * bpf_probe_read_kernel_str()'s result, the length with the NUL or a
 * negative error. bpf_core_read_user_str() - the same from user memory.
 */
#define bpf_core_read_str(dst, sz, src)					\
	bpf_probe_read_kernel_str(dst, sz,				\
		(const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_user_str(dst, sz, src)				\
	bpf_probe_read_user_str(dst, sz,				\
		(const void *)__builtin_preserve_access_index(src))

/* Plain probe reads, no relocation: what the BPF_PROBE_READ chains use. */
#define __bpfsdk_probe_read(dst, sz, src)				\
	bpf_probe_read_kernel(dst, sz, (const void *)(src))
#define __bpfsdk_probe_read_str(dst, sz, src)				\
	bpf_probe_read_kernel_str(dst, sz, (const void *)(src))
#define __bpfsdk_probe_read_user(dst, sz, src)				\
	bpf_probe_read_user(dst, sz, (const void *)(src))
#define __bpfsdk_probe_read_user_str(dst, sz, src)			\
	bpf_probe_read_user_str(dst, sz, (const void *)(src))

/*
 * The chain machinery. A chain src, a1, ..., aN is read in N steps: every
 * step but the last reads the pointer in field ak into a scratch pointer
 * with fn, the last reads field aN into dst with last (the same function,
 * or its _str form for the STR_INTO macros). The first step reads from
 * src itself; the next ones read from the scratch pointer cast back to the
 * type of the chain so far, (src)->a1->...->a(k-1), which typeof() gives
 * without evaluating anything. That cast is what tells the compiler which
 * struct ak belongs to, and so what the relocation records.
 */
#define __bpfsdk_cat_(a, b) a##b
#define __bpfsdk_cat(a, b) __bpfsdk_cat_(a, b)
#define __bpfsdk_nth(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, N, ...) N
/* Number of arguments, 1 to 10 (a chain has at least one field). */
#define __bpfsdk_nfields(...)						\
	__bpfsdk_nth(_, __VA_ARGS__, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/* The chain as an expression, for typeof(): (s)->a->b->... */
#define __bpfsdk_arrow1(s, a) (s)->a
#define __bpfsdk_arrow2(s, a, ...) __bpfsdk_arrow1((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow3(s, a, ...) __bpfsdk_arrow2((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow4(s, a, ...) __bpfsdk_arrow3((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow5(s, a, ...) __bpfsdk_arrow4((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow6(s, a, ...) __bpfsdk_arrow5((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow7(s, a, ...) __bpfsdk_arrow6((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow8(s, a, ...) __bpfsdk_arrow7((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow9(s, a, ...) __bpfsdk_arrow8((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow10(s, a, ...) __bpfsdk_arrow9((s)->a, __VA_ARGS__)
#define __bpfsdk_arrow(s, ...)						\
	__bpfsdk_cat(__bpfsdk_arrow, __bpfsdk_nfields(__VA_ARGS__))(s, __VA_ARGS__)

/*
 * __bpfsdk_chainN(fn, last, dst, s, base, a, ...): s is the chain so far
 * (for typeof), base the pointer expression to read field a from.
 */
#define __bpfsdk_next(s, a) ((__typeof__((s)->a))__bpfsdk_p)
#define __bpfsdk_step(fn, base, a)					\
	fn(&__bpfsdk_p, sizeof(__bpfsdk_p), &(base)->a);
#define __bpfsdk_chain1(fn, last, dst, s, base, a)			\
	last((void *)(dst), sizeof(*(dst)), &(base)->a)
#define __bpfsdk_chain2(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain1(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain3(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain2(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain4(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain3(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain5(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain4(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain6(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain5(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain7(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain6(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain8(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain7(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain9(fn, last, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain8(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain10(fn, last, dst, s, base, a, ...)		\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain9(fn, last, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)

/*
 * Read the chain into dst; src is evaluated once. The statement
 * expression's value is the last read's result (0 or the string length,
 * or negative on error). A failed intermediate read zeroes the scratch
 * pointer, so the reads after it fail too and dst ends zeroed rather than
 * filled from a stale address.
 */
#define __bpfsdk_read_into(fn, last, dst, src, ...)			\
	({								\
		const void *__bpfsdk_p __attribute__((unused));	\
		__bpfsdk_cat(__bpfsdk_chain,				\
			     __bpfsdk_nfields(__VA_ARGS__))		\
			(fn, last, dst, src, (src), __VA_ARGS__);	\
	})

/*
 * BPF_CORE_READ_INTO(dst, src, a, ...) - read src->a->...->last into *dst,
 * one relocatable probe read per "->". Every field but the last must be a
 * pointer. Returns the last read's result, 0 or a negative error. Up to
 * ten fields.
 */
#define BPF_CORE_READ_INTO(dst, src, a, ...)				\
	__bpfsdk_read_into(bpf_core_read, bpf_core_read, dst, src, a, ##__VA_ARGS__)

/* BPF_CORE_READ_USER_INTO(dst, src, a, ...) - the same in user memory. */
#define BPF_CORE_READ_USER_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(bpf_core_read_user, bpf_core_read_user,	\
			   dst, src, a, ##__VA_ARGS__)

/*
 * BPF_CORE_READ_STR_INTO(dst, src, a, ...) - the chain, its last field a
 * string (a char array, or a char * to follow) copied into the array *dst
 * NUL-terminated; dst is a pointer to the array (&e->comm), whose size is
 * the limit. Returns the string's length with the NUL, or a negative error.
 */
#define BPF_CORE_READ_STR_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(bpf_core_read, bpf_core_read_str,		\
			   dst, src, a, ##__VA_ARGS__)

/* BPF_CORE_READ_USER_STR_INTO(dst, src, a, ...) - the same in user memory. */
#define BPF_CORE_READ_USER_STR_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(bpf_core_read_user, bpf_core_read_user_str,	\
			   dst, src, a, ##__VA_ARGS__)

/*
 * BPF_PROBE_READ_INTO(dst, src, a, ...) and its _USER and _STR forms - the
 * same chains without CO-RE relocations (unless the types themselves are
 * preserve_access_index, as all of vmlinux.h is).
 */
#define BPF_PROBE_READ_INTO(dst, src, a, ...)				\
	__bpfsdk_read_into(__bpfsdk_probe_read, __bpfsdk_probe_read,	\
			   dst, src, a, ##__VA_ARGS__)
#define BPF_PROBE_READ_USER_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(__bpfsdk_probe_read_user, __bpfsdk_probe_read_user, \
			   dst, src, a, ##__VA_ARGS__)
#define BPF_PROBE_READ_STR_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(__bpfsdk_probe_read, __bpfsdk_probe_read_str, \
			   dst, src, a, ##__VA_ARGS__)
#define BPF_PROBE_READ_USER_STR_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(__bpfsdk_probe_read_user,			\
			   __bpfsdk_probe_read_user_str, dst, src, a, ##__VA_ARGS__)

/* The value of a chain read by into (one of the _INTO macros above). */
#define __bpfsdk_read_value(into, src, a, ...)				\
	({								\
		__typeof__(__bpfsdk_arrow(src, a, ##__VA_ARGS__)) __bpfsdk_r; \
		into(&__bpfsdk_r, src, a, ##__VA_ARGS__);		\
		__bpfsdk_r;						\
	})

/*
 * BPF_CORE_READ(src, a, ...) - the value of src->a->...->last, read as
 * BPF_CORE_READ_INTO does; its type is the last field's type. A failed read
 * gives 0. The usual way to walk kernel structs from a tracing program:
 *
 *	__u32 ppid = BPF_CORE_READ(task, real_parent, tgid);
 */
#define BPF_CORE_READ(src, a, ...)					\
	__bpfsdk_read_value(BPF_CORE_READ_INTO, src, a, ##__VA_ARGS__)

/* BPF_CORE_READ_USER(src, a, ...) - BPF_CORE_READ in user memory. */
#define BPF_CORE_READ_USER(src, a, ...)					\
	__bpfsdk_read_value(BPF_CORE_READ_USER_INTO, src, a, ##__VA_ARGS__)

/* BPF_PROBE_READ(src, a, ...), BPF_PROBE_READ_USER() - without relocations. */
#define BPF_PROBE_READ(src, a, ...)					\
	__bpfsdk_read_value(BPF_PROBE_READ_INTO, src, a, ##__VA_ARGS__)
#define BPF_PROBE_READ_USER(src, a, ...)				\
	__bpfsdk_read_value(BPF_PROBE_READ_USER_INTO, src, a, ##__VA_ARGS__)

/*
 * bpf_core_cast(ptr, type) - ptr as a type * the verifier lets the program
 * dereference directly (read-only, faults read as zero), through the
 * bpf_rdonly_cast() kfunc of Linux 6.2 and later and the kernel's type ID
 * of type.
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id)
	__attribute__((section(".ksyms"), weak));
#define bpf_core_cast(ptr, type)					\
	((__typeof__(type) *)bpf_rdonly_cast((ptr), bpf_core_type_id_kernel(type)))

#endif /* BPFSDK_BPF_CORE_READ_H */
