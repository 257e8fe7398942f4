/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * c_ident.h - whether a name read from an object can stand in C source as
 * it is: a member, a variable, a struct tag. `bpfsdk gen skeleton` and the
 * BTF declaration writer (btf_decl.c) put the object's names into a header
 * that users compile, and an object is input like any other.
 */
#ifndef BSDK_C_IDENT_H
#define BSDK_C_IDENT_H

#include <stdbool.h>
#include <string.h>

/* An identifier: [A-Za-z_][A-Za-z0-9_]*, and not a keyword of C11, C23 or
 * GNU C (asm, typeof). */
static inline bool c_ident_ok(const char *s)
{
	static const char *const keywords[] = {
		"auto", "break", "case", "char", "const", "continue", "default", "do",
		"double", "else", "enum", "extern", "float", "for", "goto", "if",
		"inline", "int", "long", "register", "restrict", "return", "short",
		"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
		"unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
		"_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
		"_Static_assert", "_Thread_local", "alignas", "alignof", "bool",
		"constexpr", "false", "nullptr", "static_assert", "thread_local",
		"true", "typeof", "typeof_unqual", "asm",
	};
	const char *p = s;

	if (!*p || (*p >= '0' && *p <= '9'))
		return false;
	for (; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return false;
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(s, keywords[i]) == 0)
			return false;
	return true;
}

#endif
