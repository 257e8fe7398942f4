// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_btf_print.c - libFuzzer target: arbitrary types and arbitrary
 * records through the BTF value printer. The input is a .BTF blob followed
 * by the record: the blob's own header says where it ends (hdr_len plus
 * the furthest of its two sections), and every byte after that is the
 * record. Each type ID is printed in every format; the JSON must be valid
 * (tests/unit/json_valid.h), whatever the input; bsdk_btf_snprint() into a
 * small buffer gives the same length and first bytes; and each type's C
 * declaration is consistent (check_decl()).
 *
 *   make fuzz-btf-print [FUZZ_SECONDS=60]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "bpfsdk.h"
#include "../unit/json_valid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)level, (void)msg, (void)ctx;
}

/* The C declaration of each type too (`bpfsdk gen skeleton`): the length it
 * returns is what a big enough buffer gets, and a small buffer is cut and
 * terminated, whatever the types. */
static void check_decl(const struct bsdk_btf *btf, uint32_t id)
{
	char big[4096], small[8];
	int n = bsdk_btf_c_decl(btf, id, "v", big, sizeof(big)), m;

	if (n < 0)
		return;
	m = bsdk_btf_c_decl(btf, id, "v", small, sizeof(small));
	if (m != n || strlen(small) != ((size_t)n < sizeof(small) ? (size_t)n : sizeof(small) - 1) ||
	    ((size_t)n < sizeof(big) && strlen(big) != (size_t)n)) {
		fprintf(stderr, "bsdk_btf_c_decl(%u): %d then %d bytes, '%s'\n", id, n, m, big);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int flags[] = { 0, BSDK_BTF_MEMBERS, BSDK_BTF_DURATIONS,
		BSDK_BTF_NET | BSDK_BTF_MEMBERS };
	struct btf_header h;
	struct bsdk_btf *btf;
	uint64_t end;
	uint32_t n;

	if (size < sizeof(h))
		return 0;
	bsdk_set_log(quiet, NULL);
	memcpy(&h, data, sizeof(h));
	end = (uint64_t)h.hdr_len + h.type_off + h.type_len;
	if ((uint64_t)h.hdr_len + h.str_off + h.str_len > end)
		end = (uint64_t)h.hdr_len + h.str_off + h.str_len;
	if (end > size)
		end = size;
	btf = bsdk_btf_new(data, (size_t)end);
	if (!btf)
		return 0;
	n = bsdk_btf_type_count(btf);
	for (uint32_t id = 0; id < n && id < 512; id++) {
		for (int fmt = BSDK_BTF_JSON; fmt <= BSDK_BTF_COLUMNS; fmt++) {
			unsigned int fl = flags[id % 4];
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);

			if (!f)
				abort();
			if (fmt == BSDK_BTF_COLUMNS)
				bsdk_btf_print_header(btf, id, fl, f);
			bsdk_btf_print(btf, id, data + end, size - (size_t)end,
				       (enum bsdk_btf_format)fmt, fl, f);
			fclose(f);
			/* the string form says the same, cut to what fits */
			if (fmt != BSDK_BTF_COLUMNS) {
				char small[16];
				long n = bsdk_btf_snprint(btf, id, data + end, size - (size_t)end,
							  (enum bsdk_btf_format)fmt, fl, small,
							  sizeof(small), NULL);

				if (n != (long)len || strncmp(small, text, sizeof(small) - 1)) {
					fprintf(stderr, "snprint gave %ld bytes, print %zu, for type %u\n",
						n, len, id);
					abort();
				}
			}
			/* MEMBERS output continues an object: wrap it to check it */
			if (fmt == BSDK_BTF_JSON && !(fl & BSDK_BTF_MEMBERS) &&
			    !json_valid(text, len)) {
				fprintf(stderr, "invalid JSON for type %u: %s\n", id, text);
				abort();
			}
			if (fmt == BSDK_BTF_JSON && (fl & BSDK_BTF_MEMBERS)) {
				char *obj = malloc(len + 16);

				if (!obj)
					abort();
				len = (size_t)sprintf(obj, "{\"@m\":0%s}", text);
				if (!json_valid(obj, len)) {
					fprintf(stderr, "invalid JSON members for type %u: %s\n", id, obj);
					abort();
				}
				free(obj);
			}
			free(text);
		}
		check_decl(btf, id);
		for (uint32_t i = 0; i < 4; i++) {	/* a key's members as metrics labels */
			char label[64];

			bsdk_btf_member_view(btf, id, i);
			bsdk_btf_snprint_member(btf, id, i, data + end, size - (size_t)end, label,
						sizeof(label));
		}
	}
	bsdk_btf_free(btf);
	return 0;
}
