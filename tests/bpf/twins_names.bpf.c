// SPDX-License-Identifier: GPL-2.0
/*
 * twins_names.bpf.c - section names that are, and are not, twins, for
 * tests/bats/twins.bats: `bpfsdk inspect` lists the groups without loading
 * anything, so targets need not exist here.
 *
 *   a system call's entry, whatever the architecture's prefix: ksyscall,
 *   kprobe/__x64_sys_, fentry/__arm64_sys_ - one group
 *   kprobe/vfs_read+8 is not the function's entry: no twin of fentry/vfs_read
 *   fexit and kretprobe on vfs_write - one group
 *   tp/CAT/NAME and tp_btf/NAME - one group; tracepoint sys_enter_openat is
 *   not raw_tp/sys_enter
 *   two tp_btf programs on one tracepoint go together, raw_tp after them
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define PROG(sec, name) SEC(sec) int name(void *ctx) { return 0; }

PROG("ksyscall/openat", open_ksyscall)
PROG("kprobe/__x64_sys_openat", open_kprobe)
PROG("fentry/__arm64_sys_openat", open_fentry)
PROG("kprobe/vfs_read+8", read_inside)
PROG("fentry/vfs_read", read_fentry)
PROG("fexit/vfs_write", write_fexit)
PROG("kretprobe/vfs_write", write_kretprobe)
PROG("tp/sched/sched_switch", switch_tp)
PROG("tp_btf/sched_switch", switch_btf)
PROG("tracepoint/syscalls/sys_enter_openat", enter_openat)
PROG("raw_tp/sys_enter", enter_raw)
PROG("tp_btf/sched_wakeup", wakeup_one)
PROG("raw_tp/sched_wakeup", wakeup_raw)
PROG("tp_btf/sched_wakeup", wakeup_two)
