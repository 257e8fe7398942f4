// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_usdt.c - libFuzzer target: any bytes as a binary's USDT probes.
 * The input is PROVIDER NUL NAME NUL, then the ELF file. usdt_sites_find()
 * reads the file's .note.stapsdt (through a memfd) for every site of
 * PROVIDER:NAME, and each site's argument string goes through
 * usdt_parse_args() as attaching does; the bytes after the second NUL are
 * parsed as an argument string of their own too. Every spec that parses
 * must be one usdt.bpf.h can read.
 *
 *   make fuzz-usdt [FUZZ_SECONDS=60]   seeds: each probe of the test
 *                                      programs that have USDT notes
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "ext/usdt/usdt.h"
#include "channel/channel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t sink;

static void quiet(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	sink += level + strlen(msg);
}

/* A spec that parsed: what usdt.bpf.h's reader relies on. */
static void check_spec(const struct usdt_spec *spec)
{
	if (spec->arg_cnt < 0 || spec->arg_cnt > USDT_MAX_ARGS)
		abort();
	for (int i = 0; i < spec->arg_cnt; i++) {
		const struct usdt_arg_spec *a = &spec->args[i];

		if (a->arg_type > USDT_ARG_REG_DEREF)
			abort();
		if (a->arg_bitshift != 0 && a->arg_bitshift != 32 &&
		    a->arg_bitshift != 48 && a->arg_bitshift != 56)
			abort();
		/* a register inside struct pt_regs (21 u64s), 8-aligned */
		if (a->arg_type != USDT_ARG_CONST &&
		    (a->reg_off < 0 || a->reg_off > 160 || a->reg_off % 8))
			abort();
	}
}

static void parse(const char *args)
{
	struct usdt_spec spec;
	char err[256];

	err[0] = '\0';
	if (usdt_parse_args(args, &spec, err, sizeof(err)) == 0)
		check_spec(&spec);
	else if (!memchr(err, '\0', sizeof(err)) || !err[0])
		abort();	/* a refusal always says why */
	sink += strlen(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	const char *provider = (const char *)data, *name, *nul;
	struct usdt_site *sites;
	size_t n, head;
	char path[64], *tail;

	nul = memchr(data, '\0', size);
	if (!nul)
		return 0;
	name = nul + 1;
	nul = memchr(name, '\0', size - (size_t)(name - provider));
	if (!nul)
		return 0;
	head = (size_t)(nul + 1 - provider);

	tail = malloc(size - head + 1);
	if (!tail)
		return 0;
	memcpy(tail, data + head, size - head);
	tail[size - head] = '\0';
	parse(tail);
	free(tail);

	if (fd < 0)
		fd = memfd_create("fuzz_usdt", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data + head, size - head, 0) != (ssize_t)(size - head))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	bsdk_set_log(quiet, NULL);
	bsdk_set_log_level(BSDK_LOG_DEBUG);
	if (usdt_sites_find(path, provider, name, &sites, &n) == 0) {
		if (n == 0)
			abort();	/* none is an error, never an empty success */
		for (size_t i = 0; i < n; i++) {
			if (sites[i].relocatable != sites[0].relocatable)
				abort();
			parse(sites[i].args);
		}
		usdt_sites_free(sites, n);
	}
	return 0;
}
