// SPDX-License-Identifier: GPL-2.0
/*
 * ext_kconfig_bad.bpf.c - __kconfig externs the loader must refuse, for
 * tests/bats/externs.bats: an option the kernel's configuration does not
 * have, not __weak, and an integer option declared bool. Load fails with
 * one error line naming each.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

extern _Bool CONFIG_BPFSDK_NOT_THERE __kconfig;
extern _Bool CONFIG_HZ __kconfig;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tp/syscalls/sys_enter_getpgid")
int use_kconfig(void *ctx)
{
	__u32 v = CONFIG_BPFSDK_NOT_THERE + CONFIG_HZ;

	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &v, sizeof(v));
	return 0;
}
