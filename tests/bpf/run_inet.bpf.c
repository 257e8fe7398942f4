// SPDX-License-Identifier: GPL-2.0
/*
 * run_inet.bpf.c - a TCP state tracer written the way libbpf-tools'
 * tcpstates and tcplife are: tracepoint sock/inet_sock_set_state, the
 * record a local struct, its addresses unsigned __int128 filled by
 * bpf_probe_read_kernel() from the tracepoint's __u8 saddr[4] or
 * saddr_v6[16] by family, and the socket's own fields read with
 * BPF_CORE_READ(). tests/bats/run_inet.bats checks that `bpfsdk run` shows
 * what the tools' user spaces print (inet_ntop(), ntohs()):
 *
 *   saddr, daddr  addresses by family: the record's type says only
 *                 unsigned __int128, the family member beside them says which
 *   sport, dport  the tracepoint's, already in host order: as stored
 *   kdport        __be16 skc_dport as the kernel keeps it (big-endian): the
 *                 analysis of the stores shows it in host order
 *   kdport_host   the same after bpf_ntohs(): as stored
 *   local_v4      __be32 skc_rcv_saddr: an address by where it came from
 *                 alone (its name says nothing)
 *   lport         the port asked for, from .rodata: named like a port, from
 *                 no kernel field - `inspect` says it could not classify it
 *
 * and the map conns counts the connections made by where they went, keyed
 * as tcptop keys its map: its key's __u8 daddr[16] is an address by the
 * family member beside it, its __be16 dport big-endian by its type - in a
 * map view and in the labels of --metrics.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

#include "run_inet.h"

struct conn_key {
	__u8 daddr[16];
	__be16 dport;
	__u16 family;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct conn_key);
	__type(value, __u64);
} conns SEC(".maps");

/* A client's connection made: one more for its destination. */
static void count(struct trace_event_raw_inet_sock_set_state *ctx, __u16 family)
{
	struct conn_key k = {};
	__u64 one = 1, *n;

	if (ctx->oldstate != TCP_SYN_SENT || ctx->newstate != TCP_ESTABLISHED)
		return;
	k.family = family;
	k.dport = bpf_htons(ctx->dport);
	if (family == AF_INET)
		bpf_probe_read_kernel(k.daddr, sizeof(ctx->daddr), ctx->daddr);
	else
		bpf_probe_read_kernel(k.daddr, sizeof(k.daddr), ctx->daddr_v6);
	n = bpf_map_lookup_elem(&conns, &k);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&conns, &k, &one, BPF_NOEXIST);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int inet_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct sock *sk = (struct sock *)ctx->skaddr;
	struct inet_event e = {};
	__u16 family = ctx->family;

	if (ctx->protocol != IPPROTO_TCP ||
	    (ctx->dport != target_port && ctx->sport != target_port))
		return 0;
	e.skaddr = (__u64)sk;
	e.oldstate = ctx->oldstate;
	e.newstate = ctx->newstate;
	e.family = family;
	e.sport = ctx->sport;
	e.dport = ctx->dport;
	e.kdport = BPF_CORE_READ(sk, __sk_common.skc_dport);
	e.kdport_host = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	e.local_v4 = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
	e.lport = target_port;
	if (family == AF_INET) {
		bpf_probe_read_kernel(&e.saddr, sizeof(ctx->saddr), ctx->saddr);
		bpf_probe_read_kernel(&e.daddr, sizeof(ctx->daddr), ctx->daddr);
	} else {
		bpf_probe_read_kernel(&e.saddr, sizeof(e.saddr), ctx->saddr_v6);
		bpf_probe_read_kernel(&e.daddr, sizeof(e.daddr), ctx->daddr_v6);
	}
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	count(ctx, family);
	return 0;
}
