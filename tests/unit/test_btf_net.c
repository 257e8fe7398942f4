// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_btf_net.c - the BTF printer's addresses and ports (BSDK_BTF_NET and
 * views) over types built here: what the BTF says (__be* typedefs,
 * struct in6_addr, 16-byte *addr* members, 4-byte ones beside a family),
 * the record's family deciding as inet_ntop() would, names alone deciding
 * nothing, views winning, and a record that stops inside an address.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bpfsdk.h"
#include "readers/print/btf_print_out.h"
#include "check.h"
#include "btf_build.h"
#include "json_valid.h"

static struct bb b;
static uint32_t net_t, bare_t;

static void build_types(void)
{
	uint32_t u8, u16, u32, u128, be16, be32, a16, in6, a16w;

	bb_init(&b);
	u8 = bb_int(&b, "unsigned char", 1, 0);
	u16 = bb_int(&b, "unsigned short", 2, 0);
	u32 = bb_int(&b, "unsigned int", 4, 0);
	u128 = bb_int(&b, "unsigned __int128", 16, 0);
	be16 = bb_ref(&b, BTF_KIND_TYPEDEF, "__be16", u16);
	be32 = bb_ref(&b, BTF_KIND_TYPEDEF, "__be32", u32);
	a16 = bb_array(&b, u8, u32, 16);
	in6 = bb_struct(&b, "in6_addr", 16, 1);
	bb_member(&b, "u6_addr8", a16, 0);
	a16w = bb_array(&b, u8, u32, 16);

	/* 0 saddr __be32 | 4 sport __be16 | 6 family | 8 daddr __int128 | 24 peer_addr u32 |
	 * 28 dport u16 | 30 pad | 32 a6 in6_addr | 48 daddr_raw u8[16] */
	net_t = bb_struct(&b, "net", 64, 8);
	bb_member(&b, "saddr", be32, 0);
	bb_member(&b, "sport", be16, 32);
	bb_member(&b, "family", u16, 48);
	bb_member(&b, "daddr", u128, 64);
	bb_member(&b, "peer_addr", u32, 192);
	bb_member(&b, "dport", u16, 224);
	bb_member(&b, "a6", in6, 256);
	bb_member(&b, "laddr", a16w, 384);

	/* no family: a 4-byte *addr* is a number, a 16-byte one an IPv6 address */
	bare_t = bb_struct(&b, "bare", 20, 2);
	bb_member(&b, "daddr", u32, 0);
	bb_member(&b, "addr6", a16, 32);
}

static char *print(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		   enum bsdk_btf_format fmt, unsigned int flags,
		   const struct bsdk_btf_field_view *views, size_t n, int *err)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	*err = bsdk_btf_print_views(btf, id, data, size, fmt, flags, views, n, f);
	fclose(f);
	return text;
}

static void check_out(const struct bsdk_btf *btf, uint32_t id, const void *data, size_t size,
		      enum bsdk_btf_format fmt, unsigned int flags,
		      const struct bsdk_btf_field_view *views, size_t n, int want_err,
		      const char *want, const char *what)
{
	int err;
	char *text = print(btf, id, data, size, fmt, flags, views, n, &err);

	check_i64(err, want_err, "%s: return", what);
	check_str(text, want, "%s", what);
	if (fmt == BSDK_BTF_JSON && !(flags & BSDK_BTF_MEMBERS))
		check(json_valid(text, strlen(text)), "%s: valid JSON: %s", what, text);
	free(text);
}

static void record(unsigned char *rec, uint16_t family)
{
	static const unsigned char lo4[4] = { 127, 0, 0, 1 }, ten[4] = { 10, 0, 0, 2 };
	static const unsigned char lo6[16] = { [15] = 1 };
	static const unsigned char mapped[16] = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 1 };
	uint16_t dport = 8080;

	memset(rec, 0, 64);
	memcpy(rec, lo4, 4);
	rec[4] = 0, rec[5] = 80;		/* port 80, big-endian */
	memcpy(rec + 6, &family, 2);
	if (family == 10)
		memcpy(rec + 8, lo6, 16);
	else
		memcpy(rec + 8, ten, 4);
	memcpy(rec + 24, lo4, 4);
	memcpy(rec + 28, &dport, 2);
	memcpy(rec + 32, mapped, 16);
	memcpy(rec + 48, lo6, 16);
}

