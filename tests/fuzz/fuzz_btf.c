// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_btf.c - libFuzzer target: any bytes as a .BTF section. What parses
 * is resolved every way the loader asks (each ID's real type and size, the
 * loop it may be in, a lookup by its name), sanitised for a kernel lacking
 * every newer kind (which must parse again), and parsed a second time as
 * split BTF on top of itself, as a module's BTF sits on vmlinux.
 *
 *   make fuzz-btf [FUZZ_SECONDS=60]     seeds: the .BTF of each test object
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "object/object.h"
#include "ext/btf/btf_load.h"
#include "co-re/btf_index.h"
#include "channel/channel.h"
#include "format/btf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t sink;

static void quiet(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	sink += level + strlen(msg);
}

static void resolve_all(const struct btf *btf)
{
	uint32_t to, from = btf_loop(btf, &to);

	if (from && (from >= btf_type_count(btf) || to >= btf_type_count(btf)))
		abort();
	for (uint32_t id = 0; id < btf_type_count(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id), *r;
		uint32_t res = 0;
		uint64_t size;

		r = btf_skip_mods(btf, id, &res);
		if (r && (res == 0 || res >= btf_type_count(btf) || btf_type_by_id(btf, res) != r))
			abort();
		if (btf_type_size(btf, id, &size) == 0)
			sink += size;
		if (t) {
			const char *name = btf_name(btf, t);

			sink += strlen(name);
			/* the first of this kind and name: never after id */
			if (*name && btf_find(btf, name, btf_kind(t)) > id)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btf *btf, *split;
	size_t out_size;
	void *out;

	bsdk_set_log(quiet, NULL);
	btf = btf_parse(data, size, "fuzz");
	if (!btf)
		return 0;
	resolve_all(btf);
	out = btf_sanitize(btf, ~0u, &out_size);
	if (out) {
		struct btf *again = btf_parse(out, out_size, "sanitised");

		if (!again || btf_type_count(again) != btf_type_count(btf))
			abort();
		btf_free(again);
		free(out);
	}
	split = btf_parse_split(data, size, btf, "split");
	if (split) {
		resolve_all(split);
		btf_free(split);
	}
	btf_free(btf);
	return 0;
}
