/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_helpers.h - the header every BPF program of bpfsdk starts with.
 *
 * It holds the section macro, the two ways to define maps (BTF-defined maps
 * in ".maps", the legacy struct bpf_map_def in "maps"), the function and
 * variable attributes BPF programs use, bpf_printk(), BPFSDK_RECORD() to
 * describe the records of a perf event map in BTF, and every helper of the
 * kernel (bpf_helper_defs.h).
 *
 * Usage, in a program built with clang -O2 -g -target bpf:
 *
 *	#include <linux/bpf.h>		(or vmlinux.h, included first)
 *	#include <bpf/bpf_helpers.h>
 *
 * The header needs only clang and the kernel's UAPI headers. Every name it
 * shares with libbpf's bpf/bpf_helpers.h has the same meaning there, so a
 * program written against either compiles with the other; names that are
 * bpfsdk's own start with BPFSDK_ or bpfsdk_.
 *
 * License: LGPL-2.1 OR BSD-2-Clause, so that programs under any license,
 * GPL included, can copy it.
 */
#ifndef BPFSDK_BPF_HELPERS_H
#define BPFSDK_BPF_HELPERS_H

#include "bpf_helper_defs.h"

/* ---- Sections ---------------------------------------------------------- */

/*
 * SEC(name) - put a function or variable into ELF section name.
 *
 * The loader reads meaning from section names: "kprobe/FUNC",
 * "tracepoint/CAT/NAME", ... for programs, ".maps" and "maps" for maps,
 * "license" for the license string. The used attribute keeps clang from
 * dropping an object nothing references; the pragma silences the warning
 * clang gives when SEC() is applied to an extern declaration, which cannot
 * be "used".
 */
#define SEC(name)							\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wignored-attributes\"")	\
	__attribute__((section(name), used))				\
	_Pragma("GCC diagnostic pop")

/* ---- BTF-defined maps (section ".maps") -------------------------------- */

/*
 * A BTF-defined map is a global variable in SEC(".maps") whose anonymous
 * struct type describes the map. The values are not stored anywhere: they
 * are encoded in the BTF type of each member, which the loader reads back.
 *
 *	struct {
 *		__uint(type, BPF_MAP_TYPE_HASH);
 *		__uint(max_entries, 1024);
 *		__type(key, __u32);
 *		__type(value, struct stats);
 *	} stats_map SEC(".maps");
 *
 * Members a loader understands: type, max_entries, map_flags, key_size,
 * value_size, key, value, pinning, numa_node, map_extra, and values (an
 * __array of inner maps or programs, for map-in-map and PROG_ARRAY maps).
 */

/*
 * __uint(name, val) - an integer attribute of a map. Encoded as a pointer to
 * an array of val ints, so that BTF holds val as the array's element count.
 */
#define __uint(name, val) int (*name)[val]

/*
 * __type(name, val) - a type attribute of a map (key or value), encoded as a
 * pointer to that type. The loader takes the size from BTF, and passes the
 * type to the kernel so that tools can print the map's contents.
 */
#define __type(name, val) __typeof__(val) *name

/*
 * __array(name, val) - an array of pointers to val, for the "values" member
 * of map-in-map and PROG_ARRAY maps, whose element type val describes the
 * inner map (or program).
 */
#define __array(name, val) __typeof__(val) *name[]

/*
 * Values of the "pinning" attribute: LIBBPF_PIN_BY_NAME pins the map in
 * bpffs under its own name (and reuses a map already pinned there);
 * LIBBPF_PIN_NONE, the default, does not pin.
 */
enum libbpf_pin_type {
	LIBBPF_PIN_NONE,
	LIBBPF_PIN_BY_NAME,
};

/* ---- Legacy maps (section "maps") -------------------------------------- */

/*
 * struct bpf_map_def - a map the old way, as the kernel's samples defined
 * them from the start:
 *
 *	struct bpf_map_def SEC("maps") my_map = {
 *		.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
 *		.key_size = sizeof(int),
 *		.value_size = sizeof(__u32),
 *		.max_entries = 2,
 *	};
 *
 * The loader reads the fields from the section's bytes, not from BTF, so
 * these maps work without -g; they carry no key or value type. The bpfsdk
 * loader accepts older and newer layouts of the struct (it takes the size
 * of each definition from its symbol). libbpf 1.0 and later no longer load
 * the "maps" section and dropped this struct from their bpf_helpers.h:
 * prefer BTF-defined maps for new code.
 */
