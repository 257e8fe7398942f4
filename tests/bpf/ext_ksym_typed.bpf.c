// SPDX-License-Identifier: GPL-2.0
/*
 * ext_ksym_typed.bpf.c - a typed __ksym variable, for
 * tests/bats/externs.bats: the per-CPU counter bpf_prog_active, found in
 * the kernel's BTF, read with bpf_this_cpu_ptr(). The kernel raises it
 * around every tracepoint program it runs, so the program reads 1. (The
 * kernel needs the variable in kallsyms too: CONFIG_KALLSYMS_ALL.)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern const int bpf_prog_active __ksym;

const volatile __u32 target_pid = 0;

struct ext_ksym_typed_event {
	__s32 prog_active;
	__u32 pad;
};

BPFSDK_RECORD(ext_ksym_typed_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tp/syscalls/sys_enter_getpgid")
int send_prog_active(void *ctx)
{
	struct ext_ksym_typed_event e = {};

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	e.prog_active = *(const int *)bpf_this_cpu_ptr(&bpf_prog_active);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
