// SPDX-License-Identifier: GPL-2.0
/*
 * run_inet_heap.bpf.c - run_inet.bpf.c's record built the way libbpf-tools'
 * compat.bpf.h builds one for kernels without a ring buffer: in the value
 * of a one-entry per-CPU array (the "heap"), then sent with
 * bpf_perf_event_output() from there. tests/bats/run_inet.bats checks that
 * what the programs store in the map's value is followed as on the stack:
 * the same addresses and big-endian port.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

#include "run_inet.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct inet_event);
} heap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int inet_state_heap(struct trace_event_raw_inet_sock_set_state *ctx)
{
	struct sock *sk = (struct sock *)ctx->skaddr;
	__u16 family = ctx->family;
	struct inet_event *e;
	__u32 zero = 0;

	if (ctx->protocol != IPPROTO_TCP ||
	    (ctx->dport != target_port && ctx->sport != target_port))
		return 0;
	e = bpf_map_lookup_elem(&heap, &zero);
	if (!e)
		return 0;
	e->skaddr = (__u64)sk;
	e->oldstate = ctx->oldstate;
	e->newstate = ctx->newstate;
	e->family = family;
	e->sport = ctx->sport;
	e->dport = ctx->dport;
	e->kdport = BPF_CORE_READ(sk, __sk_common.skc_dport);
	e->kdport_host = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
	e->local_v4 = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
	e->lport = target_port;
	e->saddr = 0;
	e->daddr = 0;
	if (family == AF_INET) {
		bpf_probe_read_kernel(&e->saddr, sizeof(ctx->saddr), ctx->saddr);
		bpf_probe_read_kernel(&e->daddr, sizeof(ctx->daddr), ctx->daddr);
	} else {
		bpf_probe_read_kernel(&e->saddr, sizeof(e->saddr), ctx->saddr_v6);
		bpf_probe_read_kernel(&e->daddr, sizeof(e->daddr), ctx->daddr_v6);
	}
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
	return 0;
}
