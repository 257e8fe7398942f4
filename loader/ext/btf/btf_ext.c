// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_ext.c - parse an object's .BTF.ext section: func_info and line_info
 * per section (for the verifier's source lines), and the CO-RE relocation
 * records, handed on as they are.
 *
 * Layout: a header giving the offset and length of each list; a list is a
 * record size, then blocks { sec_name_off, num_info, records[num_info] }.
 * The file holds instruction offsets in bytes; the kernel wants them in
 * instructions.
 */
#include "format/btf.h"
#include "ext/btf/btf_ext.h"

struct walk {
	struct btf_ext *x;
	const struct elf_file *ef;
	const struct btf *btf;
};

/* A .BTF.ext error, naming the object: `return ext_error(w, "...", ...);` */
#define ext_error(w, fmt, ...) elf_fail((w)->ef, BSDK_EBTF, ".BTF.ext: " fmt, ##__VA_ARGS__)

/* Record i of n of section sec, its first known bytes 4-byte aligned. */
typedef int (*rec_fn)(struct walk *w, size_t sec, uint32_t i, uint32_t n, const void *rec);

/* One list of len bytes at p: each record's first known bytes, copied to an aligned buffer,
 * go to fn. Records may be larger than the fields we know. */
static int walk_list(struct walk *w, const char *p, uint32_t len, const char *what,
		     size_t known, rec_fn fn)
{
	uint32_t rec_size, off = 4;
	char rec[64];

	if (len == 0)
		return 0;
	if (len < 4)
		return ext_error(w, "%s is too short", what);
	memcpy(&rec_size, p, 4);
	if (rec_size < known || rec_size % 4 || known > sizeof(rec))
		return ext_error(w, "%s record size %u is invalid", what, rec_size);
	while (off < len) {
		uint32_t blk[2];	/* sec_name_off, num_info */
		const char *name;
		size_t sec;

		if (len - off < sizeof(blk))
			return ext_error(w, "%s ends inside a block header", what);
		memcpy(blk, p + off, sizeof(blk));
		off += sizeof(blk);
		name = btf_str(w->btf, blk[0]);
		if (!name || !elf_sec_by_name(w->ef, name, &sec) || !elf_sec_is_prog(w->ef, sec))
			return ext_error(w, "%s names a section that holds no code", what);
		if (blk[1] == 0 || blk[1] > (len - off) / rec_size)
			return ext_error(w, "%s for section '%s': %u records do not fit", what, name, blk[1]);
		for (uint32_t i = 0; i < blk[1]; i++, off += rec_size) {
			int err;

			memcpy(rec, p + off, known);
			err = fn(w, sec, i, blk[1], rec);
			if (err)
				return err;
		}
	}
	return 0;
}

/* func_info and line_info records, into x->info[sec]. */
static int info_rec(struct walk *w, size_t sec, uint32_t i, uint32_t n, const void *rec, bool line)
{
	const char *what = line ? "line_info" : "func_info", *name = w->ef->secs[sec].name;
	struct ext_info *e = &w->x->info[sec];
	struct bpf_line_info li;
	struct bpf_func_info fi;
	const struct btf_type *t;

	if (i == 0) {
		if (line ? e->line != NULL : e->func != NULL)
			return ext_error(w, "%s for section '%s' appears twice", what, name);
		if (line)
			e->line = calloc(n, sizeof(*e->line));
		else
			e->func = calloc(n, sizeof(*e->func));
		if (line ? !e->line : !e->func)
			return fail(ENOMEM);
	}
	memcpy(line ? (void *)&li : (void *)&fi, rec, line ? sizeof(li) : sizeof(fi));
	if ((line ? li.insn_off : fi.insn_off) % 8 ||
	    (line ? li.insn_off : fi.insn_off) >= w->ef->secs[sec].size)
		return ext_error(w, "%s for section '%s': record %u points outside the section", what, name, i);
	if (line) {
		if (!btf_str(w->btf, li.file_name_off) || !btf_str(w->btf, li.line_off))
			return ext_error(w, "line_info for section '%s': record %u: string offset out of range", name, i);
		li.insn_off /= 8;
		e->line[e->nline++] = li;
		return 0;
	}
	t = btf_type_by_id(w->btf, fi.type_id);
	if (!t || btf_kind(t) != BTF_KIND_FUNC)
		return ext_error(w, "func_info for section '%s': record %u: type %u is not a function", name, i, fi.type_id);
	fi.insn_off /= 8;
	e->func[e->nfunc++] = fi;
	return 0;
}

static int func_rec(struct walk *w, size_t sec, uint32_t i, uint32_t n, const void *rec)
{
	return info_rec(w, sec, i, n, rec, false);
}

static int line_rec(struct walk *w, size_t sec, uint32_t i, uint32_t n, const void *rec)
{
	return info_rec(w, sec, i, n, rec, true);
}

static int co_re_rec(struct walk *w, size_t sec, uint32_t i, uint32_t n, const void *rec)
{
	struct btf_ext_core c = { .sec = sec, .index = i };

	(void)n;
	memcpy(&c.rec, rec, sizeof(c.rec));
	return array_push(&w->x->core, &w->x->ncore, &c, sizeof(c));
}

int btf_ext_parse(struct btf_ext *x, const struct elf_file *ef, const struct btf *btf,
		  const void *data, size_t size)
{
	struct walk w = { x, ef, btf };
	struct btf_ext_header h = { 0 };
	const char *body;
	int err;

	if (size < BTF_EXT_HEADER_MIN)
		return ext_error(&w, "shorter than its header");
	memcpy(&h, data, size < sizeof(h) ? size : sizeof(h));
	if (h.magic != BTF_MAGIC || h.version != BTF_VERSION ||
	    h.hdr_len < BTF_EXT_HEADER_MIN || h.hdr_len > size)
		return ext_error(&w, "bad header");
	/* CO-RE relocations came later: only a longer header says where they are. */
	if (h.hdr_len < sizeof(h))
		h.core_relo_off = h.core_relo_len = 0;
	body = (const char *)data + h.hdr_len;
	if (range_outside(h.func_info_off, h.func_info_len, size - h.hdr_len) ||
	    range_outside(h.line_info_off, h.line_info_len, size - h.hdr_len) ||
	    range_outside(h.core_relo_off, h.core_relo_len, size - h.hdr_len))
		return ext_error(&w, "header describes sections outside the data");
	x->info = calloc(ef->nsecs, sizeof(*x->info));
	if (!x->info)
		return fail(ENOMEM);
	x->nsecs = ef->nsecs;
	err = walk_list(&w, body + h.func_info_off, h.func_info_len, "func_info",
			sizeof(struct bpf_func_info), func_rec);
	if (!err)
		err = walk_list(&w, body + h.line_info_off, h.line_info_len, "line_info",
				sizeof(struct bpf_line_info), line_rec);
	if (!err)
		err = walk_list(&w, body + h.core_relo_off, h.core_relo_len, "core_relo",
				sizeof(struct bpf_core_relo), co_re_rec);
	return err;
}

void btf_ext_free(struct btf_ext *x)
{
	for (size_t i = 0; x->info && i < x->nsecs; i++) {
		free(x->info[i].func);
		free(x->info[i].line);
	}
	free(x->info);
	free(x->core);
	memset(x, 0, sizeof(*x));
}
