/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_tracing.h - function arguments and return values in tracing programs.
 *
 * A kprobe program receives the registers of the probed function as a
 * struct pt_regs *; which register holds which argument is a matter of the
 * architecture's calling convention. PT_REGS_PARM1(ctx) and friends name
 * them portably, and BPF_KPROBE()/BPF_KRETPROBE()/BPF_PROG() let a program
 * declare typed arguments instead of reading registers by hand:
 *
 *	SEC("kprobe/do_unlinkat")
 *	int BPF_KPROBE(on_unlink, int dfd, struct filename *name)
 *	{
 *		...
 *	}
 *
 * The architecture is the one of the kernel the program will run on, given
 * at build time: clang -D__TARGET_ARCH_x86 (x86_64) or -D__TARGET_ARCH_arm64
 * (the bpfsdk Makefile passes the right one from uname -m). -target bpf
 * itself says nothing about it, so without one of these the header stops.
 *
 * Register layouts, UAPI headers and vmlinux.h: the macros do not read
 * through the program's own struct pt_regs, because its field names depend
 * on where it came from. On x86_64 the UAPI <asm/ptrace.h> spells them rdi,
 * rsi, rax, rip, ... while the kernel (and so vmlinux.h and kernel BTF)
 * spells them di, si, ax, ip, ...; arm64's UAPI has no struct pt_regs at
 * all, only struct user_pt_regs. So this header carries its own copy of
 * each layout, with the kernel's names: struct pt_regs___bpfsdk (x86_64)
 * and struct user_pt_regs___bpfsdk (arm64). The layouts are kernel ABI
 * (the ptrace interface exposes them), so direct reads are right on every
 * kernel; and the "___bpfsdk" suffix is a CO-RE flavor, which CO-RE loaders
 * ignore when matching names, so the _CORE variants relocate against the
 * kernel's struct pt_regs and struct user_pt_regs. A program may include
 * either linux/ptrace.h or vmlinux.h, or neither; the macros work the same.
 *
 * Needs bpf_helpers.h (this header includes it, and bpf_core_read.h for the
 * _CORE variants). Names and meaning are libbpf's.
 */
#ifndef BPFSDK_BPF_TRACING_H
#define BPFSDK_BPF_TRACING_H

#include "bpf_helpers.h"
#include "bpf_core_read.h"

/* The context type of kprobes; its layout never matters here. */
struct pt_regs;

#if defined(__TARGET_ARCH_x86) && defined(__TARGET_ARCH_arm64)
#error "bpf_tracing.h: both __TARGET_ARCH_x86 and __TARGET_ARCH_arm64 are defined; define only the one of the kernel the program runs on"

#elif defined(__TARGET_ARCH_x86)

/* x86_64 struct pt_regs as the kernel saves it on entry. */
struct pt_regs___bpfsdk {
	unsigned long r15;
	unsigned long r14;
	unsigned long r13;
	unsigned long r12;
	unsigned long bp;
	unsigned long bx;
	unsigned long r11;
	unsigned long r10;
	unsigned long r9;
	unsigned long r8;
	unsigned long ax;
	unsigned long cx;
	unsigned long dx;
	unsigned long si;
	unsigned long di;
	unsigned long orig_ax;
	unsigned long ip;
	unsigned long cs;
	unsigned long flags;
	unsigned long sp;
	unsigned long ss;
};

#define __bpfsdk_regs(x) ((const struct pt_regs___bpfsdk *)(x))
#define __bpfsdk_regs_core(x) ((struct pt_regs___bpfsdk *)(x))

/* System V AMD64 ABI: arguments in rdi, rsi, rdx, rcx, r8, r9; result in rax. */
#define __BPFSDK_PARM1 di
#define __BPFSDK_PARM2 si
#define __BPFSDK_PARM3 dx
#define __BPFSDK_PARM4 cx
#define __BPFSDK_PARM5 r8
#define __BPFSDK_PARM6 r9
#define __BPFSDK_RC    ax
#define __BPFSDK_IP    ip
#define __BPFSDK_SP    sp
#define __BPFSDK_FP    bp

/* The syscall ABI: the fourth argument is in r10, rcx holding the return
 * address of the syscall instruction. */
