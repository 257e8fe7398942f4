// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_flavour.bpf.c - CO-RE relocation against the running kernel, for tests/bats/cli_co_re.bats.
 *
 * struct task_struct___mine is this program's own idea of the kernel's task_struct: a few of
 * its fields, in another order, at offsets that have nothing to do with the kernel's. The
 * ___mine suffix is a flavour: the loader looks the type up as "task_struct", and every
 * access below is rewritten to the kernel's offset. Without CO-RE the program would read
 * bytes 0, 4 and 8 of the task and print garbage.
 *
 * Record (struct core_flavour_event), for the process that calls getpgid():
 *   pid, tgid          read through the relocated offsets
 *   helper_pid/tgid    the same from bpf_get_current_pid_tgid(), to compare
 *   ppid               real_parent->tgid, two relocated reads
 *   has_pid, has_nope  bpf_core_field_exists() of a field that exists and one that does not
 *   nope               the missing field, read only when it exists (the poisoned load is dead)
 *   tgid_value         enum pid_type's PIDTYPE_TGID (the kernel's is 1; ours says 7)
 *   nope_enum          whether enum pid_type has PIDTYPE_NOPE (it does not)
 *   ts_exists          bpf_core_type_exists(struct task_struct___mine)
 *   nope_type          bpf_core_type_exists(struct no_such_struct___mine)
 *   pid_size           bpf_core_field_size(task->pid): 4
 *   comm_off           bpf_core_field_offset(task->comm), nonzero
 *   sub_pid            task->pid again, read by a .text subprogram: its relocation moves with it
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid = 0;

struct task_struct___mine {
	int tgid;
	struct task_struct___mine *real_parent;
	int pid;
	long nope;		/* no kernel has this */
	char comm[16];
} __attribute__((preserve_access_index));

struct no_such_struct___mine {
	int x;
} __attribute__((preserve_access_index));

enum pid_type___mine {
	PIDTYPE_TGID___mine = 7,	/* the kernel's value is 1 */
	PIDTYPE_NOPE___mine = 9,
};

struct core_flavour_event {
	__u32 pid, tgid;
	__u32 helper_pid, helper_tgid;
	__u32 ppid;
	__u32 has_pid, has_nope;
	__u32 nope;
	__u64 tgid_value;
	__u32 nope_enum;
	__u32 ts_exists, nope_type;
	__u32 pid_size, comm_off;
	__u32 sub_pid;
};

static __attribute__((noinline)) __u32 sub_read_pid(struct task_struct___mine *task)
{
	__u32 pid = 0;

	bpf_core_read(&pid, sizeof(pid), &task->pid);
	return pid;
}

SEC("tp/syscalls/sys_enter_getpgid")
int co_re_flavour(void *ctx)
{
	struct task_struct___mine *task = (void *)bpf_get_current_task(), *parent = NULL;
	struct core_flavour_event e = {};
	__u64 id = bpf_get_current_pid_tgid();
	long nope = 0;

	if (id >> 32 != target_pid)
		return 0;
	e.helper_pid = (__u32)id;
	e.helper_tgid = id >> 32;
	bpf_core_read(&e.pid, sizeof(e.pid), &task->pid);
	bpf_core_read(&e.tgid, sizeof(e.tgid), &task->tgid);
	bpf_core_read(&parent, sizeof(parent), &task->real_parent);
	bpf_core_read(&e.ppid, sizeof(e.ppid), &parent->tgid);
	e.has_pid = bpf_core_field_exists(task->pid);
	e.has_nope = bpf_core_field_exists(task->nope);
	if (bpf_core_field_exists(task->nope)) {
		bpf_core_read(&nope, sizeof(nope), &task->nope);
		e.nope = (__u32)nope + 1;
	}
	e.tgid_value = __builtin_preserve_enum_value(*(enum pid_type___mine *)PIDTYPE_TGID___mine, 1);
	e.nope_enum = __builtin_preserve_enum_value(*(enum pid_type___mine *)PIDTYPE_NOPE___mine, 0);
	e.ts_exists = bpf_core_type_exists(struct task_struct___mine);
	e.nope_type = bpf_core_type_exists(struct no_such_struct___mine);
	e.pid_size = bpf_core_field_size(task->pid);
	e.comm_off = bpf_core_field_offset(task->comm);
	e.sub_pid = sub_read_pid(task);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
