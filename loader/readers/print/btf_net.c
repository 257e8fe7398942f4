// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_net.c - the BTF printer's addresses and ports (BSDK_BTF_NET and
 * views): a member shown as the tool that sent it prints it, with
 * inet_ntop() or ntohs(), when the BTF or the record-site analysis says
 * what it holds. The rule (docs/bpfsdk-run.md, "Addresses and ports"):
 *
 *  - a typedef __be16, __be32 or __be64 on the way to an integer: big-endian,
 *    shown in host order - unless the member is named like an address
 *    (*addr*) and is 4 bytes, then an IPv4 address;
 *  - struct in_addr, struct in6_addr: an address;
 *  - a 16-byte (unsigned __int128, __u8[16], __u32[4]) or 4-byte member
 *    named like an address: an address when the struct has a family member
 *    beside it (a name alone is too weak: __u32 daddr may be anything, and a
 *    16-byte one holds an IPv4 address in its first 4 bytes when the family
 *    is packed elsewhere, as solisten's in proto);
 *  - a view (bsdk_records_views(), --field NAME=raw) wins over all of this.
 *
 * An address is shown by the record's family member (family, af, *_family),
 * as inet_ntop(family, &field) shows it: AF_INET the first 4 bytes,
 * AF_INET6 all 16; another family, or AF_INET6 in a 4-byte member, as
 * stored. Without a family member, only a struct in_addr or in6_addr, or
 * the kernel field the value came from (a view), makes it an address.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "readers/print/btf_print_out.h"

static bool named_like_addr(const char *name)
{
	return name && strstr(name, "addr") != NULL;
}

bool net_family_name(const char *name)
{
	size_t n;

	/* asked of each member of every record: the cheap tests first */
	if ((name[0] == 'f' && strcmp(name, "family") == 0) ||
	    (name[0] == 'a' && strcmp(name, "af") == 0))
		return true;
	n = strlen(name);
	return n > 7 && strcmp(name + n - 7, "_family") == 0;
}

/* The record's family: its first integer member (top struct, anonymous ones inlined) named
 * like one, read from the record; -1 when it has none or the record stops before it. On the
 * way, *has is set when the struct has a family member at all, past the record's end too:
 * the walk ends early only once it has seen one (net_struct_has_family()'s answer), so one
 * walk a record serves both. */
static int find_family(const struct pr *p, const struct btf_type *t, uint64_t off, int depth,
		       bool *has)
{
	const struct btf_member *m = btf_members(t);
	bool kflag = BTF_INFO_KFLAG(t->info);

	for (uint16_t i = 0; depth < 4 && i < btf_vlen(t); i++) {
		const char *name = btf_name(p->btf, (const void *)&m[i]);
		const struct btf_type *mt = btf_skip_mods(p->btf, m[i].type, NULL);
		uint64_t moff = off + (kflag ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset);
		int kind = mt ? btf_kind(mt) : 0;

		if (!*name && (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION)) {
			int f = find_family(p, mt, moff, depth + 1, has);

			if (f >= 0)
				return f;
		} else if (*name && (kind == BTF_KIND_INT || kind == BTF_KIND_ENUM) &&
			   net_family_name(name)) {
			uint32_t v = 0;

			*has = true;
			if (moff % 8 || (mt->size != 1 && mt->size != 2 && mt->size != 4))
				continue;
			if (moff / 8 + mt->size > p->size)
				return -1;
			memcpy(&v, p->data + moff / 8, mt->size);	/* little-endian hosts */
			return (int)(v & 0x7fffffff);
		}
	}
	return -1;
}

void net_init(struct pr *p, uint32_t id)
{
	const struct btf_type *t = btf_skip_mods(p->btf, id, NULL);

	p->family = -1;
	p->has_family = false;
	if (!(p->flags & BSDK_BTF_NET) || !t ||
	    (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION))
		return;
	/* a family member past the end of the record still says the struct has one */
	p->family = find_family(p, t, 0, 0, &p->has_family);
}

bool net_struct_has_family(const struct btf *btf, const struct btf_type *t, int depth)
{
	const struct btf_member *m = btf_members(t);

	for (uint16_t i = 0; depth < 4 && i < btf_vlen(t); i++) {
		const char *name = btf_name(btf, (const void *)&m[i]);
		const struct btf_type *mt = btf_skip_mods(btf, m[i].type, NULL);
		int kind = mt ? btf_kind(mt) : 0;

		if (!*name && (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) &&
		    net_struct_has_family(btf, mt, depth + 1))
			return true;
		if (*name && net_family_name(name) && (kind == BTF_KIND_INT || kind == BTF_KIND_ENUM))
			return true;
	}
	return false;
}

/* What the BTF says member name of type id (size bytes) holds. */
enum bsdk_btf_view net_btf_view(const struct btf *btf, uint32_t id, const char *name,
				bool has_family)
{
	bool be = false;
	const struct btf_type *t = btf_type_by_id(btf, id);
	int steps = 0;

	for (; t && steps < 16; steps++) {	/* the typedefs on the way, each named */
		int kind = btf_kind(t);
		const char *tn = btf_name(btf, t);

		if (kind == BTF_KIND_TYPEDEF && strncmp(tn, "__be", 4) == 0 &&
		    (strcmp(tn + 4, "16") == 0 || strcmp(tn + 4, "32") == 0 ||
		     strcmp(tn + 4, "64") == 0))
			be = true;
		if (kind != BTF_KIND_TYPEDEF && kind != BTF_KIND_CONST &&
		    kind != BTF_KIND_VOLATILE && kind != BTF_KIND_RESTRICT &&
		    kind != BTF_KIND_TYPE_TAG)
			break;
		t = btf_type_by_id(btf, t->type);
	}
	if (!t || steps == 16)
		return BSDK_VIEW_DEFAULT;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: {
		const char *sn = btf_name(btf, t);

		if ((strcmp(sn, "in_addr") == 0 && t->size == 4) ||
		    (strcmp(sn, "in6_addr") == 0 && t->size == 16))
			return BSDK_VIEW_INET;
		return BSDK_VIEW_DEFAULT;
	}
	case BTF_KIND_INT:
		if (be && t->size == 4 && named_like_addr(name))
			return BSDK_VIEW_INET;
		if (be && (t->size == 2 || t->size == 4 || t->size == 8))
			return BSDK_VIEW_NTOH;
		/* fall through */
	case BTF_KIND_ARRAY: {
		uint64_t size = 0;

		if (btf_kind(t) == BTF_KIND_ARRAY) {
			const struct btf_array *a = (const void *)(t + 1);
			const struct btf_type *e = btf_skip_mods(btf, a->type, NULL);

			if (!e || btf_kind(e) != BTF_KIND_INT || (e->size != 1 && e->size != 4))
				return BSDK_VIEW_DEFAULT;
			size = (uint64_t)a->nelems * e->size;
		} else {
			size = t->size;
		}
		if ((size == 16 || size == 4) && has_family && named_like_addr(name))
			return BSDK_VIEW_INET;
		return BSDK_VIEW_DEFAULT;
	}
	default:
		return BSDK_VIEW_DEFAULT;
	}
}