#define __BPFSDK_SYS_PARM1 di
#define __BPFSDK_SYS_PARM2 si
#define __BPFSDK_SYS_PARM3 dx
#define __BPFSDK_SYS_PARM4 r10
#define __BPFSDK_SYS_PARM5 r8
#define __BPFSDK_SYS_PARM6 r9
#define __bpfsdk_sysregs(x) __bpfsdk_regs(x)
#define __bpfsdk_sysregs_core(x) __bpfsdk_regs_core(x)

#elif defined(__TARGET_ARCH_arm64)

/* arm64 user_pt_regs: x0..x30, sp, pc, pstate; the head of struct pt_regs. */
struct user_pt_regs___bpfsdk {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};

/* arm64 struct pt_regs begins with user_pt_regs, then orig_x0: the first
 * syscall argument, as x0 is overwritten by the return value. */
struct pt_regs___bpfsdk_arm64 {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
	__u64 orig_x0;
};

#define __bpfsdk_regs(x) ((const struct user_pt_regs___bpfsdk *)(x))
#define __bpfsdk_regs_core(x) ((struct user_pt_regs___bpfsdk *)(x))
#define __bpfsdk_sysregs(x) ((const struct pt_regs___bpfsdk_arm64 *)(x))
#define __bpfsdk_sysregs_core(x) ((struct pt_regs___bpfsdk_arm64 *)(x))

/* AAPCS64: arguments in x0..x7, result in x0, frame pointer x29. */
#define __BPFSDK_PARM1 regs[0]
#define __BPFSDK_PARM2 regs[1]
#define __BPFSDK_PARM3 regs[2]
#define __BPFSDK_PARM4 regs[3]
#define __BPFSDK_PARM5 regs[4]
#define __BPFSDK_PARM6 regs[5]
#define __BPFSDK_PARM7 regs[6]
#define __BPFSDK_PARM8 regs[7]
#define __BPFSDK_RC    regs[0]
#define __BPFSDK_IP    pc
#define __BPFSDK_SP    sp
#define __BPFSDK_FP    regs[29]
#define __BPFSDK_RET   regs[30]

#define __BPFSDK_SYS_PARM1 orig_x0
#define __BPFSDK_SYS_PARM2 regs[1]
#define __BPFSDK_SYS_PARM3 regs[2]
#define __BPFSDK_SYS_PARM4 regs[3]
#define __BPFSDK_SYS_PARM5 regs[4]
#define __BPFSDK_SYS_PARM6 regs[5]

#else
#error "bpf_tracing.h: no target architecture; build with -D__TARGET_ARCH_x86 (x86_64) or -D__TARGET_ARCH_arm64, the architecture of the kernel the program runs on"
#endif

/*
 * PT_REGS_PARM1(x) .. PT_REGS_PARM6(x) - the first six integer or pointer
 * arguments of the probed function, from x, a struct pt_regs * (a kprobe's
 * or uprobe's context); arm64 has PT_REGS_PARM7 and PT_REGS_PARM8 too, as
 * it passes eight in registers. Valid at function entry only: the function
 * may reuse the registers afterwards. Read the context directly, which the
 * verifier allows for a kprobe's own context.
 */
#define PT_REGS_PARM1(x) (__bpfsdk_regs(x)->__BPFSDK_PARM1)
#define PT_REGS_PARM2(x) (__bpfsdk_regs(x)->__BPFSDK_PARM2)
#define PT_REGS_PARM3(x) (__bpfsdk_regs(x)->__BPFSDK_PARM3)
#define PT_REGS_PARM4(x) (__bpfsdk_regs(x)->__BPFSDK_PARM4)
#define PT_REGS_PARM5(x) (__bpfsdk_regs(x)->__BPFSDK_PARM5)
#define PT_REGS_PARM6(x) (__bpfsdk_regs(x)->__BPFSDK_PARM6)
#ifdef __BPFSDK_PARM7
#define PT_REGS_PARM7(x) (__bpfsdk_regs(x)->__BPFSDK_PARM7)
#define PT_REGS_PARM8(x) (__bpfsdk_regs(x)->__BPFSDK_PARM8)
#endif

/* PT_REGS_RC(x) - the return value, in a kretprobe. */
#define PT_REGS_RC(x) (__bpfsdk_regs(x)->__BPFSDK_RC)

/* PT_REGS_IP(x) - the instruction pointer (the probed address, in a kprobe). */
#define PT_REGS_IP(x) (__bpfsdk_regs(x)->__BPFSDK_IP)

