// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_btf_hostile.c - BTF built to make the loader's type walks slow: a
 * million typedefs in one chain, with and without a loop at its end. A loop
 * must be refused at open with a message that names it; a long chain that
 * ends must resolve to the right size. Each type is resolved once, so both
 * take a moment; a walk that restarted at every hop would take hours.
 */
#include <linux/btf.h>

#include "test_obj_craft.h"
#include "object/object.h"
#include "co-re/btf_index.h"
#include "channel/channel.h"
#include "format/btf.h"

#define CHAIN (1u << 20)	/* typedefs added */

/* The pointer type the 'key' member of map 'counts' is declared with. */
static uint32_t key_ptr_id(const struct btf *btf)
{
	uint32_t sid = btf_find(btf, "counts", BTF_KIND_VAR);
	const struct btf_type *t = btf_skip_mods(btf, btf_type_by_id(btf, sid)->type, NULL);
	const struct btf_member *m = btf_members(t);

	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (strcmp(btf_str(btf, m[i].name_off), "key") == 0)
			return m[i].type;
	abort();
}

/*
 * obj_basic with its .BTF replaced by the same types plus CHAIN typedefs
 * (or typedefs, consts and volatiles in turn, with kinds_mix), each naming
 * the next; with array, an array of one element of whatever follows comes
 * last. The last names type last_to (0: the key's type). The key's pointer
 * is made to point at the first typedef. The new .BTF goes at the end of
 * the file and its section header is moved there.
 */
static struct img hostile(const struct img *base, int kinds_mix, int array, uint32_t last_to)
{
	Elf64_Shdr *sh = img_sec(base, ".BTF", NULL);
	struct btf *btf = btf_parse(img_data(base, sh), sh->sh_size, "test");
	size_t raw_size, off;
	const char *raw = btf_raw(btf, &raw_size);
	struct btf_header h;
	uint32_t first = btf_type_count(btf), ptr = key_ptr_id(btf), key;
	size_t chain_len = (size_t)CHAIN * sizeof(struct btf_type) +
			   (array ? sizeof(struct btf_type) + sizeof(struct btf_array) : 0);
	struct img im;
	char *p;

	memcpy(&h, raw, sizeof(h));
	key = btf_type_by_id(btf, ptr)->type;
	off = (base->size + 7) & ~(size_t)7;
	im.size = off + sizeof(h) + h.type_len + chain_len + h.str_len;
	im.buf = calloc(1, im.size);
	if (!im.buf)
		abort();
	memcpy(im.buf, base->buf, base->size);
	p = (char *)im.buf + off;
	memcpy(p + sizeof(h), raw + h.hdr_len + h.type_off, h.type_len);
	memcpy(p + sizeof(h) + h.type_len + chain_len, raw + h.hdr_len + h.str_off, h.str_len);
	/* the pointer: same offset in our copy of the types */
	((struct btf_type *)(p + sizeof(h) +
		((const char *)btf_type_by_id(btf, ptr) - (raw + h.hdr_len + h.type_off))))->type = first;
	for (uint32_t i = 0; i < CHAIN; i++) {
		static const int kinds[] = { BTF_KIND_TYPEDEF, BTF_KIND_CONST, BTF_KIND_VOLATILE };
		struct btf_type t = {
			.info = (uint32_t)(kinds_mix ? kinds[i % 3] : BTF_KIND_TYPEDEF) << 24,
			.type = i + 1 < CHAIN || array ? first + i + 1 : (last_to ? last_to : key),
		};

		memcpy(p + sizeof(h) + h.type_len + i * sizeof(t), &t, sizeof(t));
	}
	if (array) {
		struct {
			struct btf_type t;
			struct btf_array a;
		} arr = { { .info = (uint32_t)BTF_KIND_ARRAY << 24 },
			  { last_to ? last_to : key, key, 1 } };

		memcpy(p + sizeof(h) + h.type_len + (size_t)CHAIN * sizeof(struct btf_type),
		       &arr, sizeof(arr));
	}
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len += (uint32_t)chain_len;
	h.str_off = h.type_len;
	memcpy(p, &h, sizeof(h));
	sh = img_sec(&im, ".BTF", NULL);
	sh->sh_offset = off;
	sh->sh_size = sizeof(h) + h.type_len + h.str_len;
	btf_free(btf);
	return im;
}

static uint32_t first_new_id(const struct img *base)
{
	Elf64_Shdr *sh = img_sec(base, ".BTF", NULL);
	struct btf *btf = btf_parse(img_data(base, sh), sh->sh_size, "test");
	uint32_t n = btf_type_count(btf);

	btf_free(btf);
	return n;
}

int main(void)
{
	struct img base = img_read("obj_basic"), im;
	uint32_t first = first_new_id(&base), last = first + CHAIN - 1;
	char needle[128];
	struct bsdk_obj *obj;

	/* the chain ends: the key is a u32 behind a million typedefs */
	im = hostile(&base, 0, 0, 0);
	cap_start();
	obj = bsdk_obj_open_mem(im.buf, im.size, "long chain");
	bsdk_set_log(NULL, NULL);
	if (check(obj != NULL, "a chain of %u typedefs that ends opens", CHAIN)) {
		struct bsdk_map *m = bsdk_obj_map_find(obj, "counts");

		check(m != NULL, "map 'counts' is there");
		if (m)
			check_u64(bsdk_map_key_size(m), 4, "its key is the u32 at the end of the chain");
	} else {
		check_diag("    error: %s", cap.first);
	}
	bsdk_obj_close(obj);
	free(im.buf);

	/* typedef, const and volatile in turn: the same */
	im = hostile(&base, 1, 0, 0);
	obj = bsdk_obj_open_mem(im.buf, im.size, "mixed chain");
	check(obj && bsdk_map_key_size(bsdk_obj_map_find(obj, "counts")) == 4,
	      "a chain of typedefs, consts and volatiles resolves to the u32");
	bsdk_obj_close(obj);
	free(im.buf);

	/* the last typedef points back 10 types: a loop at the end */
	im = hostile(&base, 0, 0, last - 10);
	snprintf(needle, sizeof(needle), "type %u: refers back to type %u", last, last - 10);
	expect_open_fails(&im, BSDK_EBTF, "a loop at the end of a million typedefs", needle);

	/* the whole chain is the loop */
	im = hostile(&base, 1, 0, first);
	snprintf(needle, sizeof(needle), "type %u: refers back to type %u", last, first);
	expect_open_fails(&im, BSDK_EBTF, "a loop through a million modifiers", needle);

	/* the last one names itself */
	im = hostile(&base, 0, 0, last);
	snprintf(needle, sizeof(needle), "type %u: refers back to type %u", last, last);
	expect_open_fails(&im, BSDK_EBTF, "a typedef of itself at the end of the chain", needle);

	/* an array closes the loop: a walk that skips the typedefs at every
	 * hop of the array walk goes round a million times a million */
	im = hostile(&base, 0, 1, 0);
	obj = bsdk_obj_open_mem(im.buf, im.size, "chain with an array");
	check(obj && bsdk_map_key_size(bsdk_obj_map_find(obj, "counts")) == 4,
	      "a million typedefs of a u32[1] resolve to 4 bytes");
	bsdk_obj_close(obj);
	free(im.buf);
	im = hostile(&base, 0, 1, first);
	snprintf(needle, sizeof(needle), "type %u: refers back to type %u", last + 1, first);
	expect_open_fails(&im, BSDK_EBTF, "a loop of a million typedefs and an array", needle);

	free(base.buf);
	return check_done();
}
