// SPDX-License-Identifier: GPL-2.0
/*
 * decode_local.bpf.c - written the way libbpf-tools are: the record is a
 * local (`struct event e = {}`) handed to bpf_perf_event_output(), so clang
 * leaves struct event out of .BTF, and the program reads task_struct with
 * CO-RE, which puts task_struct and the structs it holds into .BTF - among
 * them struct sched_info, whose 32 bytes are the record's size.
 * tests/bats/run_decode.bats checks that `bpfsdk run` decodes the records as
 * struct event, found in DWARF, and that with the DWARF stripped it prints
 * hex rather than struct sched_info.
 */
#include "decode_common.h"
#include <bpf/bpf_core_read.h>

/* The kernel's types, as vmlinux.h would give them: only the members read
 * need to exist in the running kernel; the rest only shape .BTF. */
struct sched_info {
	unsigned long pcount;
	unsigned long long run_delay;
	unsigned long long last_arrival;
	unsigned long long last_queued;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	struct sched_info sched_info;
} __attribute__((preserve_access_index));

struct event {
	__u32 pid;
	__u32 tgid;
	char comm[16];
	__u64 arg;
};

SEC("tracepoint/syscalls/sys_enter_getpgid")
int local_getpgid(struct sys_enter *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct event e = {};

	if (BPF_CORE_READ(task, tgid) != (int)target_pid)
		return 0;
	e.pid = (__u32)BPF_CORE_READ(task, pid);
	e.tgid = (__u32)BPF_CORE_READ(task, tgid);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	e.arg = ctx->args[0];
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
