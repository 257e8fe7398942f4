// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fentry.bpf.c - libbpf-bootstrap's "fentry" on bpfsdk's headers: a trace
 * pipe line when the kernel enters do_unlinkat() (the file being removed)
 * and one when it returns (with its result), through the BPF trampoline.
 * Kernels that refuse trampolines (EPERM) cannot load it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct filename {
	const char *name;
} __attribute__((preserve_access_index));

SEC("fentry/do_unlinkat")
int BPF_PROG(unlink_enter, int dfd, struct filename *name)
{
	int pid = bpf_get_current_pid_tgid() >> 32;
	char path[64];

	bpf_probe_read_kernel_str(path, sizeof(path), BPF_CORE_READ(name, name));
	bpf_printk("fentry: pid %d unlinks %s", pid, path);
	return 0;
}

SEC("fexit/do_unlinkat")
int BPF_PROG(unlink_exit, int dfd, struct filename *name, long ret)
{
	int pid = bpf_get_current_pid_tgid() >> 32;
	char path[64];

	bpf_probe_read_kernel_str(path, sizeof(path), BPF_CORE_READ(name, name));
	bpf_printk("fexit: pid %d unlinked %s: %ld", pid, path, ret);
	return 0;
}
