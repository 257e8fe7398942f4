/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * usdt.bpf.h - read the arguments of USDT probes (the static tracepoints
 * of <sys/sdt.h>: DTRACE_PROBE2(myapp, request, id, len)) in a program
 * attached to them.
 *
 *	SEC("usdt/./myapp:myapp:request")
 *	int BPF_USDT(on_request, long id, int len)
 *	{
 *		...
 *	}
 *
 * A USDT site is a nop in the traced program plus a note in its
 * .note.stapsdt section saying, for each argument, where the compiler put
 * it at that spot: "-4@%edi" (a signed 4-byte value in edi), "8@-8(%rbp)"
 * (8 bytes in memory at rbp - 8), "-4@$5" (the constant 5). Each site can
 * say something different, so the program cannot know at build time. The
 * loader parses the notes, attaches a uprobe at each site, and writes one
 * spec per distinct argument layout into the map __bpf_usdt_specs; the
 * uprobe's BPF cookie carries the spec's index (kernels without cookies,
 * before 5.15, find it by instruction pointer in __bpf_usdt_ip_to_spec_id).
 * bpf_usdt_arg() then reads argument n the way the spec says.
 *
 * The maps, the spec layout and the function names are those of libbpf's
 * usdt.bpf.h, so a loader fills the specs of objects built with either
 * header the same way, and programs written for one build with the other.
 *
 * Needs bpf_helpers.h and bpf_tracing.h (included), so the program builds
 * with -D__TARGET_ARCH_x86 or -D__TARGET_ARCH_arm64.
 */
#ifndef BPFSDK_USDT_BPF_H
#define BPFSDK_USDT_BPF_H

#include "bpf_helpers.h"
#include "bpf_tracing.h"

/* How many distinct argument layouts, and sites, one object may use. */
#ifndef BPF_USDT_MAX_SPEC_CNT
#define BPF_USDT_MAX_SPEC_CNT 256
#endif
#ifndef BPF_USDT_MAX_IP_CNT
#define BPF_USDT_MAX_IP_CNT (4 * BPF_USDT_MAX_SPEC_CNT)
#endif

/* The most arguments a USDT probe has (a limit of <sys/sdt.h>). */
#define BPF_USDT_MAX_ARG_CNT 12

/* Where an argument lives at a site. */
enum __bpf_usdt_arg_type {
	BPF_USDT_ARG_CONST,	/* the value is val_off itself ("$5") */
	BPF_USDT_ARG_REG,	/* in the register at reg_off ("%edi") */
	BPF_USDT_ARG_REG_DEREF,	/* in user memory at register + val_off ("-8(%rbp)") */
};

/*
 * One argument's place, as the loader writes it. reg_off is the byte
 * offset of the register in the probe's struct pt_regs. The value is read
 * as 8 bytes and narrowed to its real width by shifting it left by
 * arg_bitshift (64 - 8 * size) and back, arithmetically when arg_signed.
 */
struct __bpf_usdt_arg_spec {
	__u64 val_off;
	enum __bpf_usdt_arg_type arg_type;
	short reg_off;
	_Bool arg_signed;
	char arg_bitshift;
};

/* One layout of a probe's arguments, and the cookie the attacher gave. */
struct __bpf_usdt_spec {
	struct __bpf_usdt_arg_spec args[BPF_USDT_MAX_ARG_CNT];
	__u64 usdt_cookie;
	short arg_cnt;
};

/*
 * The loader's tables. __weak: every object file of a program that
 * includes this header defines them, and a static linker keeps one. The
 * map types are spelled as numbers (kernel ABI) so that the header needs
 * neither linux/bpf.h nor vmlinux.h before it.
 */
struct {
	__uint(type, 2);	/* BPF_MAP_TYPE_ARRAY */
	__uint(max_entries, BPF_USDT_MAX_SPEC_CNT);
	__type(key, int);
	__type(value, struct __bpf_usdt_spec);
} __bpf_usdt_specs SEC(".maps") __weak;

struct {
	__uint(type, 1);	/* BPF_MAP_TYPE_HASH */
	__uint(max_entries, BPF_USDT_MAX_IP_CNT);
	__type(key, long);
	__type(value, __u32);
} __bpf_usdt_ip_to_spec_id SEC(".maps") __weak;

