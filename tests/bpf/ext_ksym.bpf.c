// SPDX-License-Identifier: GPL-2.0
/*
 * ext_ksym.bpf.c - __ksym externs, for tests/bats/externs.bats: an
 * untyped kernel symbol whose address comes from /proc/kallsyms (the
 * getpgid syscall's entry point), kfunc calls (the numbers iterator of
 * bpf_for, Linux 6.4), and weak externs the kernel lacks. On getpgid(N)
 * by the driver, one record; the loop sums 0..N%8-1 through the kfuncs.
 * ext_ksym_typed.bpf.c has the typed variable.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* vmlinux.h and the UAPI linux/bpf.h of 6.4 and later have it (Debian 13's
 * do); Debian 12's UAPI header, of 6.1, does not. */
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));
#endif

/* only functions are in every kernel's kallsyms (variables need
 * CONFIG_KALLSYMS_ALL): take the address of the syscall's entry point */
#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPGID __arm64_sys_getpgid
#else
#define SYS_GETPGID __x64_sys_getpgid
#endif
extern const void SYS_GETPGID __ksym;
extern const int bpfsdk_no_such_variable __ksym __weak;
extern void bpfsdk_no_such_kfunc(void) __ksym __weak;

const volatile __u32 target_pid = 0;

struct ext_ksym_event {
	__u64 sys_getpgid;
	__s32 sum;
	__s32 pad0;
	__u8 has_iter;
	__u8 has_missing_var;
	__u8 has_missing_kfunc;
	__u8 pad[5];
};

BPFSDK_RECORD(ext_ksym_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* sys_enter_getpgid's format: the common fields, the syscall number, pid */
struct getpgid_args {
	__u64 common;
	__s32 nr;
	__u32 pad;
	__u64 pid;
};

SEC("tp/syscalls/sys_enter_getpgid")
int send_ksyms(struct getpgid_args *ctx)
{
	struct ext_ksym_event e = {};
	int i, n = ctx->pid & 7;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	e.sys_getpgid = (__u64)&SYS_GETPGID;
	bpf_for(i, 0, n)
		e.sum += i;
	e.has_iter = bpf_ksym_exists(bpf_iter_num_new);
	e.has_missing_var = bpf_ksym_exists(&bpfsdk_no_such_variable);
	e.has_missing_kfunc = bpf_ksym_exists(bpfsdk_no_such_kfunc);
	if (e.has_missing_kfunc)
		bpfsdk_no_such_kfunc();	/* poisoned, and dead: the verifier skips it */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
