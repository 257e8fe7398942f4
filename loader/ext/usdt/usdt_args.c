// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * usdt_args.c - a USDT site's argument string ("-4@%edi 8@-8(%rbp) -4@$5"
 * on x86-64, "-4@x0 8@[sp, 16] -4@5" on arm64, from its .note.stapsdt
 * note) parsed into the spec the BPF side reads (struct usdt_spec, the
 * layout include/bpf/usdt.bpf.h has): each argument a constant, a
 * register or memory at a register plus an offset, with its size and
 * signedness. usdt.c writes the specs.
 */
#include <ctype.h>
#include <stdio.h>

#include "ext/usdt/usdt.h"

/* The x86-64 registers as the kernel's struct pt_regs lays them out, by
 * every name an argument spec may use for them (64, 32, 16 and low 8 bits:
 * the spec's size says how much of the register is the value). */
static const struct {
	const char *names[4];
	int16_t off;
} x86_regs[] = {
	{ { "rip" }, 128 },
	{ { "rax", "eax", "ax", "al" }, 80 },
	{ { "rbx", "ebx", "bx", "bl" }, 40 },
	{ { "rcx", "ecx", "cx", "cl" }, 88 },
	{ { "rdx", "edx", "dx", "dl" }, 96 },
	{ { "rsi", "esi", "si", "sil" }, 104 },
	{ { "rdi", "edi", "di", "dil" }, 112 },
	{ { "rbp", "ebp", "bp", "bpl" }, 32 },
	{ { "rsp", "esp", "sp", "spl" }, 152 },
	{ { "r8", "r8d", "r8w", "r8b" }, 72 },
	{ { "r9", "r9d", "r9w", "r9b" }, 64 },
	{ { "r10", "r10d", "r10w", "r10b" }, 56 },
	{ { "r11", "r11d", "r11w", "r11b" }, 48 },
	{ { "r12", "r12d", "r12w", "r12b" }, 24 },
	{ { "r13", "r13d", "r13w", "r13b" }, 16 },
	{ { "r14", "r14d", "r14w", "r14b" }, 8 },
	{ { "r15", "r15d", "r15w", "r15b" }, 0 },
};

/* A register's offset in struct pt_regs, -1 when the name is none of them. */
static int x86_reg_off(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++)
		for (size_t k = 0; k < 4 && x86_regs[i].names[k]; k++)
			if (strlen(x86_regs[i].names[k]) == len &&
			    memcmp(x86_regs[i].names[k], name, len) == 0)
				return x86_regs[i].off;
	return -1;
}

