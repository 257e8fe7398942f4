// SPDX-License-Identifier: GPL-2.0
/*
 * attach_refused.bpf.c - six fentry programs on six kernel functions, for
 * tests/bats/twins.bats: a kernel that refuses fentry as a kind (this
 * host: EPERM) is asked once, and the five others are left out with the
 * same reason, each naming its own function, without another program load.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/vfs_read")
int on_read(void *ctx) { return 0; }

SEC("fentry/vfs_write")
int on_write(void *ctx) { return 0; }

SEC("fentry/vfs_open")
int on_open(void *ctx) { return 0; }

SEC("fentry/do_unlinkat")
int on_unlinkat(void *ctx) { return 0; }

SEC("fentry/vfs_fsync")
int on_fsync(void *ctx) { return 0; }

SEC("fentry/vfs_getattr")
int on_getattr(void *ctx) { return 0; }
