// SPDX-License-Identifier: GPL-2.0
/*
 * threads.bpf.c - one copy per thread of tests/threads/threads.c: on each
 * getppid() of the thread target_tid, a ring buffer record with a sequence
 * number, a count in an array map, the thread's tgid read by CO-RE and a
 * __kconfig value, so that every thread's round goes through the kernel
 * BTF cache and the configuration cache the library shares. thr_missing
 * names a tracepoint no kernel has: attaching everything leaves it out
 * with a warning, made by the library's log capture.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "kernel_facts.h"

char LICENSE[] SEC("license") = "GPL";

struct thr_event {
	__u32 tid;
	__u32 seq;
	__u32 tgid;
	__u32 version;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024);
} thr_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} thr_count SEC(".maps");

const volatile __u32 target_tid = 0;
__u64 thr_seq;
__u32 thr_hz;

SEC("tp/syscalls/sys_enter_getppid")
int thr_getppid(void *ctx)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct thr_event e = {};
	__u32 key = 0;
	__u64 *n;

	if ((__u32)bpf_get_current_pid_tgid() != target_tid)
		return 0;
	n = bpf_map_lookup_elem(&thr_count, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	e.tid = target_tid;
	e.seq = (__u32)__sync_add_and_fetch(&thr_seq, 1);
	e.tgid = BPF_CORE_READ(task, tgid);
	e.version = LINUX_KERNEL_VERSION;
	thr_hz = CONFIG_HZ;
	bpf_ringbuf_output(&thr_ring, &e, sizeof(e), 0);
	return 0;
}

SEC("tp/syscalls/sys_enter_bpfsdk_no_such_call")
int thr_missing(void *ctx)
{
	return 0;
}
