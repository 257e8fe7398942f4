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
 * What __builtin_preserve_field_info() reports; the values are fixed by
 * the compiler and the BTF.ext relocation format.
 */
enum bpf_field_info_kind {
	BPF_FIELD_BYTE_OFFSET = 0,	/* field's offset in bytes */
	BPF_FIELD_BYTE_SIZE = 1,	/* field's size in bytes */
	BPF_FIELD_EXISTS = 2,		/* 1 when the running kernel has it */
	BPF_FIELD_SIGNED = 3,		/* 1 when it is a signed integer */
	BPF_FIELD_LSHIFT_U64 = 4,	/* bitfield extraction: shift left... */
	BPF_FIELD_RSHIFT_U64 = 5,	/* ...then right, on a 64-bit load */
};

/* What __builtin_preserve_type_info() reports. */
enum bpf_type_info_kind {
	BPF_TYPE_EXISTS = 0,		/* 1 when the running kernel has the type */
	BPF_TYPE_SIZE = 1,		/* the type's size in bytes */
};

/*
 * bpf_core_field_exists(field) - 1 when the running kernel's struct has
 * field, 0 when not; field is an access expression such as task->pids.
 * Evaluates nothing at run time: the loader writes the answer into the
 * instruction. Without a CO-RE loader, always 1.
 */
#define bpf_core_field_exists(field)					\
	__builtin_preserve_field_info(field, BPF_FIELD_EXISTS)

/* bpf_core_field_size(field) - the field's size in the running kernel. */
#define bpf_core_field_size(field)					\
	__builtin_preserve_field_info(field, BPF_FIELD_BYTE_SIZE)

/* bpf_core_field_offset(field) - the field's byte offset in its struct. */
#define bpf_core_field_offset(field)					\
	__builtin_preserve_field_info(field, BPF_FIELD_BYTE_OFFSET)

/*
 * bpf_core_type_exists(type) - 1 when the running kernel knows type
 * (e.g. struct sched_entity); bpf_core_type_size(type) - its size there.
 */
#define bpf_core_type_exists(type)					\
	__builtin_preserve_type_info(*(__typeof__(type) *)0, BPF_TYPE_EXISTS)
#define bpf_core_type_size(type)					\
	__builtin_preserve_type_info(*(__typeof__(type) *)0, BPF_TYPE_SIZE)

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

/* bpf_core_read_str(dst, sz, src) - a NUL-terminated string, relocatable. */
#define bpf_core_read_str(dst, sz, src)					\
	bpf_probe_read_kernel_str(dst, sz,				\
		(const void *)__builtin_preserve_access_index(src))

/* Plain probe read, no relocation: what BPF_PROBE_READ chains use. */
#define __bpfsdk_probe_read(dst, sz, src)				\
	bpf_probe_read_kernel(dst, sz, (const void *)(src))

/*
 * The chain machinery. A chain src, a1, ..., aN is read in N steps: every
 * step but the last reads the pointer in field ak into a scratch pointer,
 * the last reads field aN into dst. The first step reads from src itself;
 * the next ones read from the scratch pointer cast back to the type of the
 * chain so far, (src)->a1->...->a(k-1), which typeof() gives without
 * evaluating anything. That cast is what tells the compiler which struct
 * ak belongs to, and so what the relocation records.
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
 * __bpfsdk_chainN(fn, dst, s, base, a, ...): s is the chain so far (for
 * typeof), base the pointer expression to read field a from.
 */
#define __bpfsdk_next(s, a) ((__typeof__((s)->a))__bpfsdk_p)
#define __bpfsdk_step(fn, base, a)					\
	fn(&__bpfsdk_p, sizeof(__bpfsdk_p), &(base)->a);
#define __bpfsdk_chain1(fn, dst, s, base, a)				\
	fn((void *)(dst), sizeof(*(dst)), &(base)->a)
#define __bpfsdk_chain2(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain1(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain3(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain2(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain4(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain3(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain5(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain4(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain6(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain5(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain7(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain6(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain8(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain7(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain9(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain8(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)
#define __bpfsdk_chain10(fn, dst, s, base, a, ...)			\
	__bpfsdk_step(fn, base, a)					\
	__bpfsdk_chain9(fn, dst, (s)->a, __bpfsdk_next(s, a), __VA_ARGS__)

/*
 * Read the chain with fn into dst; src is evaluated once. The statement
 * expression's value is the last read's result (0, or negative on error).
 * A failed intermediate read zeroes the scratch pointer, so the reads after
 * it fail too and dst ends zeroed rather than filled from a stale address.
 */
#define __bpfsdk_read_into(fn, dst, src, ...)				\
	({								\
		const void *__bpfsdk_p __attribute__((unused));	\
		__bpfsdk_cat(__bpfsdk_chain,				\
			     __bpfsdk_nfields(__VA_ARGS__))		\
			(fn, dst, src, (src), __VA_ARGS__);		\
	})

/*
 * BPF_CORE_READ_INTO(dst, src, a, ...) - read src->a->...->last into *dst,
 * one relocatable probe read per "->". Every field but the last must be a
 * pointer. Returns the last read's result, 0 or a negative error. Up to
 * ten fields.
 */
#define BPF_CORE_READ_INTO(dst, src, a, ...)				\
	__bpfsdk_read_into(bpf_core_read, dst, src, a, ##__VA_ARGS__)

/* BPF_CORE_READ_USER_INTO(dst, src, a, ...) - the same in user memory. */
#define BPF_CORE_READ_USER_INTO(dst, src, a, ...)			\
	__bpfsdk_read_into(bpf_core_read_user, dst, src, a, ##__VA_ARGS__)

/*
 * BPF_PROBE_READ_INTO(dst, src, a, ...) - the same chain without CO-RE
 * relocations (unless the types themselves are preserve_access_index).
 */
#define BPF_PROBE_READ_INTO(dst, src, a, ...)				\
	__bpfsdk_read_into(__bpfsdk_probe_read, dst, src, a, ##__VA_ARGS__)

/*
 * BPF_CORE_READ(src, a, ...) - the value of src->a->...->last, read as
 * BPF_CORE_READ_INTO does; its type is the last field's type. A failed read
 * gives 0. The usual way to walk kernel structs from a tracing program:
 *
 *	__u32 ppid = BPF_CORE_READ(task, real_parent, tgid);
 */
#define BPF_CORE_READ(src, a, ...)					\
	({								\
		__typeof__(__bpfsdk_arrow(src, a, ##__VA_ARGS__)) __bpfsdk_r; \
		BPF_CORE_READ_INTO(&__bpfsdk_r, src, a, ##__VA_ARGS__); \
		__bpfsdk_r;						\
	})

/* BPF_CORE_READ_USER(src, a, ...) - BPF_CORE_READ in user memory. */
#define BPF_CORE_READ_USER(src, a, ...)					\
	({								\
		__typeof__(__bpfsdk_arrow(src, a, ##__VA_ARGS__)) __bpfsdk_r; \
		BPF_CORE_READ_USER_INTO(&__bpfsdk_r, src, a, ##__VA_ARGS__); \
		__bpfsdk_r;						\
	})

/* BPF_PROBE_READ(src, a, ...) - BPF_CORE_READ without relocations. */
#define BPF_PROBE_READ(src, a, ...)					\
	({								\
		__typeof__(__bpfsdk_arrow(src, a, ##__VA_ARGS__)) __bpfsdk_r; \
		BPF_PROBE_READ_INTO(&__bpfsdk_r, src, a, ##__VA_ARGS__); \
		__bpfsdk_r;						\
	})

#endif /* BPFSDK_BPF_CORE_READ_H */
