// SPDX-License-Identifier: GPL-2.0
/*
 * recent.bpf.c - what libbpf's headers gained after 1.1: BPF_UPROBE and
 * BPF_URETPROBE, six-argument BPF_KPROBE, bpf_for()/bpf_repeat()/
 * bpf_for_each() over the numbers iterator, bpf_ksym_exists() on weak
 * kfuncs and kernel variables, typed __ksym variables, likely() and the
 * __arg_ tags. tests/bats/headers.bats builds it against include/, and
 * against the installed libbpf's headers when they are recent enough, and
 * loads it: the verifier accepts the loops and the guarded kfunc calls.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* vmlinux.h and the UAPI linux/bpf.h of 6.4 and later have it (Debian 13's
 * do); Debian 12's UAPI header, of 6.1, does not. */
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));
#endif

struct task_struct;
extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym __weak;
extern void bpf_task_release(struct task_struct *p) __ksym __weak;
extern void bpf_kfunc_nobody_has(void) __ksym __weak;
extern int bpf_prog_active __ksym;
extern const int bpf_variable_nobody_has __ksym __weak;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} out SEC(".maps");

static __always_inline void keep(__u64 v)
{
	__u32 zero = 0;
	__u64 *p = bpf_map_lookup_elem(&out, &zero);

	if (p)
		*p += v;
}

SEC("uprobe//bin/true:main")
int BPF_UPROBE(up, int argc, char **argv)
{
	keep(argc + (argv != 0));
	return 0;
}

SEC("uretprobe//bin/true:main")
int BPF_URETPROBE(up_ret, int rc)
{
	keep(rc);
	return 0;
}

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kp_six, int dfd, const char *name, void *how, long a4, long a5, long a6)
{
	keep(dfd + a4 + a5 + a6 + (name != 0) + (how != 0));
	return 0;
}

__noinline int sum_ctx(void *ctx __arg_ctx, int n)
{
	return ctx ? n : 0;
}

SEC("raw_tp/sys_enter")
int loops(void *ctx)
{
	int i, *v, n = bpf_get_prandom_u32() & 15;
	__u64 sum = 0;

	bpf_for(i, 0, n)
		sum += i;
	bpf_repeat(n)
		sum++;
	bpf_for_each(num, v, 0, n)
		sum += *v;
	if (likely(n > 0))
		sum += sum_ctx(ctx, 1);
	keep(sum);
	return 0;
}

SEC("tp_btf/task_newtask")
int kfuncs(__u64 *ctx)
{
	struct task_struct *t;

	if (bpf_ksym_exists(bpf_kfunc_nobody_has))
		bpf_kfunc_nobody_has();
	if (bpf_ksym_exists(&bpf_variable_nobody_has))
		keep(bpf_variable_nobody_has);
	if (!bpf_ksym_exists(bpf_task_from_pid))
		return 0;
	t = bpf_task_from_pid(1);
	if (t)
		bpf_task_release(t);
	return 0;
}

/* Apart: the kernel resolves typed __ksym variables through kallsyms,
 * which has no variables without CONFIG_KALLSYMS_ALL. */
SEC("tp_btf/task_newtask")
int prog_active(__u64 *ctx)
{
	keep(*(int *)bpf_this_cpu_ptr(&bpf_prog_active));
	return 0;
}
