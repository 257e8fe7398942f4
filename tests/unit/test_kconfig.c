// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_kconfig.c - the kernel-configuration parser of extern.c: finding
 * an option in a config text, and storing its value as the __kconfig
 * variable's type wants it, including every malformed case.
 */
#include "check.h"
#include "object/object.h"
#include "ext/externs/extern.h"
#include "channel/channel.h"

static const char config[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"#\n"
	"CONFIG_BPF=y\n"
	"CONFIG_BPF_SYSCALL=y\n"
	"CONFIG_EXT4_FS=m\n"
	"# CONFIG_DEBUG_KERNEL is not set\n"
	"# CONFIG_DEBUG is a comment that is not the not-set form\n"
	"CONFIG_HZ=250\n"
	"CONFIG_HZ_1000=y\n"
	"CONFIG_NR_CPUS=8192\n"
	"CONFIG_PHYS_START=0x1000000\n"
	"CONFIG_NEGATIVE=-5\n"
	"CONFIG_DEFAULT_HOSTNAME=\"(none)\"\n"
	"CONFIG_EMPTY_STRING=\"\"\n"
	"CONFIG_CRLF=y\r\n"
	"CONFIG_LAST=42";	/* no newline at the end */

static int lookup(const char *name, char *val, size_t size)
{
	return kconfig_lookup(config, sizeof(config) - 1, name, val, size);
}

static void test_lookup(void)
{
	char val[64];

	check_i64(lookup("CONFIG_BPF", val, sizeof(val)), 1, "CONFIG_BPF found");
	check_str(val, "y", "CONFIG_BPF=y");
	check_i64(lookup("CONFIG_EXT4_FS", val, sizeof(val)), 1, "module found");
	check_str(val, "m", "CONFIG_EXT4_FS=m");
	check_i64(lookup("CONFIG_DEBUG_KERNEL", val, sizeof(val)), 1, "'is not set' counts as found");
	check_str(val, "n", "'is not set' reads as n");
	check_i64(lookup("CONFIG_DEBUG", val, sizeof(val)), 0, "a comment mentioning a name is not its value");
	check_i64(lookup("CONFIG_HZ", val, sizeof(val)), 1, "CONFIG_HZ found, not CONFIG_HZ_1000");
	check_str(val, "250", "CONFIG_HZ=250");
	check_i64(lookup("CONFIG_H", val, sizeof(val)), 0, "a prefix of a name is not the name");
	check_i64(lookup("CONFIG_DEFAULT_HOSTNAME", val, sizeof(val)), 1, "string found");
	check_str(val, "\"(none)\"", "string keeps its quotes");
	check_i64(lookup("CONFIG_CRLF", val, sizeof(val)), 1, "CRLF line found");
	check_str(val, "y", "trailing CR dropped");
	check_i64(lookup("CONFIG_LAST", val, sizeof(val)), 1, "last line without newline");
	check_str(val, "42", "CONFIG_LAST=42");
	check_i64(lookup("CONFIG_NOT_THERE", val, sizeof(val)), 0, "absent option");
	check_i64(lookup("CONFIG_DEFAULT_HOSTNAME", val, 4), -EINVAL, "value longer than the buffer");
	check_i64(kconfig_lookup("", 0, "CONFIG_BPF", val, sizeof(val)), 0, "empty text");
	check_i64(kconfig_lookup("CONFIG_BPF=", 11, "CONFIG_BPF", val, sizeof(val)), 0,
		  "empty value is not a value");
}

/* set(type, size, signed, value): kconfig_set() on a fresh 8-byte buffer. */
static int set(enum kcfg_type type, uint32_t size, bool is_signed, const char *val,
	       uint8_t out[16], char *err)
{
	struct ext e = { .name = "CONFIG_X", .kind = EXT_KCONFIG, .kcfg = type,
			 .size = size, .is_signed = is_signed };

	memset(out, 0xaa, 16);
	err[0] = '\0';
	return kconfig_set(&e, val, out, err, 192);
}

static uint64_t le(const uint8_t *p, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);	/* the test runs on the host, in its order */
	return v;
}

