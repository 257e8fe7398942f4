/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode_common.h - what the decode_*.bpf.c test objects share: a
 * tracepoint's syscall arguments, the pid they trace (bpfsdk run --set
 * target_pid=PID) and, unless DECODE_NO_EVENTS, the perf event array
 * their records go to.
 */
#ifndef DECODE_COMMON_H
#define DECODE_COMMON_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* syscalls/sys_enter_*: the common header, the syscall's number, its arguments */
struct sys_enter {
	__u64 common;
	long id;
	unsigned long args[6];
};

const volatile __u32 target_pid = 0;

#ifndef DECODE_NO_EVENTS
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");
#endif

#endif
