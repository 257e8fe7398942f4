// SPDX-License-Identifier: GPL-2.0
/*
 * attach_kernel_fn.bpf.c - every way of attaching to a kernel function,
 * on the unlink path, for tests/bats/attach_kernel_fn.bats (in the VM:
 * this host's kernel has no kprobes and refuses fentry, fexit and lsm
 * programs, which the suite's host test checks are left out with the
 * kernel's reason):
 *
 *   kind 1 fentry/do_unlinkat       the path, from struct filename
 *   kind 2 fexit/do_unlinkat        the path, and the return value
 *   kind 3 kprobe/do_unlinkat       the path
 *   kind 4 kretprobe/do_unlinkat    the return value
 *   kind 5 ksyscall/unlinkat        the path, from the user's registers
 *   kind 6 kretsyscall/unlinkat     the return value
 *   kind 7 lsm/inode_unlink         (that it ran: the hook allows it)
 *   kind 8 fmod_ret/security_inode_unlink  (that it ran: returning 0 lets
 *                                   the function run)
 *   kind 9 lsm.s/inode_unlink       sleepable (that it ran)
 *
 * do_unlinkat(int dfd, struct filename *name): the first member of struct
 * filename is the kernel's copy of the path (const char *name), which is
 * ABI enough for a test. Only target_pid's calls are recorded.
 *
 * Records: { u32 pid, u32 kind, s64 ret, char path[48] }, in the perf
 * buffer "events", but the sleepable program's in the ring buffer "slow":
 * sleepable programs may not use perf event arrays.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} slow SEC(".maps");

const volatile __u32 target_pid;

struct fn_event {
	__u32 pid;
	__u32 kind;
	__s64 ret;
	char path[48];
};

/* Send a record; path a kernel (user: 1) string pointer, or NULL. */
static __always_inline int send(void *ctx, __u32 kind, __s64 ret, const void *path, int user)
{
	struct fn_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	if (e.pid != target_pid)
		return 0;
	e.kind = kind;
	e.ret = ret;
	if (path && user)
		bpf_probe_read_user_str(e.path, sizeof(e.path), path);
	else if (path)
		bpf_probe_read_kernel_str(e.path, sizeof(e.path), path);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

/* struct filename's first member: the path */
static __always_inline const char *filename_name(const void *filename)
{
	const char *name = 0;

	bpf_probe_read_kernel(&name, sizeof(name), filename);
	return name;
}

SEC("fentry/do_unlinkat")
int on_fentry(__u64 *ctx)
{
	return send(ctx, 1, 0, filename_name((void *)ctx[1]), 0);
}

SEC("fexit/do_unlinkat")
int on_fexit(__u64 *ctx)
{
	/* fexit sees the arguments, then the return value */
	return send(ctx, 2, (int)ctx[2], filename_name((void *)ctx[1]), 0);
}

SEC("kprobe/do_unlinkat")
int on_kprobe(struct pt_regs *ctx)
{
	return send(ctx, 3, 0, filename_name((void *)PT_REGS_PARM2(ctx)), 0);
}

SEC("kretprobe/do_unlinkat")
int on_kretprobe(struct pt_regs *ctx)
{
	return send(ctx, 4, (int)PT_REGS_RC(ctx), 0, 0);
}

/* With syscall wrappers (x86_64 since 4.17, arm64 since 4.19) the probe
 * sees __x64_sys_unlinkat(const struct pt_regs *regs) (__arm64_sys_...):
 * the user's registers, where unlinkat(dfd, pathname, flags) has pathname
 * in the second syscall argument's (rsi; x1). */
SEC("ksyscall/unlinkat")
int on_ksyscall(struct pt_regs *ctx)
{
	struct pt_regs *regs = PT_REGS_SYSCALL_REGS(ctx);
	const char *path = (const char *)PT_REGS_PARM2_CORE_SYSCALL(regs);

	return send(ctx, 5, 0, path, 1);
}

SEC("kretsyscall/unlinkat")
int on_kretsyscall(struct pt_regs *ctx)
{
	return send(ctx, 6, (long)PT_REGS_RC(ctx), 0, 0);
}

/* security_inode_unlink(struct inode *dir, struct dentry *dentry): the
 * BPF LSM's hook; returning 0 allows the unlink. */
SEC("lsm/inode_unlink")
int on_lsm(__u64 *ctx)
{
	send(ctx, 7, 0, 0, 0);
	return 0;
}

SEC("fmod_ret/security_inode_unlink")
int on_fmod_ret(__u64 *ctx)
{
	send(ctx, 8, 0, 0, 0);
	return 0;
}

SEC("lsm.s/inode_unlink")
int on_lsm_sleepable(__u64 *ctx)
{
	struct fn_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	if (e.pid != target_pid)
		return 0;
	e.kind = 9;
	bpf_ringbuf_output(&slow, &e, sizeof(e), 0);
	return 0;
}