/* A signed decimal or 0x-hex number at *s, advanced past it. */
static bool parse_num(const char **s, int64_t *out)
{
	const char *p = *s;
	bool neg = *p == '-';
	unsigned long long v;
	char *end;

	if (neg || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno || v > (unsigned long long)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*s = end;
	return true;
}

/* "%reg" at *s: its offset, *s advanced; -1 when it is not one. */
static int parse_reg(const char **s)
{
	const char *p = *s, *start;
	int off;

	if (*p != '%')
		return -1;
	start = ++p;
	while (isalnum((unsigned char)*p))
		p++;
	off = x86_reg_off(start, (size_t)(p - start));
	if (off >= 0)
		*s = p;
	return off;
}

#if defined(__aarch64__)
/* arm64: xN (wN is its low half, which the spec's size selects), sp and
 * pc, at their offsets in struct user_pt_regs, the head of the kernel's
 * struct pt_regs: regs[31], sp, pc. */
static int arm64_reg_off(const char *name, size_t len)
{
	unsigned n = 0;

	if (len == 2 && memcmp(name, "sp", 2) == 0)
		return 31 * 8;
	if (len == 2 && memcmp(name, "pc", 2) == 0)
		return 32 * 8;
	if (len < 2 || len > 3 || (name[0] != 'x' && name[0] != 'w'))
		return -1;
	for (size_t i = 1; i < len; i++) {
		if (!isdigit((unsigned char)name[i]) || (i == 1 && name[i] == '0' && len == 3))
			return -1;
		n = n * 10 + (unsigned)(name[i] - '0');
	}
	return n <= 30 ? (int)n * 8 : -1;
}

/* arm64's register name at *s: its offset, *s advanced; -1 when it is
 * not one. */
static int parse_arm64_reg(const char **s)
{
	const char *p = *s;
	int off;

	while (isalnum((unsigned char)*p))
		p++;
	off = arm64_reg_off(*s, (size_t)(p - *s));
	if (off >= 0)
		*s = p;
	return off;
}

/* arm64's LOCATION at p, as GCC writes it: "x1" (a register), "[sp, 12]"
 * or "[x0]" (memory at a register plus an offset, '#' before it allowed),
 * "5" or "-5" (a constant). */
static bool parse_arm64_loc(const char *p, struct usdt_arg_spec *spec)
{
	int64_t num = 0;
	int reg;

	if (*p == '[') {
		p++;
		reg = parse_arm64_reg(&p);
		if (reg < 0)
			return false;
		if (*p == ',') {
			p++;
			while (*p == ' ')
				p++;
			if (*p == '#')
				p++;
			if (!parse_num(&p, &num))
				return false;
		}
		if (*p++ != ']' || *p)
			return false;
		spec->arg_type = USDT_ARG_REG_DEREF;
		spec->reg_off = (int16_t)reg;
		spec->val_off = (uint64_t)num;
		return true;
	}
	if (isalpha((unsigned char)*p)) {
		reg = parse_arm64_reg(&p);
		if (reg < 0 || *p)
			return false;
		spec->arg_type = USDT_ARG_REG;
		spec->reg_off = (int16_t)reg;
		return true;
	}
	if (!parse_num(&p, &num) || *p)
		return false;
	spec->arg_type = USDT_ARG_CONST;
	spec->val_off = (uint64_t)num;
	return true;
}
#endif

/* One argument, "SIZE@LOCATION", of len bytes at arg. */
static int parse_arg(const char *arg, size_t len, struct usdt_arg_spec *spec,
		     char *err, size_t err_size)
{
	char buf[128];
	const char *p = buf;
	int64_t size, num = 0;
	int reg;

	if (len >= sizeof(buf))
		goto bad;
	memcpy(buf, arg, len);
	buf[len] = '\0';
	memset(spec, 0, sizeof(*spec));
	if (!parse_num(&p, &size) || *p++ != '@')
		goto bad;
	if (size != 1 && size != 2 && size != 4 && size != 8 &&
	    size != -1 && size != -2 && size != -4 && size != -8)
		goto bad;
	spec->arg_signed = size < 0;
	spec->arg_bitshift = (int8_t)(64 - 8 * (size < 0 ? -size : size));
#if defined(__aarch64__)
	if (parse_arm64_loc(p, spec))
		return 0;
	goto bad;
#endif
	if (*p == '$') {			/* $5: a constant */
		p++;
		if (!parse_num(&p, &num) || *p)
			goto bad;
		spec->arg_type = USDT_ARG_CONST;
		spec->val_off = (uint64_t)num;
		return 0;
	}
	if (*p == '%') {			/* %edi: in a register */
		reg = parse_reg(&p);
		if (reg < 0 || *p)
			goto bad;
		spec->arg_type = USDT_ARG_REG;
		spec->reg_off = (int16_t)reg;
		return 0;
	}
	/* -8(%rbp) or (%rax): in memory at register + offset */
	if (*p != '(' && !parse_num(&p, &num))
		goto bad;
	if (*p++ != '(')
		goto bad;
	reg = parse_reg(&p);
	if (reg >= 0 && *p == ',') {
		snprintf(err, err_size, "argument '%s' uses base + index * scale addressing, which the loader does not support", buf);
		return -EOPNOTSUPP;
	}
	if (reg < 0 || *p++ != ')' || *p)
		goto bad;
	spec->arg_type = USDT_ARG_REG_DEREF;
	spec->reg_off = (int16_t)reg;
	spec->val_off = (uint64_t)num;
	return 0;
bad:
#if defined(__aarch64__)
	snprintf(err, err_size, "argument '%.*s' is not SIZE@LOCATION (e.g. -4@x0, 8@[sp, 16], -4@5)",
		 (int)(len < 100 ? len : 100), arg);
#else
	snprintf(err, err_size, "argument '%.*s' is not SIZE@LOCATION (e.g. -4@%%edi, 8@-8(%%rbp), -4@$5)",
		 (int)(len < 100 ? len : 100), arg);
#endif
	return -EINVAL;
}

int usdt_parse_args(const char *args, struct usdt_spec *spec, char *err, size_t err_size)
{
	const char *p = args;

	memset(spec, 0, sizeof(*spec));
#if !defined(__x86_64__) && !defined(__aarch64__)
	if (*args) {
		snprintf(err, err_size, "USDT argument specs are only understood for x86-64 and arm64");
		return -EOPNOTSUPP;
	}
#endif
	while (*p) {
		const char *end;
		int rc;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		/* Arguments are separated by blanks, but arm64's memory
		 * operands have one inside their brackets: "-4@[sp, 12]". */
		end = p;
		for (int depth = 0; *end && (depth || (*end != ' ' && *end != '\t')); end++) {
			if (*end == '[')
				depth++;
			else if (*end == ']' && depth)
				depth--;
		}
		if (spec->arg_cnt >= USDT_MAX_ARGS) {
			snprintf(err, err_size, "more than %d arguments", USDT_MAX_ARGS);
			return -E2BIG;
		}
		rc = parse_arg(p, (size_t)(end - p), &spec->args[spec->arg_cnt], err, err_size);
		if (rc)
			return rc;
		spec->arg_cnt++;
		p = end;
	}
	return 0;
}