/* PT_REGS_SP(x) - the stack pointer. */
#define PT_REGS_SP(x) (__bpfsdk_regs(x)->__BPFSDK_SP)

/* PT_REGS_FP(x) - the frame pointer (meaningful when the kernel keeps one). */
#define PT_REGS_FP(x) (__bpfsdk_regs(x)->__BPFSDK_FP)

/*
 * PT_REGS_PARM1_CORE(x) .. PT_REGS_FP_CORE(x) - the same registers read
 * with BPF_CORE_READ() through a pointer that is not the program's context:
 * a struct pt_regs * found in memory, e.g. the one a syscall wrapper
 * receives as its first argument, or from bpf_task_pt_regs().
 */
#define PT_REGS_PARM1_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM1)
#define PT_REGS_PARM2_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM2)
#define PT_REGS_PARM3_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM3)
#define PT_REGS_PARM4_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM4)
#define PT_REGS_PARM5_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM5)
#define PT_REGS_PARM6_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM6)
#ifdef __BPFSDK_PARM7
#define PT_REGS_PARM7_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM7)
#define PT_REGS_PARM8_CORE(x) BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_PARM8)
#endif
#define PT_REGS_RC_CORE(x)    BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_RC)
#define PT_REGS_IP_CORE(x)    BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_IP)
#define PT_REGS_SP_CORE(x)    BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_SP)
#define PT_REGS_FP_CORE(x)    BPF_CORE_READ(__bpfsdk_regs_core(x), __BPFSDK_FP)

/*
 * The arguments of a system call, which the architecture's syscall ABI
 * puts in other registers than a function call (x86_64 passes the fourth
 * in r10, arm64 keeps the first in orig_x0). PT_REGS_PARMn_SYSCALL(x)
 * reads them from x directly; PT_REGS_PARMn_CORE_SYSCALL(x) with a probe
 * read, for the struct pt_regs * a syscall wrapper receives.
 */
#define PT_REGS_PARM1_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM1)
#define PT_REGS_PARM2_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM2)
#define PT_REGS_PARM3_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM3)
#define PT_REGS_PARM4_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM4)
#define PT_REGS_PARM5_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM5)
#define PT_REGS_PARM6_SYSCALL(x) (__bpfsdk_sysregs(x)->__BPFSDK_SYS_PARM6)
#define PT_REGS_PARM1_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM1)
#define PT_REGS_PARM2_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM2)
#define PT_REGS_PARM3_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM3)
#define PT_REGS_PARM4_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM4)
#define PT_REGS_PARM5_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM5)
#define PT_REGS_PARM6_CORE_SYSCALL(x) BPF_CORE_READ(__bpfsdk_sysregs_core(x), __BPFSDK_SYS_PARM6)

/*
 * PT_REGS_SYSCALL_REGS(ctx) - in a kprobe on a syscall's entry point
 * (__x64_sys_openat) of a kernel built with syscall wrappers (x86_64 since
 * 4.17, arm64 since 4.19), the struct pt_regs * holding the syscall's own
 * arguments: the wrapper's first argument.
 */
#define PT_REGS_SYSCALL_REGS(ctx) ((struct pt_regs *)PT_REGS_PARM1(ctx))

/*
 * BPF_KPROBE_READ_RET_IP(ip, ctx) - the return address of the probed
 * function, at its entry; BPF_KRETPROBE_READ_RET_IP(ip, ctx) - the same in
 * a kretprobe. x86_64 keeps it on the stack, arm64 in the link register.
 */
#ifdef __BPFSDK_RET
#define BPF_KPROBE_READ_RET_IP(ip, ctx) ({ (ip) = __bpfsdk_regs(ctx)->__BPFSDK_RET; })
#define BPF_KRETPROBE_READ_RET_IP(ip, ctx) ({ (ip) = __bpfsdk_regs(ctx)->__BPFSDK_RET; })
#else
#define BPF_KPROBE_READ_RET_IP(ip, ctx)						({ bpf_probe_read_kernel(&(ip), sizeof(ip), (void *)PT_REGS_SP(ctx)); })
#define BPF_KRETPROBE_READ_RET_IP(ip, ctx)					({ bpf_probe_read_kernel(&(ip), sizeof(ip),							 (void *)(PT_REGS_FP(ctx) + sizeof(ip))); })
#endif