/* Set by the loader: whether bpf_get_attach_cookie() works here. */
extern const _Bool LINUX_HAS_BPF_COOKIE __kconfig;

/* errno values, spelled out: vmlinux.h brings no <errno.h>. */
#define __BPFSDK_ENOENT 2
#define __BPFSDK_ESRCH 3
#define __BPFSDK_EINVAL 22

/* This site's spec, or NULL when the program was not attached as USDT. */
static __always_inline struct __bpf_usdt_spec *__bpfsdk_usdt_spec(struct pt_regs *ctx)
{
	int id;

	if (LINUX_HAS_BPF_COOKIE) {
		id = (int)bpf_get_attach_cookie(ctx);
	} else {
		long ip = (long)PT_REGS_IP(ctx);
		int *idp = bpf_map_lookup_elem(&__bpf_usdt_ip_to_spec_id, &ip);

		if (!idp)
			return NULL;
		id = *idp;
	}
	return bpf_map_lookup_elem(&__bpf_usdt_specs, &id);
}

/*
 * bpf_usdt_arg_cnt(ctx) - how many arguments the probe that fired has, or
 * -ESRCH when ctx is not a USDT probe's.
 */
__weak __hidden int bpf_usdt_arg_cnt(struct pt_regs *ctx)
{
	struct __bpf_usdt_spec *spec = __bpfsdk_usdt_spec(ctx);

	return spec ? spec->arg_cnt : -__BPFSDK_ESRCH;
}

/*
 * bpf_usdt_arg_size(ctx, n) - the size in bytes (1, 2, 4 or 8) of argument
 * n of the probe that fired, -ENOENT when it has no argument n, -ESRCH when
 * ctx is not a USDT probe's.
 */
__weak __hidden int bpf_usdt_arg_size(struct pt_regs *ctx, __u64 n)
{
	struct __bpf_usdt_spec *spec = __bpfsdk_usdt_spec(ctx);

	if (!spec)
		return -__BPFSDK_ESRCH;
	if (n >= BPF_USDT_MAX_ARG_CNT || n >= (__u64)spec->arg_cnt)
		return -__BPFSDK_ENOENT;
	/* the shift is 64 - 8 * size */
	return (int)((64 - (unsigned int)(unsigned char)spec->args[n].arg_bitshift) >> 3);
}

/*
 * bpf_usdt_arg(ctx, n, res) - argument n (from 0) of the probe that fired,
 * widened to 64 bits (sign-extended when the probe declared it signed),
 * into *res. Returns 0, -ENOENT when the probe has no argument n, -ESRCH
 * when ctx is not a USDT probe's, or the probe read's error (*res is 0
 * then).
 */
__weak __hidden int bpf_usdt_arg(struct pt_regs *ctx, __u64 n, long *res)
{
	struct __bpf_usdt_spec *spec = __bpfsdk_usdt_spec(ctx);
	struct __bpf_usdt_arg_spec *arg;
	unsigned long val;
	int err;

	*res = 0;
	if (!spec)
		return -__BPFSDK_ESRCH;
	if (n >= BPF_USDT_MAX_ARG_CNT || n >= (__u64)spec->arg_cnt)
		return -__BPFSDK_ENOENT;
	arg = &spec->args[n];
	switch (arg->arg_type) {
	case BPF_USDT_ARG_CONST:
		val = arg->val_off;
		break;
	case BPF_USDT_ARG_REG:
		/* a probe read: the offset is not a constant the verifier
		 * could check a direct context access against */
		err = bpf_probe_read_kernel(&val, sizeof(val), (void *)ctx + arg->reg_off);
		if (err)
			return err;
		break;
	case BPF_USDT_ARG_REG_DEREF:
		err = bpf_probe_read_kernel(&val, sizeof(val), (void *)ctx + arg->reg_off);
		if (err)
			return err;
		err = bpf_probe_read_user(&val, sizeof(val), (void *)val + arg->val_off);
		if (err)
			return err;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		/* the value is in the first bytes read: move it down */
		val >>= arg->arg_bitshift;
#endif
		break;
	default:
		return -__BPFSDK_EINVAL;
	}
	val <<= arg->arg_bitshift;
	if (arg->arg_signed)
		val = (unsigned long)((long)val >> arg->arg_bitshift);
	else
		val >>= arg->arg_bitshift;
	*res = (long)val;
	return 0;
}