struct bpf_map_def {
	unsigned int type;		/* enum bpf_map_type */
	unsigned int key_size;		/* bytes */
	unsigned int value_size;	/* bytes */
	unsigned int max_entries;
	unsigned int map_flags;		/* BPF_F_* map creation flags */
};

/* ---- Record types of perf event maps ----------------------------------- */

/*
 * BPFSDK_RECORD(name) - say in BTF that the map declared right after it
 * carries records of type struct name, so that a generic tool (bpfsdk run
 * --format json) can decode the records a program sends with
 * bpf_perf_event_output() without knowing the program:
 *
 *	struct event {
 *		__u64 pid;
 *		__u64 cookie;
 *	};
 *
 *	BPFSDK_RECORD(event)
 *	struct {
 *		__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
 *		__uint(key_size, sizeof(int));
 *		__uint(value_size, sizeof(int));
 *	} events SEC(".maps");
 *
 * It works the same in front of a legacy map:
 *
 *	BPFSDK_RECORD(event) struct bpf_map_def SEC("maps") events = { ... };
 *
 * name is the tag of a struct (struct event -> event), not a typedef.
 *
 * What it leaves in the object, built with -g:
 *
 *  - on the map's BTF_KIND_VAR, a BTF_KIND_DECL_TAG (component_idx -1)
 *    whose name is the string "bpfsdk.record:" followed by the struct tag,
 *    e.g. "bpfsdk.record:event" (BPFSDK_RECORD_TAG_PREFIX holds the
 *    prefix). A tool finds the map's VAR by name (in the ".maps" or "maps"
 *    DATASEC), finds a DECL_TAG pointing at it whose name starts with the
 *    prefix, and takes the BTF_KIND_STRUCT with the name that follows: its
 *    members, offsets and sizes are the layout of every record. A record in
 *    the ring may be longer than the struct (the kernel pads raw samples to
 *    8 bytes); a shorter one is not a record of that type.
 *
 *  - a static variable __bpfsdk_record_NAME of type struct NAME * in the
 *    section ".bpfsdk.records". clang only emits BTF for types reachable
 *    from variables and functions, and a struct that travels only through
 *    bpf_perf_event_output()'s void * would otherwise be missing. The
 *    section is 8 bytes of zeros per record type that nothing references:
 *    loaders skip it (libbpf does), and the variable is shared by all maps
 *    carrying the same struct (C allows repeating a tentative definition).
 *
 * The tag needs clang 14 or later (btf_decl_tag); an older compiler warns
 * with its version and leaves the tag out (see below). A kernel older than 5.16 rejects BTF with decl tags:
 * a loader for such kernels must drop or replace them before loading BTF.
 */
#define BPFSDK_RECORD_TAG_PREFIX "bpfsdk.record:"

/*
 * __bpfsdk_too_old(what, needs) - a warning, where it is used, that this
 * compiler (named with its version) lacks what a macro needs: a feature
 * of a newer clang degrades to this rather than stopping the build.
 */
#ifdef __clang_major__
#define __BPFSDK_CC_NAME "clang " __bpfsdk_str(__clang_major__)
#else
#define __BPFSDK_CC_NAME "this compiler"
#endif
#define __bpfsdk_str_(x) #x
#define __bpfsdk_str(x) __bpfsdk_str_(x)
#define __bpfsdk_pragma_(x) _Pragma(#x)
#define __bpfsdk_pragma(x) __bpfsdk_pragma_(x)
#define __bpfsdk_too_old(what, needs)					\
	__bpfsdk_pragma(GCC warning what ": " __BPFSDK_CC_NAME " has no " needs)

