/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * usdt.h - USDT probes: what usdt.c (sites, attach) and usdt_args.c (the
 * argument strings) share, and the section table's row the top adds. Not installed.
 */
#ifndef BPFSDK_EXT_USDT_H
#define BPFSDK_EXT_USDT_H

#include "object/object.h"

/* ---- usdt.c: USDT probes. The spec layout is include/bpf/usdt.bpf.h's. */
#define USDT_MAX_ARGS 12
enum usdt_arg_type { USDT_ARG_CONST, USDT_ARG_REG, USDT_ARG_REG_DEREF };
struct usdt_arg_spec {
	uint64_t val_off;	/* CONST: the value; REG_DEREF: the offset */
	uint32_t arg_type;	/* enum usdt_arg_type */
	int16_t reg_off;	/* the register's offset in struct pt_regs */
	uint8_t arg_signed;
	int8_t arg_bitshift;	/* 64 - 8 * size */
};
struct usdt_spec {
	struct usdt_arg_spec args[USDT_MAX_ARGS];
	uint64_t usdt_cookie;
	int16_t arg_cnt;
};
/* One probe site in a binary. */
struct usdt_site {
	uint64_t offset;		/* file offset of the probe's nop */
	uint64_t ref_ctr_offset;	/* file offset of its semaphore, 0: none */
	uint64_t vaddr;			/* its link-time address */
	bool relocatable;		/* the binary is PIE or a library */
	char *args;			/* "-4@%edi 8@-8(%rbp)" */
};
/* Parse a site's argument string into spec: 0, or -errno with the reason in err. */
int usdt_parse_args(const char *args, struct usdt_spec *spec, char *err, size_t err_size);
/* Every site of provider:name in the ELF file at path (logged when none). */
int usdt_sites_find(const char *path, const char *provider, const char *name,
		    struct usdt_site **sites, size_t *n);
void usdt_sites_free(struct usdt_site *sites, size_t n);
/* The USDT method and its row of the section table. */
extern const struct attach_method attach_by_usdt;
extern const struct attach_kinds usdt_kinds;

#endif /* BPFSDK_EXT_USDT_H */