/*
 * bpf_usdt_cookie(ctx) - the cookie the attacher gave this USDT probe
 * (bsdk_usdt_opts.cookie), 0 when none or ctx is not a USDT probe's.
 */
__weak __hidden long bpf_usdt_cookie(struct pt_regs *ctx)
{
	struct __bpf_usdt_spec *spec = __bpfsdk_usdt_spec(ctx);

	return spec ? (long)spec->usdt_cookie : 0;
}

/* The arguments as void *, for the typed body; a missing one reads 0. */
static __always_inline void *__bpfsdk_usdt_argv(struct pt_regs *ctx, int n)
{
	long v;

	bpf_usdt_arg(ctx, n, &v);
	return (void *)v;
}

#define __bpfsdk_usdt_args0()  ctx
#define __bpfsdk_usdt_args1(a) __bpfsdk_usdt_args0(), __bpfsdk_usdt_argv(ctx, 0)
#define __bpfsdk_usdt_args2(a, b) __bpfsdk_usdt_args1(a), __bpfsdk_usdt_argv(ctx, 1)
#define __bpfsdk_usdt_args3(a, b, c) __bpfsdk_usdt_args2(a, b), __bpfsdk_usdt_argv(ctx, 2)
#define __bpfsdk_usdt_args4(a, b, c, d) \
	__bpfsdk_usdt_args3(a, b, c), __bpfsdk_usdt_argv(ctx, 3)
#define __bpfsdk_usdt_args5(a, b, c, d, e) \
	__bpfsdk_usdt_args4(a, b, c, d), __bpfsdk_usdt_argv(ctx, 4)
#define __bpfsdk_usdt_args6(a, b, c, d, e, f) \
	__bpfsdk_usdt_args5(a, b, c, d, e), __bpfsdk_usdt_argv(ctx, 5)
#define __bpfsdk_usdt_args7(a, b, c, d, e, f, g) \
	__bpfsdk_usdt_args6(a, b, c, d, e, f), __bpfsdk_usdt_argv(ctx, 6)
#define __bpfsdk_usdt_args8(a, b, c, d, e, f, g, h) \
	__bpfsdk_usdt_args7(a, b, c, d, e, f, g), __bpfsdk_usdt_argv(ctx, 7)
#define __bpfsdk_usdt_args9(a, b, c, d, e, f, g, h, i) \
	__bpfsdk_usdt_args8(a, b, c, d, e, f, g, h), __bpfsdk_usdt_argv(ctx, 8)
#define __bpfsdk_usdt_args10(a, b, c, d, e, f, g, h, i, j) \
	__bpfsdk_usdt_args9(a, b, c, d, e, f, g, h, i), __bpfsdk_usdt_argv(ctx, 9)
#define __bpfsdk_usdt_args11(a, b, c, d, e, f, g, h, i, j, k) \
	__bpfsdk_usdt_args10(a, b, c, d, e, f, g, h, i, j), __bpfsdk_usdt_argv(ctx, 10)
#define __bpfsdk_usdt_args12(a, b, c, d, e, f, g, h, i, j, k, l) \
	__bpfsdk_usdt_args11(a, b, c, d, e, f, g, h, i, j, k), __bpfsdk_usdt_argv(ctx, 11)
#define __bpfsdk_usdt_args(...)						\
	__bpfsdk_cat(__bpfsdk_usdt_args, __bpfsdk_argc(__VA_ARGS__))(__VA_ARGS__)

/*
 * BPF_USDT(name, args...) - define a USDT program name whose body sees the
 * probe's arguments (at most twelve) as typed parameters, plus ctx, the
 * struct pt_regs *. Each argument costs a bpf_usdt_arg() call.
 */
#define BPF_USDT(name, ...)						\
	__bpfsdk_wrap(name, struct pt_regs *, __bpfsdk_usdt_args, ##__VA_ARGS__)

#endif /* BPFSDK_USDT_BPF_H */
