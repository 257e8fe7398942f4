// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_usdt_args.c - the USDT argument-spec parser of usdt.c: each form
 * <sys/sdt.h> writes on x86-64 (on arm64, arm64's: built for arm64, the
 * test checks those) into the spec usdt.bpf.h interprets, and
 * the malformed ones refused with a reason.
 */
#include "check.h"
#include "object/object.h"
#include "ext/usdt/usdt.h"
#include "channel/channel.h"

/* struct pt_regs offsets of the kernel (x86-64) */
enum { R15 = 0, RBP = 32, RBX = 40, R9 = 64, R8 = 72, RAX = 80, RDX = 96, RSI = 104, RDI = 112, RIP = 128, RSP = 152 };

static void arg_is(const struct usdt_spec *s, int i, uint32_t type, int16_t reg, uint64_t val,
		   bool is_signed, int bitshift, const char *what)
{
	const struct usdt_arg_spec *a = &s->args[i];

	check_u64(a->arg_type, type, "%s: type", what);
	if (type != USDT_ARG_CONST)
		check_i64(a->reg_off, reg, "%s: register offset", what);
	check_u64(a->val_off, val, "%s: value/offset", what);
	check_u64(a->arg_signed, is_signed, "%s: signed", what);
	check_i64(a->arg_bitshift, bitshift, "%s: bit shift", what);
}

static int parse(const char *args, struct usdt_spec *s, char *err)
{
	err[0] = '\0';
	return usdt_parse_args(args, s, err, 192);
}

