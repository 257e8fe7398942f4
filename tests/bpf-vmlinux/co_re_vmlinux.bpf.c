// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_vmlinux.bpf.c - a program written the way most BPF tools are: the
 * kernel's types from a vmlinux.h generated from the BTF of the kernel it
 * runs on, the typed wrappers of bpf_tracing.h, CO-RE reads. Built only
 * for arm64 (make vmtest-arm64), against the arm64 kernel's vmlinux.h, and
 * run in the arm64 VM by tests/bats/co_re_vmlinux.bats: what it checks is
 * bpf_tracing.h's arm64 side (a syscall's argument in orig_x0, a
 * function's in x0..x2, the result in x0) and CO-RE against arm64 BTF.
 *
 * One record per hook, of target_pid only:
 *   1 ksyscall/getpgid         getpgid's argument (BPF_KSYSCALL)
 *   2 kprobe/do_sys_openat2    dfd, the path, open_how's flags and mode
 *                              (BPF_KPROBE, BPF_CORE_READ of the struct)
 *   3 fentry/do_sys_openat2    the same through the BPF trampoline
 *                              (BPF_PROG, typed pointers read directly)
 *   4 kretprobe/do_sys_openat2 the descriptor it returned (BPF_KRETPROBE)
 * each with the task's tgid and its parent's, read with CO-RE from the
 * task_struct.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile int target_pid;

struct core_vmlinux_event {
	u32 kind;
	u32 tgid;		/* task->tgid */
	u32 ppid;		/* task->real_parent->tgid */
	s32 dfd;
	u64 value;		/* getpgid's argument; open_how.flags; the fd */
	u64 mode;		/* open_how.mode */
	char path[32];
};

BPFSDK_RECORD(core_vmlinux_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
} events SEC(".maps");

static __always_inline bool mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == (u32)target_pid;
}

static __always_inline void fill_task(struct core_vmlinux_event *e, u32 kind)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	e->kind = kind;
	e->tgid = BPF_CORE_READ(task, tgid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
}

SEC("ksyscall/getpgid")
int BPF_KSYSCALL(on_getpgid, pid_t pid)
{
	struct core_vmlinux_event e = {};

	if (!mine())
		return 0;
	fill_task(&e, 1);
	e.value = (u64)pid;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(on_open_kprobe, int dfd, const char *filename, struct open_how *how)
{
	struct core_vmlinux_event e = {};

	if (!mine())
		return 0;
	fill_task(&e, 2);
	e.dfd = dfd;
	e.value = BPF_CORE_READ(how, flags);
	e.mode = BPF_CORE_READ(how, mode);
	bpf_probe_read_user_str(e.path, sizeof(e.path), filename);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("fentry/do_sys_openat2")
int BPF_PROG(on_open_fentry, int dfd, const char *filename, struct open_how *how)
{
	struct core_vmlinux_event e = {};

	if (!mine())
		return 0;
	fill_task(&e, 3);
	e.dfd = dfd;
	e.value = how->flags;
	e.mode = how->mode;
	bpf_probe_read_user_str(e.path, sizeof(e.path), filename);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("kretprobe/do_sys_openat2")
int BPF_KRETPROBE(on_open_ret, long ret)
{
	struct core_vmlinux_event e = {};

	if (!mine())
		return 0;
	fill_task(&e, 4);
	e.value = (u64)ret;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