static void test_family(const struct bsdk_btf *btf)
{
	unsigned char rec[64];

	record(rec, 2);
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, BSDK_BTF_NET, NULL, 0, 0,
		  "{\"saddr\":\"127.0.0.1\",\"sport\":80,\"family\":2,\"daddr\":\"10.0.0.2\","
		  "\"peer_addr\":\"127.0.0.1\",\"dport\":8080,\"a6\":\"0.0.0.0\",\"laddr\":\"0.0.0.0\"}",
		  "AF_INET: every address by its first 4 bytes, the __be16 in host order");
	record(rec, 10);
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, BSDK_BTF_NET, NULL, 0, 0,
		  "{\"saddr\":16777343,\"sport\":80,\"family\":10,\"daddr\":\"::1\","
		  "\"peer_addr\":16777343,\"dport\":8080,\"a6\":\"::ffff:127.0.0.1\",\"laddr\":\"::1\"}",
		  "AF_INET6: 16-byte addresses whole, 4-byte ones as stored");
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_TEXT, BSDK_BTF_NET | BSDK_BTF_MEMBERS,
		  NULL, 0, 0,
		  " saddr=16777343 sport=80 family=10 daddr=::1 peer_addr=16777343 dport=8080"
		  " a6=::ffff:127.0.0.1 laddr=::1", "AF_INET6 in text: bare");
	record(rec, 1);
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, BSDK_BTF_NET | BSDK_BTF_MEMBERS,
		  NULL, 0, 0,
		  ",\"saddr\":16777343,\"sport\":80,\"family\":1,\"daddr\":33554442,"
		  "\"peer_addr\":16777343,\"dport\":8080,"
		  "\"a6\":{\"u6_addr8\":[0,0,0,0,0,0,0,0,0,0,255,255,127,0,0,1]},"
		  "\"laddr\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]",
		  "another family: addresses as stored, the __be16 still in host order");
	record(rec, 2);
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, 0, NULL, 0, 0,
		  "{\"saddr\":16777343,\"sport\":20480,\"family\":2,\"daddr\":33554442,"
		  "\"peer_addr\":16777343,\"dport\":8080,"
		  "\"a6\":{\"u6_addr8\":[0,0,0,0,0,0,0,0,0,0,255,255,127,0,0,1]},"
		  "\"laddr\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}",
		  "without BSDK_BTF_NET: as stored");
	check_out(btf, net_t, rec, 26, BSDK_BTF_JSON, BSDK_BTF_NET, NULL, 0, -ERANGE,
		  "{\"saddr\":\"127.0.0.1\",\"sport\":80,\"family\":2,\"daddr\":\"10.0.0.2\","
		  "\"peer_addr\":null,\"dport\":null,\"a6\":null,\"laddr\":null}",
		  "a record that stops before an address: null");
	check_out(btf, net_t, rec, 12, BSDK_BTF_JSON, BSDK_BTF_NET, NULL, 0, -ERANGE,
		  "{\"saddr\":\"127.0.0.1\",\"sport\":80,\"family\":2,\"daddr\":null,"
		  "\"peer_addr\":null,\"dport\":null,\"a6\":null,\"laddr\":null}",
		  "a record that stops inside an address: null");
}

static void test_views(const struct bsdk_btf *btf)
{
	unsigned char rec[64];
	const struct bsdk_btf_field_view views[] = {
		{ "saddr", BSDK_VIEW_STORED }, { "dport", BSDK_VIEW_NTOH },
		{ "daddr", BSDK_VIEW_DEFAULT }, { "nope", BSDK_VIEW_INET },
	};
	char buf[64];
	long len;

	record(rec, 2);
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, BSDK_BTF_NET, views, 4, 0,
		  "{\"saddr\":16777343,\"sport\":80,\"family\":2,\"daddr\":\"10.0.0.2\","
		  "\"peer_addr\":\"127.0.0.1\",\"dport\":36895,\"a6\":\"0.0.0.0\",\"laddr\":\"0.0.0.0\"}",
		  "views: saddr as stored, dport swapped, a view of no member ignored");
	check_out(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, 0, views + 1, 1, 0,
		  "{\"saddr\":16777343,\"sport\":20480,\"family\":2,\"daddr\":33554442,"
		  "\"peer_addr\":16777343,\"dport\":36895,"
		  "\"a6\":{\"u6_addr8\":[0,0,0,0,0,0,0,0,0,0,255,255,127,0,0,1]},"
		  "\"laddr\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}",
		  "a view without BSDK_BTF_NET: only it");
	check_i64(bsdk_btf_print_views(btf, net_t, rec, sizeof(rec), BSDK_BTF_JSON, 0, NULL, 1,
				       stdout), -EINVAL, "views NULL with a count");

	check_i64(bsdk_btf_member_view(btf, net_t, 0), BSDK_VIEW_INET, "member view: __be32 saddr");
	check_i64(bsdk_btf_member_view(btf, net_t, 1), BSDK_VIEW_NTOH, "member view: __be16 sport");
	check_i64(bsdk_btf_member_view(btf, net_t, 5), BSDK_VIEW_DEFAULT, "member view: u16 dport");
	check_i64(bsdk_btf_member_view(btf, net_t, 99), BSDK_VIEW_DEFAULT, "member view: no member");
	len = bsdk_btf_snprint_member(btf, net_t, 3, rec, sizeof(rec), buf, sizeof(buf));
	check_i64(len, 8, "snprint_member: the length");
	check_str(buf, "10.0.0.2", "snprint_member: daddr by the struct's family");
	len = bsdk_btf_snprint_member(btf, net_t, 2, rec, sizeof(rec), buf, sizeof(buf));
	check_str(buf, "2", "snprint_member: a plain member");
}

static void test_bare(const struct bsdk_btf *btf)
{
	unsigned char rec[20] = { 127, 0, 0, 1, [19] = 1 };

	check_out(btf, bare_t, rec, sizeof(rec), BSDK_BTF_JSON, BSDK_BTF_NET, NULL, 0, 0,
		  "{\"daddr\":16777343,\"addr6\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}",
		  "no family: a name alone leaves a u32 a number and 16 bytes as stored (they may hold an IPv4 address)");
}

/* The names that make a member the record's family. */
static void test_family_names(void)
{
	const char *yes[] = { "family", "af", "sa_family", "addr_family", "ss_family" };
	const char *no[] = { "fam", "afx", "_family", "families", "a", "", "familyx" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		check(net_family_name(yes[i]), "'%s' names a family", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		check(!net_family_name(no[i]), "'%s' does not", no[i]);
}

int main(void)
{
	struct bsdk_btf *btf;
	size_t size;
	void *raw;

	test_family_names();
	build_types();
	raw = bb_raw(&b, &size);
	btf = bsdk_btf_new(raw, size);
	free(raw);
	bb_free(&b);
	if (!check(btf != NULL, "test BTF parses"))
		return check_done();
	test_family(btf);
	test_views(btf);
	test_bare(btf);
	bsdk_btf_free(btf);
	return check_done();
}