int main(void)
{
	struct usdt_spec s;
	char err[192];

#if defined(__aarch64__)
	/* struct user_pt_regs: x0..x30, then sp and pc */
	check_i64(parse("-4@x0 -8@x1 8@x2 -4@5", &s, err), 0, "register and constant (%s)", err);
	check_i64(s.arg_cnt, 4, "four arguments");
	arg_is(&s, 0, USDT_ARG_REG, 0, 0, true, 32, "-4@x0");
	arg_is(&s, 1, USDT_ARG_REG, 8, 0, true, 0, "-8@x1");
	arg_is(&s, 2, USDT_ARG_REG, 16, 0, false, 0, "8@x2");
	arg_is(&s, 3, USDT_ARG_CONST, 0, 5, true, 32, "-4@5");
	check_i64(parse("-4@[sp, 12] 8@[x29] 2@w30 8@[x3, -16] 1@[sp, #8] 8@-7 8@sp 8@pc", &s, err), 0,
		  "memory, offsets, other registers (%s)", err);
	check_i64(s.arg_cnt, 8, "eight arguments");
	arg_is(&s, 0, USDT_ARG_REG_DEREF, 248, 12, true, 32, "-4@[sp, 12]");
	arg_is(&s, 1, USDT_ARG_REG_DEREF, 29 * 8, 0, false, 0, "8@[x29]");
	arg_is(&s, 2, USDT_ARG_REG, 30 * 8, 0, false, 48, "2@w30");
	arg_is(&s, 3, USDT_ARG_REG_DEREF, 24, (uint64_t)-16, false, 0, "8@[x3, -16]");
	arg_is(&s, 4, USDT_ARG_REG_DEREF, 248, 8, false, 56, "1@[sp, #8]");
	arg_is(&s, 5, USDT_ARG_CONST, 0, (uint64_t)-7, false, 0, "8@-7");
	arg_is(&s, 6, USDT_ARG_REG, 248, 0, false, 0, "8@sp");
	arg_is(&s, 7, USDT_ARG_REG, 256, 0, false, 0, "8@pc");
	check(parse("8@x31", &s, err) == -EINVAL && strstr(err, "'8@x31'"), "x31 refused (%s)", err);
	check(parse("8@x01", &s, err) == -EINVAL, "x01 refused (%s)", err);
	check(parse("8@[sp, 12", &s, err) == -EINVAL, "unclosed bracket refused (%s)", err);
	check(parse("8@[q1]", &s, err) == -EINVAL, "unknown register refused (%s)", err);
	check(parse("8@%rdi", &s, err) == -EINVAL && strstr(err, "-4@x0"),
	      "an x86-64 spec refused, naming arm64's forms (%s)", err);
	check(parse("", &s, err) == 0 && s.arg_cnt == 0, "no arguments is fine");
	return check_done();
#elif !defined(__x86_64__)
	check(parse("-4@%edi", &s, err) == -EOPNOTSUPP, "not x86-64: refused (%s)", err);
	check(parse("", &s, err) == 0 && s.arg_cnt == 0, "not x86-64: no arguments is fine");
	return check_done();
#endif
	check_i64(parse("-4@%edi 8@-8(%rbp) -4@$5", &s, err), 0, "the three forms (%s)", err);
	check_i64(s.arg_cnt, 3, "three arguments");
	arg_is(&s, 0, USDT_ARG_REG, RDI, 0, true, 32, "-4@%edi");
	arg_is(&s, 1, USDT_ARG_REG_DEREF, RBP, (uint64_t)-8, false, 0, "8@-8(%rbp)");
	arg_is(&s, 2, USDT_ARG_CONST, 0, 5, true, 32, "-4@$5");

	check_i64(parse("  1@%al   2@%r9w\t8@%r15 -8@(%rsp) 8@16(%rip) -2@$-3 8@$0x10 ", &s, err), 0,
		  "spaces, tabs, more registers (%s)", err);
	check_i64(s.arg_cnt, 7, "seven arguments");
	arg_is(&s, 0, USDT_ARG_REG, RAX, 0, false, 56, "1@%al");
	arg_is(&s, 1, USDT_ARG_REG, R9, 0, false, 48, "2@%r9w");
	arg_is(&s, 2, USDT_ARG_REG, R15, 0, false, 0, "8@%r15");
	arg_is(&s, 3, USDT_ARG_REG_DEREF, RSP, 0, true, 0, "-8@(%rsp)");
	arg_is(&s, 4, USDT_ARG_REG_DEREF, RIP, 16, false, 0, "8@16(%rip)");
	arg_is(&s, 5, USDT_ARG_CONST, 0, (uint64_t)-3, true, 48, "-2@$-3");
	arg_is(&s, 6, USDT_ARG_CONST, 0, 16, false, 0, "8@$0x10");

	check_i64(parse("", &s, err), 0, "no arguments");
	check_i64(s.arg_cnt, 0, "zero arguments");
	check_i64(parse("4@%rbx 4@%rdx 4@%rsi 4@%r8d", &s, err), 0, "32-bit names of 64-bit registers");
	arg_is(&s, 0, USDT_ARG_REG, RBX, 0, false, 32, "4@%rbx");
	arg_is(&s, 1, USDT_ARG_REG, RDX, 0, false, 32, "4@%rdx");
	arg_is(&s, 2, USDT_ARG_REG, RSI, 0, false, 32, "4@%rsi");
	arg_is(&s, 3, USDT_ARG_REG, R8, 0, false, 32, "4@%r8d");

	/* twelve is the most */
	check_i64(parse("1@$1 1@$2 1@$3 1@$4 1@$5 1@$6 1@$7 1@$8 1@$9 1@$10 1@$11 1@$12", &s, err), 0, "twelve");
	check_i64(s.arg_cnt, 12, "twelve arguments");
	check_i64(parse("1@$1 1@$2 1@$3 1@$4 1@$5 1@$6 1@$7 1@$8 1@$9 1@$10 1@$11 1@$12 1@$13", &s, err),
		  -E2BIG, "thirteen refused");

	/* malformed: each refused, the argument quoted */
	static const char *const bad[] = {
		"4", "@%eax", "3@%eax", "16@%eax", "-0@%eax", "4@", "4@%", "4@%xyz", "4@%eax)",
		"4@$", "4@$x", "4@$5x", "4@-8(%rbp", "4@-8%rbp", "4@(%nope)", "4@8(%rbp)x",
		"4@foo(%rip)", "x@%eax", "4@@%eax",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i], &s, err);

		check(rc == -EINVAL && strstr(err, bad[i]), "'%s' refused with its text (%d: %s)", bad[i], rc, err);
	}
	check_i64(parse("8@-8(%rbp,%rax,8)", &s, err), -EOPNOTSUPP, "base + index * scale not supported");
	check(strstr(err, "index") != NULL, "says what is unsupported (%s)", err);
	check_i64(parse("-4@%edi 4@bogus", &s, err), -EINVAL, "a bad second argument fails the whole spec");
	return check_done();
}
