// SPDX-License-Identifier: GPL-2.0
/*
 * cli_ringbuf.bpf.c - a BPF ring buffer for tests/bats/cli_run.bats:
 * `bpfsdk run` reads ringbuf maps as well as perf event arrays.
 *
 * Record: { pid, seq } (u32 each) with seq 1, 2, 3, ... from bpf_ringbuf_output(),
 * which copies without the 8-byte padding of perf rings.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} ring SEC(".maps");

const volatile __u32 target_pid = 0;
/* BPF_RB_NO_WAKEUP (1) here: the kernel never wakes the reader for a record */
const volatile __u64 output_flags = 0;
__u64 seq;	/* 64-bit: clang's default BPF ISA has no 32-bit fetch-add */

struct cli_ringbuf_event {
	__u32 pid;
	__u32 seq;
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int ring_getppid(void *ctx)
{
	struct cli_ringbuf_event e;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	e.pid = pid;
	e.seq = (__u32)__sync_add_and_fetch(&seq, 1);
	bpf_ringbuf_output(&ring, &e, sizeof(e), output_flags);
	return 0;
}