/* ---- Typed wrappers ---------------------------------------------------- */

/* Argument count of a wrapper's parameter list, 0 to 12. */
#define __bpfsdk_argc_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11,	\
		       _12, N, ...) N
#define __bpfsdk_argc(...)						\
	__bpfsdk_argc_(_, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/*
 * The wrappers call the user's body as an inline function whose parameters
 * have the declared types, passing each register as a void *. Pointer
 * parameters take that as it is; integer parameters get it converted,
 * which clang reports as -Wint-conversion: the conversion is the point
 * here, so the wrappers switch that one warning off around the call.
 */
#define __bpfsdk_call_begin						\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")
#define __bpfsdk_call_end _Pragma("GCC diagnostic pop")

/*
 * __bpfsdk_wrap(name, ctx_type, pass, args...) - what every wrapper below
 * expands to: the program name(ctx_type ctx), which calls the user's body,
 * an inline function taking ctx and the declared args, with the values
 * pass(args...) computes from ctx. What follows the macro in the source
 * is the body's definition.
 */
#define __bpfsdk_wrap(name, ctx_type, pass, ...)			\
name(ctx_type ctx);							\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(ctx_type ctx __attribute__((unused)), ##__VA_ARGS__);\
__typeof__(name(0)) name(ctx_type ctx)					\
{									\
	__bpfsdk_call_begin						\
	return __bpfsdk_body_##name(pass(__VA_ARGS__));			\
	__bpfsdk_call_end						\
}									\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(ctx_type ctx __attribute__((unused)), ##__VA_ARGS__)

#define __bpfsdk_kprobe_args0()           ctx
#define __bpfsdk_kprobe_args1(a)          __bpfsdk_kprobe_args0(), (void *)PT_REGS_PARM1(ctx)
#define __bpfsdk_kprobe_args2(a, b)       __bpfsdk_kprobe_args1(a), (void *)PT_REGS_PARM2(ctx)
#define __bpfsdk_kprobe_args3(a, b, c)    __bpfsdk_kprobe_args2(a, b), (void *)PT_REGS_PARM3(ctx)
#define __bpfsdk_kprobe_args4(a, b, c, d) __bpfsdk_kprobe_args3(a, b, c), (void *)PT_REGS_PARM4(ctx)
#define __bpfsdk_kprobe_args5(a, b, c, d, e) \
	__bpfsdk_kprobe_args4(a, b, c, d), (void *)PT_REGS_PARM5(ctx)
#define __bpfsdk_kprobe_args6(a, b, c, d, e, f) \
	__bpfsdk_kprobe_args5(a, b, c, d, e), (void *)PT_REGS_PARM6(ctx)
#ifdef __BPFSDK_PARM7
#define __bpfsdk_kprobe_args7(a, b, c, d, e, f, g) \
	__bpfsdk_kprobe_args6(a, b, c, d, e, f), (void *)PT_REGS_PARM7(ctx)
#define __bpfsdk_kprobe_args8(a, b, c, d, e, f, g, h) \
	__bpfsdk_kprobe_args7(a, b, c, d, e, f, g), (void *)PT_REGS_PARM8(ctx)
#endif
#define __bpfsdk_kprobe_args(...)					\
	__bpfsdk_cat(__bpfsdk_kprobe_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

/*
 * BPF_KPROBE(name, args...) - define kprobe program name whose body sees
 * the probed function's first arguments (at most six; eight on arm64) as typed
 * parameters, plus ctx, the struct pt_regs *:
 *
 *	SEC("kprobe/vfs_read")
 *	int BPF_KPROBE(trace_read, struct file *file, char *buf, __u64 count)
 *	{
 *		bpf_printk("read %llu bytes", count);
 *		return 0;
 *	}
 *
 * The return type written before BPF_KPROBE is the program's (int).
 */
#define BPF_KPROBE(name, ...)						\
	__bpfsdk_wrap(name, struct pt_regs *, __bpfsdk_kprobe_args, ##__VA_ARGS__)

#define __bpfsdk_kretprobe_args0()  ctx
#define __bpfsdk_kretprobe_args1(a) ctx, (void *)PT_REGS_RC(ctx)
#define __bpfsdk_kretprobe_args(...)					\
	__bpfsdk_cat(__bpfsdk_kretprobe_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

/*
 * BPF_KRETPROBE(name, ret) - define kretprobe program name whose body sees
 * the probed function's return value as a typed parameter (optional), plus
 * ctx. The function's arguments are gone by then.
 *
 *	SEC("kretprobe/vfs_read")
 *	int BPF_KRETPROBE(read_done, long ret)
 */
#define BPF_KRETPROBE(name, ...)						\
	__bpfsdk_wrap(name, struct pt_regs *, __bpfsdk_kretprobe_args, ##__VA_ARGS__)

#define __bpfsdk_ctx_args0()  ctx
#define __bpfsdk_ctx_args1(a) __bpfsdk_ctx_args0(), (void *)ctx[0]
#define __bpfsdk_ctx_args2(a, b) __bpfsdk_ctx_args1(a), (void *)ctx[1]
#define __bpfsdk_ctx_args3(a, b, c) __bpfsdk_ctx_args2(a, b), (void *)ctx[2]
#define __bpfsdk_ctx_args4(a, b, c, d) __bpfsdk_ctx_args3(a, b, c), (void *)ctx[3]
#define __bpfsdk_ctx_args5(a, b, c, d, e) \
	__bpfsdk_ctx_args4(a, b, c, d), (void *)ctx[4]
#define __bpfsdk_ctx_args6(a, b, c, d, e, f) \
	__bpfsdk_ctx_args5(a, b, c, d, e), (void *)ctx[5]
#define __bpfsdk_ctx_args7(a, b, c, d, e, f, g) \
	__bpfsdk_ctx_args6(a, b, c, d, e, f), (void *)ctx[6]
#define __bpfsdk_ctx_args8(a, b, c, d, e, f, g, h) \
	__bpfsdk_ctx_args7(a, b, c, d, e, f, g), (void *)ctx[7]
#define __bpfsdk_ctx_args9(a, b, c, d, e, f, g, h, i) \
	__bpfsdk_ctx_args8(a, b, c, d, e, f, g, h), (void *)ctx[8]
#define __bpfsdk_ctx_args10(a, b, c, d, e, f, g, h, i, j) \
	__bpfsdk_ctx_args9(a, b, c, d, e, f, g, h, i), (void *)ctx[9]
#define __bpfsdk_ctx_args11(a, b, c, d, e, f, g, h, i, j, k) \
	__bpfsdk_ctx_args10(a, b, c, d, e, f, g, h, i, j), (void *)ctx[10]
#define __bpfsdk_ctx_args12(a, b, c, d, e, f, g, h, i, j, k, l) \
	__bpfsdk_ctx_args11(a, b, c, d, e, f, g, h, i, j, k), (void *)ctx[11]
#define __bpfsdk_ctx_args(...)						\
	__bpfsdk_cat(__bpfsdk_ctx_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

/*
 * BPF_PROG(name, args...) - define a program whose context is an array of
 * 64-bit arguments (fentry/fexit, tp_btf, raw_tp, lsm, struct_ops), with
 * the body seeing them as typed parameters (at most twelve), plus ctx, the
 * unsigned long long * array:
 *
 *	SEC("tp_btf/sched_switch")
 *	int BPF_PROG(on_switch, bool preempt, struct task_struct *prev,
 *		     struct task_struct *next)
 *
 * Arguments are taken whole from each 64-bit slot, so integer types must be
 * at most 64 bits wide (a struct passed by value does not fit this scheme).
 */
#define BPF_PROG(name, ...)						\
	__bpfsdk_wrap(name, unsigned long long *, __bpfsdk_ctx_args, ##__VA_ARGS__)

/*
 * BPF_PROG2(name, type1, arg1, type2, arg2, ...) - BPF_PROG for functions
 * that take structs by value: each argument is given as its type and its
 * name, separately, so that the wrapper knows its size. A struct of 9 to
 * 16 bytes fills two 64-bit context slots, anything smaller one; the
 * slots of the arguments after it move accordingly. Up to six arguments.
 *
 *	SEC("fentry/bpf_testmod_test_struct_arg_1")
 *	int BPF_PROG2(test, struct bpf_testmod_struct_arg_2, a, int, b)
 */
#define __bpfsdk_p2_slots(t) ((sizeof(t) + 7) / 8)
/* The value of type t that starts at slot s (little-endian: the low bytes
 * of a slot are the value's). */
#define __bpfsdk_p2_arg(t, s)						\
	({								\
		union { t v; unsigned long long u[2]; } __bpfsdk_u = {}; \
		__bpfsdk_u.u[0] = ctx[s];				\
		if (sizeof(t) > 8)					\
			__bpfsdk_u.u[1] = ctx[(s) + 1];			\
		__bpfsdk_u.v;						\
	})
#define __bpfsdk_p2_decl0()
#define __bpfsdk_p2_decl1(t, a) , t a
#define __bpfsdk_p2_decl2(t, a, ...) , t a __bpfsdk_p2_decl1(__VA_ARGS__)
#define __bpfsdk_p2_decl3(t, a, ...) , t a __bpfsdk_p2_decl2(__VA_ARGS__)
#define __bpfsdk_p2_decl4(t, a, ...) , t a __bpfsdk_p2_decl3(__VA_ARGS__)
#define __bpfsdk_p2_decl5(t, a, ...) , t a __bpfsdk_p2_decl4(__VA_ARGS__)
#define __bpfsdk_p2_decl6(t, a, ...) , t a __bpfsdk_p2_decl5(__VA_ARGS__)
#define __bpfsdk_p2_val0(s)
#define __bpfsdk_p2_val1(s, t, a) , __bpfsdk_p2_arg(t, s)
#define __bpfsdk_p2_val2(s, t, a, ...) \
	__bpfsdk_p2_val1(s, t, a) __bpfsdk_p2_val1((s) + __bpfsdk_p2_slots(t), __VA_ARGS__)
#define __bpfsdk_p2_val3(s, t, a, ...) \
	__bpfsdk_p2_val1(s, t, a) __bpfsdk_p2_val2((s) + __bpfsdk_p2_slots(t), __VA_ARGS__)
#define __bpfsdk_p2_val4(s, t, a, ...) \
	__bpfsdk_p2_val1(s, t, a) __bpfsdk_p2_val3((s) + __bpfsdk_p2_slots(t), __VA_ARGS__)
#define __bpfsdk_p2_val5(s, t, a, ...) \
	__bpfsdk_p2_val1(s, t, a) __bpfsdk_p2_val4((s) + __bpfsdk_p2_slots(t), __VA_ARGS__)
#define __bpfsdk_p2_val6(s, t, a, ...) \
	__bpfsdk_p2_val1(s, t, a) __bpfsdk_p2_val5((s) + __bpfsdk_p2_slots(t), __VA_ARGS__)
/* Pairs in the list: half the argument count, which must be even. */
#define __bpfsdk_p2_pairs(...)						\
	__bpfsdk_argc_(_, ##__VA_ARGS__, 6, odd, 5, odd, 4, odd, 3, odd, 2, odd, 1, odd, 0)
#define __bpfsdk_p2_decl(...)						\
	__bpfsdk_cat(__bpfsdk_p2_decl, __bpfsdk_p2_pairs(__VA_ARGS__))(__VA_ARGS__)
#define __bpfsdk_p2_vals(...)						\
	__bpfsdk_cat(__bpfsdk_p2_val, __bpfsdk_p2_pairs(__VA_ARGS__))(0, ##__VA_ARGS__)

#define BPF_PROG2(name, ...)						\
name(unsigned long long *ctx);						\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(unsigned long long *ctx __attribute__((unused)) __bpfsdk_p2_decl(__VA_ARGS__)); \
__typeof__(name(0)) name(unsigned long long *ctx)			\
{									\
	return __bpfsdk_body_##name(ctx __bpfsdk_p2_vals(__VA_ARGS__));	\
}									\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(unsigned long long *ctx __attribute__((unused)) __bpfsdk_p2_decl(__VA_ARGS__))

/*
 * BPF_UPROBE(name, args...), BPF_URETPROBE(name, ret) - the same wrappers
 * for uprobes and uretprobes, whose context is the user registers in the
 * same struct pt_regs:
 *
 *	SEC("uretprobe//bin/bash:readline")
 *	int BPF_URETPROBE(on_readline, const char *line)
 */
#define BPF_UPROBE(name, ...) BPF_KPROBE(name, ##__VA_ARGS__)
#define BPF_URETPROBE(name, ...) BPF_KRETPROBE(name, ##__VA_ARGS__)

/*
 * The syscall's arguments as void *, read directly from the probe's own
 * registers (no wrapper: the kprobe sees the syscall's registers) or with
 * probe reads from the wrapper's struct pt_regs *regs.
 */
#define __bpfsdk_sys_args0()              ctx
#define __bpfsdk_sys_args1(a)             __bpfsdk_sys_args0(), (void *)PT_REGS_PARM1_SYSCALL(ctx)
#define __bpfsdk_sys_args2(a, b)          __bpfsdk_sys_args1(a), (void *)PT_REGS_PARM2_SYSCALL(ctx)
#define __bpfsdk_sys_args3(a, b, c)       __bpfsdk_sys_args2(a, b), (void *)PT_REGS_PARM3_SYSCALL(ctx)
#define __bpfsdk_sys_args4(a, b, c, d)    __bpfsdk_sys_args3(a, b, c), (void *)PT_REGS_PARM4_SYSCALL(ctx)
#define __bpfsdk_sys_args5(a, b, c, d, e) __bpfsdk_sys_args4(a, b, c, d), (void *)PT_REGS_PARM5_SYSCALL(ctx)
#define __bpfsdk_sys_args6(a, b, c, d, e, f) \
	__bpfsdk_sys_args5(a, b, c, d, e), (void *)PT_REGS_PARM6_SYSCALL(ctx)
#define __bpfsdk_sys_args(...)						\
	__bpfsdk_cat(__bpfsdk_sys_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

#define __bpfsdk_syswrap_args0()             ctx
#define __bpfsdk_syswrap_args1(a)            __bpfsdk_syswrap_args0(), (void *)PT_REGS_PARM1_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args2(a, b)         __bpfsdk_syswrap_args1(a), (void *)PT_REGS_PARM2_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args3(a, b, c)      __bpfsdk_syswrap_args2(a, b), (void *)PT_REGS_PARM3_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args4(a, b, c, d)   __bpfsdk_syswrap_args3(a, b, c), (void *)PT_REGS_PARM4_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args5(a, b, c, d, e) \
	__bpfsdk_syswrap_args4(a, b, c, d), (void *)PT_REGS_PARM5_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args6(a, b, c, d, e, f) \
	__bpfsdk_syswrap_args5(a, b, c, d, e), (void *)PT_REGS_PARM6_CORE_SYSCALL(regs)
#define __bpfsdk_syswrap_args(...)						\
	__bpfsdk_cat(__bpfsdk_syswrap_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

/*
 * BPF_KSYSCALL(name, args...) - define a ksyscall/ (or kprobe) program on
 * a system call whose body sees the syscall's arguments (at most six) as
 * typed parameters, plus ctx:
 *
 *	SEC("ksyscall/kill")
 *	int BPF_KSYSCALL(on_kill, pid_t pid, int sig)
 *
 * Kernels built with syscall wrappers (LINUX_HAS_SYSCALL_WRAPPER, which
 * the loader sets) pass the syscall a struct pt_regs * of the user
 * registers: the arguments are read through it with probe reads. Without
 * wrappers they are in the probe's own registers. BPF_KPROBE_SYSCALL is
 * the older name.
 */
extern _Bool LINUX_HAS_SYSCALL_WRAPPER __kconfig;

#define BPF_KSYSCALL(name, ...)						\
name(struct pt_regs *ctx);						\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(struct pt_regs *ctx __attribute__((unused)), ##__VA_ARGS__);\
__typeof__(name(0)) name(struct pt_regs *ctx)				\
{									\
	struct pt_regs *regs __attribute__((unused)) =			\
		LINUX_HAS_SYSCALL_WRAPPER ? PT_REGS_SYSCALL_REGS(ctx) : ctx; \
	__bpfsdk_call_begin						\
	if (LINUX_HAS_SYSCALL_WRAPPER)					\
		return __bpfsdk_body_##name(__bpfsdk_syswrap_args(__VA_ARGS__)); \
	return __bpfsdk_body_##name(__bpfsdk_sys_args(__VA_ARGS__));	\
	__bpfsdk_call_end						\
}									\
static __always_inline __typeof__(name(0))				\
__bpfsdk_body_##name(struct pt_regs *ctx __attribute__((unused)), ##__VA_ARGS__)

#define BPF_KPROBE_SYSCALL BPF_KSYSCALL

#endif /* BPFSDK_BPF_TRACING_H */
