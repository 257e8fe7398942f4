// SPDX-License-Identifier: GPL-2.0
/*
 * ext_kconfig.bpf.c - __kconfig externs of every kind the loader fills,
 * for tests/bats/externs.bats: on getpgid() by the driver, one record of
 * the kernel's version, features and some CONFIG_ values, which the test
 * compares with uname -r and the kernel's configuration.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool LINUX_HAS_BPF_COOKIE __kconfig;
extern _Bool LINUX_HAS_SYSCALL_WRAPPER __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;		/* bool */
extern enum libbpf_tristate CONFIG_BPF_EVENTS __kconfig; /* tristate */
extern char CONFIG_BPF_JIT __kconfig __weak;		/* char: 'y', 'm' or 'n' */
extern int CONFIG_HZ __kconfig __weak;			/* integer */
extern char CONFIG_DEFAULT_HOSTNAME[16] __kconfig __weak; /* string */
extern _Bool CONFIG_BPFSDK_NO_SUCH_OPTION __kconfig __weak;
extern long long CONFIG_BPFSDK_NO_SUCH_NUMBER __kconfig __weak;

const volatile __u32 target_pid = 0;

struct ext_kconfig_event {
	__u32 version;
	__s32 hz;
	__s64 missing_number;
	__u8 bpf_syscall;
	__u8 bpf_events;
	__u8 bpf_jit;
	__u8 missing_bool;
	__u8 has_cookie;
	__u8 has_wrapper;
	__u8 pad[2];
	char hostname[16];
};

BPFSDK_RECORD(ext_kconfig_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tp/syscalls/sys_enter_getpgid")
int send_kconfig(void *ctx)
{
	struct ext_kconfig_event e = {};

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	e.version = LINUX_KERNEL_VERSION;
	e.hz = CONFIG_HZ;
	e.missing_number = CONFIG_BPFSDK_NO_SUCH_NUMBER;
	e.bpf_syscall = CONFIG_BPF_SYSCALL;
	e.bpf_events = CONFIG_BPF_EVENTS;
	e.bpf_jit = CONFIG_BPF_JIT;
	e.missing_bool = CONFIG_BPFSDK_NO_SUCH_OPTION;
	e.has_cookie = LINUX_HAS_BPF_COOKIE;
	e.has_wrapper = LINUX_HAS_SYSCALL_WRAPPER;
	__builtin_memcpy(e.hostname, CONFIG_DEFAULT_HOSTNAME, sizeof(e.hostname));
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