#if defined(__has_attribute) && __has_attribute(btf_decl_tag)
#define BPFSDK_RECORD(name)						\
	static struct name *__bpfsdk_record_##name			\
		__attribute__((section(".bpfsdk.records"), used));	\
	__attribute__((btf_decl_tag(BPFSDK_RECORD_TAG_PREFIX #name)))
#else
/*
 * An older compiler: the anchor still puts struct name into BTF and DWARF,
 * the tag is left out, and a warning says so once per use. A tool then
 * finds the record type the way it does for a map without the macro, from
 * the object's DWARF (bpfsdk run reads what bpf_perf_event_output() is
 * given there).
 */
#define BPFSDK_RECORD(name)						\
	static struct name *__bpfsdk_record_##name			\
		__attribute__((section(".bpfsdk.records"), used));	\
	__bpfsdk_too_old("BPFSDK_RECORD(" #name ")", "btf_decl_tag "	\
			 "(clang 14 or later): the record type is left to " \
			 "the DWARF finder")
#endif

/* ---- Function and variable attributes ---------------------------------- */

/*
 * __always_inline - inline the function at every call. The UAPI
 * linux/stddef.h defines it as a plain hint, which clang may ignore; BPF
 * code often relies on inlining (older kernels have no BPF-to-BPF calls, and
 * a helper's constant arguments must stay constants), so it is redefined.
 */
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))

/* __noinline - keep a function as a separate BPF subprogram. */
#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif

/*
 * __weak - a definition another object may override when objects are
 * linked; on an extern (__kconfig, __ksym), one the kernel may lack.
 */
#ifndef __weak
#define __weak __attribute__((weak))
#endif

/*
 * __hidden - hidden visibility: a global subprogram the verifier checks with
 * its caller's context (like a static one), and that bpftool's static linker
 * does not export.
 */
#define __hidden __attribute__((visibility("hidden")))

/* ---- Externs: values the loader fills in from the running kernel ------ */

/*
 * __kconfig - on an extern variable: the loader sets it, before the
 * program runs, from the kernel it loads into. The name says what:
 *
 *	extern unsigned int LINUX_KERNEL_VERSION __kconfig;   KERNEL_VERSION(a, b, c)
 *	extern bool LINUX_HAS_BPF_COOKIE __kconfig;           bpf_get_attach_cookie() works
 *	extern bool LINUX_HAS_SYSCALL_WRAPPER __kconfig;      syscalls take a struct pt_regs *
 *	extern bool CONFIG_BPF_SYSCALL __kconfig;             a CONFIG_ option, from the
 *	extern enum libbpf_tristate CONFIG_EXT4_FS __kconfig;   kernel's config (bool, tristate,
 *	extern int CONFIG_HZ __kconfig;                        integer, or char array for a
 *	extern char CONFIG_LOCALVERSION[16] __kconfig;          string)
 *
 * Add __weak to accept a kernel that does not know the name: the variable
 * reads as zero there; without it the load fails and names the variable.
 * The values live in the read-only map ".kconfig".
 *
 * __ksym - on an extern variable: a kernel variable, by name. Typed
 * (extern const struct rq runqueues __ksym;) it is found in the kernel's
 * BTF and the program may read it directly (bpf_per_cpu_ptr() and
 * bpf_this_cpu_ptr() for per-CPU ones); declared const void, only its
 * address is taken, from /proc/kallsyms. On an extern function: a kfunc,
 * a kernel function BPF programs may call, found by BTF in vmlinux or a
 * module. __weak makes a missing one NULL (see bpf_ksym_exists()).
 */
#define __kconfig __attribute__((section(".kconfig")))
#define __ksym __attribute__((section(".ksyms")))

/* The values of a tristate CONFIG_ option, for __kconfig variables. */
enum libbpf_tristate {
	TRI_NO = 0,
	TRI_YES = 1,
	TRI_MODULE = 2,
};

/*
 * bpf_ksym_exists(sym) - 1 when the __weak __ksym variable or kfunc sym
 * was found in the running kernel, 0 when not. Guard every use of a weak
 * kfunc with it: the loader replaces the calls of a missing one with an
 * invalid call that the verifier only minds where it can be reached.
 */
#define bpf_ksym_exists(sym)						\
	({								\
		_Static_assert(!__builtin_constant_p(!!(sym)),		\
			       #sym " must be declared __weak for bpf_ksym_exists()"); \
		!!(sym);						\
	})

/*
 * Type tags for pointers the verifier tracks by BTF: __kptr and
 * __kptr_untrusted on a pointer stored in a map value (a referenced or a
 * plain kernel pointer), __percpu_kptr for a per-CPU object allocated with
 * bpf_percpu_obj_new(). Kernels of 6.1 and later read them.
 */
#if defined(__has_attribute) && __has_attribute(btf_type_tag)
#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))
#define __kptr __attribute__((btf_type_tag("kptr")))
#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))
#else
#define __bpfsdk_no_type_tag(what)					\
	__bpfsdk_too_old(what, "btf_type_tag (clang 14 or later): the " \
			 "verifier sees a plain pointer")
#define __kptr_untrusted __bpfsdk_no_type_tag("__kptr_untrusted")
#define __kptr __bpfsdk_no_type_tag("__kptr")
#define __percpu_kptr __bpfsdk_no_type_tag("__percpu_kptr")
#endif

/*
 * Argument tags of global subprograms, telling the verifier more than the
 * C type does: __arg_ctx (the program's context, whatever its C type),
 * __arg_nonnull, __arg_nullable, __arg_trusted (a trusted kernel pointer),
 * __arg_untrusted, __arg_arena. Read by kernels of 6.8 and later.
 */
#if defined(__has_attribute) && __has_attribute(btf_decl_tag)
#define __arg_ctx __attribute__((btf_decl_tag("arg:ctx")))
#define __arg_nonnull __attribute__((btf_decl_tag("arg:nonnull")))
#define __arg_nullable __attribute__((btf_decl_tag("arg:nullable")))
#define __arg_trusted __attribute__((btf_decl_tag("arg:trusted")))
#define __arg_untrusted __attribute__((btf_decl_tag("arg:untrusted")))
#define __arg_arena __attribute__((btf_decl_tag("arg:arena")))
#else
#define __bpfsdk_no_arg_tag(what)					\
	__bpfsdk_too_old(what, "btf_decl_tag (clang 14 or later): the " \
			 "verifier sees the argument's C type only")
#define __arg_ctx __bpfsdk_no_arg_tag("__arg_ctx")
#define __arg_nonnull __bpfsdk_no_arg_tag("__arg_nonnull")
#define __arg_nullable __bpfsdk_no_arg_tag("__arg_nullable")
#define __arg_trusted __bpfsdk_no_arg_tag("__arg_trusted")
#define __arg_untrusted __bpfsdk_no_arg_tag("__arg_untrusted")
#define __arg_arena __bpfsdk_no_arg_tag("__arg_arena")
#endif

/* ---- Small conveniences ------------------------------------------------ */

/* vmlinux.h brings no libc or kernel headers: provide the usual few. */
#ifndef NULL
#define NULL ((void *)0)
#endif

/* KERNEL_VERSION(a, b, c) - a kernel version as LINUX_VERSION_CODE encodes it. */
#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#endif

/*
 * offsetof(type, member) - byte offset of member inside type. Spelled as an
 * address computation rather than __builtin_offsetof so that, on a type
 * marked preserve_access_index (all of vmlinux.h), clang records a CO-RE
 * relocation and the offset follows the running kernel's layout.
 */
#ifndef offsetof
#define offsetof(type, member) ((unsigned long)&((type *)0)->member)
#endif

/* container_of(ptr, type, member) - the type holding *ptr as its member. */
#ifndef container_of
#define container_of(ptr, type, member)					\
	({								\
		void *__bpfsdk_mptr = (void *)(ptr);			\
		((type *)((char *)__bpfsdk_mptr - offsetof(type, member))); \
	})
#endif

/* barrier() - stop the compiler from moving memory accesses across it. */
#ifndef barrier
#define barrier() __asm__ __volatile__("" ::: "memory")
#endif

/*
 * barrier_var(var) - make clang forget what it knows about var's value, so
 * that it keeps a bounds check the verifier needs to see on that register.
 */
#ifndef barrier_var
#define barrier_var(var) __asm__ __volatile__("" : "=r"(var) : "0"(var))
#endif

/* likely(x), unlikely(x) - tell the compiler which way a branch usually goes. */
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* ---- Formatted output --------------------------------------------------- */

/* Argument count of a format's arguments, 0 to 12. */
#define __bpfsdk_fmt_cat_(a, b) a##b
#define __bpfsdk_fmt_cat(a, b) __bpfsdk_fmt_cat_(a, b)
#define __bpfsdk_fmt_nth(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, \
			 _12, N, ...) N
#define __bpfsdk_fmt_narg(...)						\
	__bpfsdk_fmt_nth(_, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/*
 * __bpfsdk_fill(arr, args...) - store each argument in the next 64-bit
 * slot of arr, the form bpf_trace_vprintk(), bpf_seq_printf() and
 * bpf_snprintf() take their arguments in.
 */
#define __bpfsdk_fill0(a, i, ...)
#define __bpfsdk_fill1(a, i, x) a[i] = (unsigned long long)(x);
#define __bpfsdk_fill2(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill1(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill3(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill2(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill4(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill3(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill5(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill4(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill6(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill5(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill7(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill6(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill8(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill7(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill9(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill8(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill10(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill9(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill11(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill10(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill12(a, i, x, ...) __bpfsdk_fill1(a, i, x) __bpfsdk_fill11(a, i + 1, __VA_ARGS__)
#define __bpfsdk_fill(a, ...)						\
	__bpfsdk_fmt_cat(__bpfsdk_fill, __bpfsdk_fmt_narg(__VA_ARGS__))(a, 0, ##__VA_ARGS__)

/*
 * The arguments as an array of 64-bit values, declared as name; its
 * address and size go to the helper. A zero-argument call passes an
 * empty array, which the helpers take with a size of 0.
 */
#define __bpfsdk_args(name, ...)					\
	unsigned long long name[__bpfsdk_fmt_narg(__VA_ARGS__)];	\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")		\
	__bpfsdk_fill(name, ##__VA_ARGS__)				\
	_Pragma("GCC diagnostic pop")

/*
 * bpf_printk(fmt, ...) - print a line to the kernel's trace pipe
 * (/sys/kernel/tracing/trace_pipe): fmt is a string literal, and up to
 * twelve integer or pointer arguments follow. Up to three go through
 * bpf_trace_printk(), which every kernel with BPF tracing has; more need
 * bpf_trace_vprintk() (Linux 5.16). For debugging; the kernel logs a
 * warning when a program that uses it loads.
 *
 * The format is built on the stack rather than kept in .rodata, so a
 * program that prints three arguments or fewer needs no global-data
 * support from its loader. Returns the helper's result.
 */
#define __bpfsdk_printk(fmt, ...)					\
	({								\
		char __bpfsdk_fmt[] = fmt;				\
		bpf_trace_printk(__bpfsdk_fmt, sizeof(__bpfsdk_fmt),	\
				 ##__VA_ARGS__);			\
	})

#define __bpfsdk_vprintk(fmt, ...)					\
	({								\
		static const char __bpfsdk_fmt[] = fmt;			\
		__bpfsdk_args(__bpfsdk_a, __VA_ARGS__)			\
		bpf_trace_vprintk(__bpfsdk_fmt, sizeof(__bpfsdk_fmt),	\
				  __bpfsdk_a, sizeof(__bpfsdk_a));	\
	})

/* Which of the two a call with n arguments takes. */
#define __bpfsdk_printk_pick(...)					\
	__bpfsdk_fmt_nth(_, ##__VA_ARGS__, __bpfsdk_vprintk, __bpfsdk_vprintk, \
			 __bpfsdk_vprintk, __bpfsdk_vprintk, __bpfsdk_vprintk, \
			 __bpfsdk_vprintk, __bpfsdk_vprintk, __bpfsdk_vprintk, \
			 __bpfsdk_vprintk, __bpfsdk_printk, __bpfsdk_printk, \
			 __bpfsdk_printk, __bpfsdk_printk)

#define bpf_printk(fmt, ...)						\
	__bpfsdk_printk_pick(__VA_ARGS__)(fmt, ##__VA_ARGS__)

/*
 * BPF_SEQ_PRINTF(seq, fmt, ...) - print into an iterator's output (seq is
 * ctx->meta->seq in an iter/ program) with bpf_seq_printf(), up to twelve
 * arguments. Returns 0 or a negative error.
 */
#define BPF_SEQ_PRINTF(seq, fmt, ...)					\
	({								\
		static const char __bpfsdk_fmt[] = fmt;			\
		__bpfsdk_args(__bpfsdk_a, __VA_ARGS__)			\
		bpf_seq_printf(seq, __bpfsdk_fmt, sizeof(__bpfsdk_fmt),	\
			       __bpfsdk_a, sizeof(__bpfsdk_a));		\
	})

/*
 * BPF_SNPRINTF(out, out_size, fmt, ...) - format into the buffer out of
 * out_size bytes with bpf_snprintf() (Linux 5.13), up to twelve arguments.
 * Returns the length the whole output needs, NUL included, or a negative
 * error.
 */
#define BPF_SNPRINTF(out, out_size, fmt, ...)				\
	({								\
		static const char __bpfsdk_fmt[] = fmt;			\
		__bpfsdk_args(__bpfsdk_a, __VA_ARGS__)			\
		bpf_snprintf(out, out_size, __bpfsdk_fmt, __bpfsdk_a,	\
			     sizeof(__bpfsdk_a));			\
	})

/* ---- Open-coded loops (Linux 6.4 iterator kfuncs) ----------------------- */

/*
 * The kfuncs behind bpf_for() and bpf_repeat(): a numbers iterator the
 * verifier understands, so that a loop's bound need not be a constant it
 * can unroll. struct bpf_iter_num comes from vmlinux.h (or linux/bpf.h) of
 * 6.4 or later; kernels before 6.4 do not have these kfuncs, and a program
 * using the loops fails to load there.
 */
struct bpf_iter_num;
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end)
	__weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

/*
 * bpf_for_each(type, cur, args...) - walk an open-coded iterator of kind
 * type (num, task, css, ...: the kfuncs bpf_iter_<type>_new/_next/_destroy,
 * which the program declares), cur pointing at each element in turn. The
 * iterator is destroyed when the loop is left, by any path: the cleanup
 * attribute runs the destructor at the end of the for scope.
 */
#define bpf_for_each(type, cur, args...)				\
	for (struct bpf_iter_##type __bpfsdk_it				\
		__attribute__((aligned(8), cleanup(bpf_iter_##type##_destroy))), \
	     *__bpfsdk_once __attribute__((unused)) =			\
		(bpf_iter_##type##_new(&__bpfsdk_it, ##args),		\
		 /* clang emits no BTF for a function named only in cleanup() */ \
		 (void)bpf_iter_##type##_destroy, (void *)0);		\
	     (((cur) = bpf_iter_##type##_next(&__bpfsdk_it)));)

/*
 * bpf_for(i, start, end) - for (i = start; i < end; i++), for any bounds
 * known only at run time. The range check on each value is for the
 * verifier, which then knows start <= i < end inside the body.
 */
#define bpf_for(i, start, end)						\
	for (struct bpf_iter_num __bpfsdk_it				\
		__attribute__((aligned(8), cleanup(bpf_iter_num_destroy))), \
	     *__bpfsdk_once __attribute__((unused)) =			\
		(bpf_iter_num_new(&__bpfsdk_it, (start), (end)),	\
		 (void)bpf_iter_num_destroy, (void *)0);		\
	     ({								\
		int *__bpfsdk_t = bpf_iter_num_next(&__bpfsdk_it);	\
		(__bpfsdk_t && ((i) = *__bpfsdk_t, (i) >= (start) && (i) < (end))); \
	     });)

/* bpf_repeat(n) - run the body n times, n known only at run time. */
#define bpf_repeat(n)							\
	for (struct bpf_iter_num __bpfsdk_it				\
		__attribute__((aligned(8), cleanup(bpf_iter_num_destroy))), \
	     *__bpfsdk_once __attribute__((unused)) =			\
		(bpf_iter_num_new(&__bpfsdk_it, 0, (n)),		\
		 (void)bpf_iter_num_destroy, (void *)0);		\
	     bpf_iter_num_next(&__bpfsdk_it);)

#endif /* BPFSDK_BPF_HELPERS_H */