static void test_set(void)
{
	uint8_t out[16];
	char err[192];

	check_i64(set(KCFG_BOOL, 1, false, "y", out, err), 0, "bool y");
	check_u64(out[0], 1, "bool y is 1");
	check_u64(out[1], 0xaa, "bool writes one byte");
	check_i64(set(KCFG_BOOL, 1, false, "n", out, err), 0, "bool n");
	check_u64(out[0], 0, "bool n is 0");
	check_i64(set(KCFG_BOOL, 1, false, "m", out, err), -EINVAL, "bool m refused");
	check(strstr(err, "enum libbpf_tristate") != NULL, "bool m: says to use a tristate (%s)", err);
	check_i64(set(KCFG_BOOL, 1, false, "250", out, err), -EINVAL, "bool 250 refused");
	check(strstr(err, "'250'") != NULL, "bool 250: quotes the value (%s)", err);

	check_i64(set(KCFG_TRISTATE, 4, false, "m", out, err), 0, "tristate m");
	check_u64(le(out, 4), 2, "tristate m is TRI_MODULE");
	check_i64(set(KCFG_TRISTATE, 4, false, "y", out, err), 0, "tristate y");
	check_u64(le(out, 4), 1, "tristate y is TRI_YES");
	check_i64(set(KCFG_TRISTATE, 4, false, "\"y\"", out, err), -EINVAL, "tristate string refused");

	check_i64(set(KCFG_CHAR, 1, false, "m", out, err), 0, "char m");
	check_u64(out[0], 'm', "char m is 'm'");
	check_i64(set(KCFG_CHAR, 1, false, "12", out, err), -EINVAL, "char 12 refused");

	check_i64(set(KCFG_INT, 4, true, "250", out, err), 0, "int 250");
	check_u64(le(out, 4), 250, "int 250");
	check_u64(out[4], 0xaa, "int writes its size only");
	check_i64(set(KCFG_INT, 8, false, "0x1000000", out, err), 0, "hex");
	check_u64(le(out, 8), 0x1000000, "hex value");
	check_i64(set(KCFG_INT, 4, true, "-5", out, err), 0, "negative into signed");
	check_u64(le(out, 4), 0xfffffffb, "-5 as 32 bits");
	check_i64(set(KCFG_INT, 4, false, "-5", out, err), -EINVAL, "negative into unsigned refused");
	check_i64(set(KCFG_INT, 1, false, "256", out, err), -EINVAL, "256 into one byte refused");
	check(strstr(err, "too small") != NULL, "overflow says too small (%s)", err);
	check_i64(set(KCFG_INT, 1, true, "127", out, err), 0, "127 into a signed byte");
	check_i64(set(KCFG_INT, 1, true, "128", out, err), -EINVAL, "128 into a signed byte refused");
	check_i64(set(KCFG_INT, 1, true, "-128", out, err), 0, "-128 into a signed byte");
	check_i64(set(KCFG_INT, 8, false, "18446744073709551615", out, err), 0, "u64 max");
	check_u64(le(out, 8), UINT64_MAX, "u64 max value");
	check_i64(set(KCFG_INT, 8, false, "18446744073709551616", out, err), -EINVAL, "past u64 refused");
	check_i64(set(KCFG_INT, 4, false, "12abc", out, err), -EINVAL, "trailing junk refused");
	check_i64(set(KCFG_INT, 4, false, "y", out, err), -EINVAL, "y into an integer refused");
	check_i64(set(KCFG_INT, 4, false, "-", out, err), -EINVAL, "lone minus refused");
	check_i64(set(KCFG_INT, 4, false, "\"5\"", out, err), -EINVAL, "string into an integer refused");

	check_i64(set(KCFG_CHAR_ARR, 8, false, "\"(none)\"", out, err), 0, "string");
	check_mem(out, "(none)\0\0", 8, "string, NUL-padded");
	check_u64(out[8], 0xaa, "string writes the array only");
	check_i64(set(KCFG_CHAR_ARR, 6, false, "\"(none)\"", out, err), -EINVAL, "string without room for its NUL");
	check(strstr(err, "needs 7") != NULL, "too long: says what it needs (%s)", err);
	check_i64(set(KCFG_CHAR_ARR, 4, false, "\"\"", out, err), 0, "empty string");
	check_u64(out[0], 0, "empty string is NUL");
	check_i64(set(KCFG_CHAR_ARR, 8, false, "y", out, err), -EINVAL, "y into a char array refused");
	check_i64(set(KCFG_CHAR_ARR, 8, false, "\"", out, err), -EINVAL, "lone quote refused");
	check_i64(set(KCFG_CHAR_ARR, 8, false, "\"open", out, err), -EINVAL, "unterminated string refused");
}

int main(void)
{
	test_lookup();
	test_set();
	return check_done();
}
