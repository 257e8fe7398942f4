// SPDX-License-Identifier: GPL-2.0
/*
 * ext_ksym_mismatch.bpf.c - __ksym externs the kernel has, declared with
 * another shape, for tests/bats/externs.bats: the int bpf_prog_active as
 * a struct, and bpf_task_from_pid() (one parameter) with two. Load fails
 * with one error line for each, saying what differs.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct not_an_int {
	long x;
};
struct task_struct;

extern const struct not_an_int bpf_prog_active __ksym;
extern struct task_struct *bpf_task_from_pid(int pid, int extra) __ksym;

SEC("tp/syscalls/sys_enter_getpgid")
int use_ksyms(void *ctx)
{
	return bpf_task_from_pid(1, 2) != 0 && bpf_prog_active.x;
}
