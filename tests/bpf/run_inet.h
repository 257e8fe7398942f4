/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_inet.h - what run_inet.bpf.c and run_inet_heap.bpf.c share: the
 * kernel's types as vmlinux.h gives them, the port asked for and the
 * record, a tcpstates-style event.
 */
#ifndef RUN_INET_H
#define RUN_INET_H

#define AF_INET 2
#define IPPROTO_TCP 6
#define TCP_ESTABLISHED 1
#define TCP_SYN_SENT 2

/* The kernel's types, as vmlinux.h gives them: only the members read must
 * exist in the running kernel. */
struct sock_common {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	__u16 skc_num;
} __attribute__((preserve_access_index));

struct sock {
	struct sock_common __sk_common;
} __attribute__((preserve_access_index));

struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
};

struct trace_event_raw_inet_sock_set_state {
	struct trace_entry ent;
	const void *skaddr;
	int oldstate;
	int newstate;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u16 protocol;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
} __attribute__((preserve_access_index));

/* the port the test listens on (bpfsdk run --set target_port=PORT) */
const volatile __u16 target_port = 0;

struct inet_event {
	unsigned __int128 saddr;
	unsigned __int128 daddr;
	__u64 skaddr;
	__u32 local_v4;
	int oldstate;
	int newstate;
	__u16 family;
	__u16 sport;
	__u16 dport;
	__u16 kdport;
	__u16 kdport_host;
	__u16 lport;
	char comm[16];
};

#endif /* RUN_INET_H */
