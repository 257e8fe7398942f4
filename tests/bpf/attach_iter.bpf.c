// SPDX-License-Identifier: GPL-2.0
/*
 * attach_iter.bpf.c - a task iterator, for tests/bats/attach_btf.bats:
 * `bpfsdk run` attaches iter/task and reads its output to the end, one
 * line per task, "PID COMM".
 *
 * The iterator's context (struct bpf_iter__task, its meta and the task)
 * is ABI; task_struct's layout is not, and without CO-RE relocations the
 * test hands in the offsets of its pid and comm fields, read from the
 * kernel's BTF, through the two knobs below.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct seq_file;
struct task_struct;

struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
};

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
};

const volatile __u32 pid_off;	/* offsetof(struct task_struct, pid) */
const volatile __u32 comm_off;	/* offsetof(struct task_struct, comm) */

SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	static const char fmt[] = "%d %s\n";
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	__u64 args[2];
	__s32 pid = 0;

	if (!task)
		return 0;	/* the end: one call without a task */
	bpf_probe_read_kernel(&pid, sizeof(pid), (char *)task + pid_off);
	args[0] = (__u64)pid;
	args[1] = (__u64)(unsigned long)((char *)task + comm_off);
	bpf_seq_printf(seq, fmt, sizeof(fmt), args, sizeof(args));
	return 0;
}
