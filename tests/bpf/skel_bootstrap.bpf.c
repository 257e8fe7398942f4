// SPDX-License-Identifier: GPL-2.0
/*
 * skel_bootstrap.bpf.c - the BPF side of tests/drivers/skel_bootstrap.c, a
 * user side written as libbpf's users write theirs. on_getpgid sends a
 * record per getpgid() of target_tgid through a ring buffer; on_missing
 * names a tracepoint no kernel has, so the attach policy leaves it out,
 * which must not make NAME__attach() fail while on_getpgid is attached.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;

struct bootstrap_event {
	__u32 tgid;
	__u32 arg;
};

BPFSDK_RECORD(bootstrap_event)
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 4096);
} events SEC(".maps");

/* The format of syscalls/sys_enter_*: the common header, the number, the
 * six arguments. */
struct sys_enter_args {
	__u64 common;
	long id;
	unsigned long args[6];
};

SEC("tracepoint/syscalls/sys_enter_getpgid")
int on_getpgid(struct sys_enter_args *ctx)
{
	struct bootstrap_event e;

	e.tgid = bpf_get_current_pid_tgid() >> 32;
	if (e.tgid != target_tgid)
		return 0;
	e.arg = (__u32)ctx->args[0];
	bpf_ringbuf_output(&events, &e, sizeof(e), 0);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_bpfsdk_no_such_call")
int on_missing(void *ctx)
{
	return 0;
}
