// SPDX-License-Identifier: GPL-2.0
/*
 * decode_reserve.bpf.c - the record lives behind a bpf_ringbuf_reserve()
 * pointer, filled by an inlined function, so only DWARF
 * knows its struct; a second struct of the same size, declared but never
 * sent, is there to show that the type comes from the call, not from the
 * size. tests/bats/run_decode.bats opens a unique path and reads it back.
 */
#define DECODE_NO_EVENTS
#include "decode_common.h"

#define NAME_LEN 64

struct open_event {
	__u32 pid;
	__s32 dfd;
	char comm[16];
	char filename[NAME_LEN];
};

/* Never sent, but in DWARF (and .BTF) through a global: the same 88 bytes. */
struct other_event {
	char bytes[88];
};
struct other_event *unused_other __attribute__((unused));

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} opens SEC(".maps");

static __always_inline int fill(struct open_event *e, struct sys_enter *ctx)
{
	e->pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	e->dfd = (__s32)ctx->args[0];
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return bpf_probe_read_user_str(e->filename, sizeof(e->filename),
				       (const char *)ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int reserve_openat(struct sys_enter *ctx)
{
	struct open_event *e;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	e = bpf_ringbuf_reserve(&opens, sizeof(*e), 0);
	if (!e)
		return 0;
	fill(e, ctx);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
