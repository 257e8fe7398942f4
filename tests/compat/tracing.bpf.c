// SPDX-License-Identifier: GPL-2.0
/*
 * tracing.bpf.c - the program-definition macros of bpf_tracing.h and the
 * formatted-output, extern and byte-order parts of bpf_helpers.h and
 * bpf_endian.h, written the way a program for libbpf's headers uses them.
 * tests/bats/headers.bats builds it against include/ and against libbpf's
 * headers, and compares the helpers each program calls and the externs
 * the objects leave for the loader.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

/* What the loader fills in: the kernel's version and configuration. */
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool LINUX_HAS_BPF_COOKIE __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;
extern enum libbpf_tristate CONFIG_TRISTATE_NOBODY_HAS __kconfig __weak;
extern int CONFIG_HZ __kconfig __weak;
extern char CONFIG_DEFAULT_HOSTNAME[16] __kconfig __weak;
/* A kernel variable, by name; only its address is used. */
extern const void bpf_prog_active __ksym;

struct seq_file;
struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
} __attribute__((preserve_access_index));
struct task_struct {
	int pid;
} __attribute__((preserve_access_index));
struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

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

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kp_five, int dfd, const char *name, void *how, long a4, long a5)
{
	keep(dfd + a4 + a5 + (name != 0) + (how != 0));
	keep(PT_REGS_PARM5_CORE(ctx));
	return 0;
}

SEC("kretprobe/do_sys_openat2")
int BPF_KRETPROBE(kp_ret, long ret)
{
	__u64 ip = 0;

	BPF_KRETPROBE_READ_RET_IP(ip, ctx);
	keep(ret + ip);
	return 0;
}

SEC("ksyscall/kill")
int BPF_KSYSCALL(sys_kill, int pid, int sig)
{
	keep(pid + sig);
	return 0;
}

SEC("kprobe/__x64_sys_close")
int sys_close_raw(struct pt_regs *ctx)
{
	struct pt_regs *regs = PT_REGS_SYSCALL_REGS(ctx);

	keep(PT_REGS_PARM1_CORE_SYSCALL(regs) + PT_REGS_PARM4_CORE_SYSCALL(regs));
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(raw_enter, struct pt_regs *regs, long id)
{
	__u64 big = bpf_get_current_pid_tgid();
	__u32 word = (__u32)big;
	__u16 half = (__u16)big;
	char buf[32];
	int n = 7;

	barrier_var(n);
	bpf_printk("no arguments");
	bpf_printk("one %d", n);
	bpf_printk("three %d %d %ld", n, word, id);
	bpf_printk("five %d %d %d %d %d", n, n, n, n, n);
	BPF_SNPRINTF(buf, sizeof(buf), "%d-%u", n, word);
	keep(__bpf_ntohs(half) + __bpf_htons(half) + __bpf_ntohl(word) +
	     __bpf_htonl(word) + __bpf_be64_to_cpu(big) + __bpf_cpu_to_be64(big));
	keep(bpf_ntohs(half) + bpf_htonl(word) + bpf_be64_to_cpu(big) +
	     bpf_htons(0x1234) + __bpf_constant_ntohl(0x01020304));
	keep(LINUX_KERNEL_VERSION >= KERNEL_VERSION(5, 8, 0));
	keep(LINUX_HAS_BPF_COOKIE + CONFIG_BPF_SYSCALL + CONFIG_HZ +
	     (CONFIG_TRISTATE_NOBODY_HAS == TRI_MODULE) + CONFIG_DEFAULT_HOSTNAME[0]);
	keep((unsigned long)&bpf_prog_active);
	keep(regs != 0);
	return 0;
}

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;

	if (!task)
		return 0;
	if (ctx->meta->seq_num == 0)
		BPF_SEQ_PRINTF(seq, "pid\n");
	BPF_SEQ_PRINTF(seq, "%d %d %d %d %d\n", task->pid, 1, 2, 3, 4);
	return 0;
}