static enum bsdk_btf_view view_of(const struct pr *p, uint32_t id, const char *name)
{
	for (size_t i = 0; p->named_nest == 0 && i < p->nviews; i++)
		if (p->views[i].name && strcmp(p->views[i].name, name) == 0 &&
		    p->views[i].view != BSDK_VIEW_DEFAULT)
			return p->views[i].view;
	if (!(p->flags & BSDK_BTF_NET))
		return BSDK_VIEW_DEFAULT;
	return net_btf_view(p->btf, id, name, p->has_family);
}

static bool out_inet(struct pr *p, const unsigned char *b, uint64_t size)
{
	char s[INET6_ADDRSTRLEN];
	int af = p->family;

	if (af < 0)
		af = size == 4 ? AF_INET : AF_INET6;
	if ((af != AF_INET && af != AF_INET6) || (af == AF_INET6 && size < 16) ||
	    !inet_ntop(af, b, s, sizeof(s)))
		return false;	/* another family: as stored */
	if (p->fmt == BSDK_BTF_JSON)
		pr_outc(p, '"');
	pr_outs(p, s);
	if (p->fmt == BSDK_BTF_JSON)
		pr_outc(p, '"');
	return true;
}

bool net_member(struct pr *p, uint32_t id, uint64_t off, uint32_t bitfield, const char *name)
{
	enum bsdk_btf_view v;
	uint64_t size = 0;
	const struct btf_type *t;
	const unsigned char *b;

	if (bitfield || off % 8 || (!p->nviews && !(p->flags & BSDK_BTF_NET)))
		return false;
	v = view_of(p, id, name);
	if (v == BSDK_VIEW_DEFAULT || v == BSDK_VIEW_STORED)
		return false;
	t = btf_skip_mods(p->btf, id, NULL);
	if (!t)
		return false;
	if (btf_kind(t) == BTF_KIND_ARRAY) {
		const struct btf_array *a = (const void *)(t + 1);
		const struct btf_type *e = btf_skip_mods(p->btf, a->type, NULL);

		if (!e || btf_kind(e) != BTF_KIND_INT || a->nelems > 16)
			return false;
		size = (uint64_t)a->nelems * e->size;
	} else if (btf_kind(t) == BTF_KIND_INT || btf_kind(t) == BTF_KIND_STRUCT) {
		size = t->size;
	}
	if ((size != 2 && size != 4 && size != 8 && size != 16) || off / 8 + size > p->size)
		return false;	/* past the record: the printer's null */
	b = p->data + off / 8;
	if (v == BSDK_VIEW_INET)
		return (size == 4 || size == 16) && out_inet(p, b, size);
	if (btf_kind(t) != BTF_KIND_INT || size == 16)	/* NTOH: integers of 2, 4, 8 bytes */
		return false;
	uint64_t x = 0;

	for (uint64_t i = 0; i < size; i++)
		x = x << 8 | b[i];
	pr_out_u64(p, x);
	return true;
}

enum bsdk_btf_view bsdk_btf_member_view(const struct bsdk_btf *bbtf, uint32_t id, uint32_t i)
{
	const struct btf *btf = (const struct btf *)bbtf;
	const struct btf_type *t = btf ? btf_skip_mods(btf, id, NULL) : NULL;
	const struct btf_member *m;

	if (!t || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) ||
	    i >= btf_vlen(t))
		return BSDK_VIEW_DEFAULT;
	m = &btf_members(t)[i];
	return net_btf_view(btf, m->type, btf_name(btf, (const void *)m),
			    net_struct_has_family(btf, t, 0));
}
