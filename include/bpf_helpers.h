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
 *	#include "bpf_helpers.h"
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
 * Needs clang 14 or later (btf_decl_tag); older compilers stop with an
 * error that says so. A kernel older than 5.16 rejects BTF with decl tags:
 * a loader for such kernels must drop or replace them before loading BTF.
 */
#define BPFSDK_RECORD_TAG_PREFIX "bpfsdk.record:"

#if defined(__has_attribute) && __has_attribute(btf_decl_tag)
#define BPFSDK_RECORD(name)						\
	static struct name *__bpfsdk_record_##name			\
		__attribute__((section(".bpfsdk.records"), used));	\
	__attribute__((btf_decl_tag(BPFSDK_RECORD_TAG_PREFIX #name)))
#else
#define BPFSDK_RECORD(name)						\
	_Static_assert(0, "BPFSDK_RECORD(" #name ") needs the btf_decl_tag " \
		       "attribute of clang 14 or later");
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

/* __weak - a definition another object may override when objects are linked. */
#ifndef __weak
#define __weak __attribute__((weak))
#endif

/*
 * __hidden - hidden visibility: a global subprogram the verifier checks with
 * its caller's context (like a static one), and that bpftool's static linker
 * does not export.
 */
#define __hidden __attribute__((visibility("hidden")))

/*
 * __ksym - on an extern variable or function: resolve it against a kernel
 * symbol (kallsyms, or a kfunc by BTF) at load time.
 * __kconfig - on an extern variable: fill it at load time from the running
 * kernel's configuration (CONFIG_xxx) or from LINUX_KERNEL_VERSION.
 * Both need a loader that implements them.
 */
#define __ksym __attribute__((section(".ksyms")))
#define __kconfig __attribute__((section(".kconfig")))

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

/*
 * bpf_printk(fmt, ...) - print a line to the kernel's trace pipe
 * (/sys/kernel/tracing/trace_pipe) with bpf_trace_printk(): fmt is a string
 * literal, and up to three integer or pointer arguments follow. For
 * debugging; the kernel logs a warning when a program that uses it loads.
 *
 * The format is built on the stack rather than kept in .rodata, so a
 * program that uses bpf_printk() needs no global-data support from its
 * loader. Returns bpf_trace_printk()'s result.
 */
#define bpf_printk(fmt, ...)						\
	({								\
		char __bpfsdk_fmt[] = fmt;				\
		bpf_trace_printk(__bpfsdk_fmt, sizeof(__bpfsdk_fmt),	\
				 ##__VA_ARGS__);			\
	})

#endif /* BPFSDK_BPF_HELPERS_H */
