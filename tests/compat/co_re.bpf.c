// SPDX-License-Identifier: GPL-2.0
/*
 * co_re.bpf.c - the CO-RE macros of bpf_core_read.h, written the way a
 * program for libbpf's headers uses them. tests/bats/headers.bats builds
 * it against include/ and against libbpf's headers and compares the CO-RE
 * relocations the two objects carry: same kinds, same access strings.
 *
 * The types are local stand-ins for kernel structs, marked
 * preserve_access_index as vmlinux.h's are, so the test needs no
 * vmlinux.h.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
struct mm_struct {
	unsigned long start_stack;
	unsigned long arg_start;
};

struct task_struct {
	int pid;
	int tgid;
	unsigned int flags: 3;
	int prio: 5;
	struct task_struct *real_parent;
	struct mm_struct *mm;
	char comm[16];
	const char *name;
	union {
		unsigned int __state;
		unsigned int state;
	};
};
#pragma clang attribute pop

enum probe_kind {
	KIND_A = 1,
	KIND_B = 7,
};

typedef struct task_struct task_t;

struct event {
	__u64 vals[24];
	char comm[16];
	char name[16];
	char arg[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct event);
} scratch SEC(".maps");

SEC("raw_tp/sys_enter")
int core_all(void *ctx __attribute__((unused)))
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct event *e;
	__u32 zero = 0;
	int n = 0;

	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	/* field questions, both spellings */
	e->vals[n++] = bpf_core_field_exists(task->real_parent);
	e->vals[n++] = bpf_core_field_exists(struct task_struct, __state);
	e->vals[n++] = bpf_core_field_size(task->comm);
	e->vals[n++] = bpf_core_field_size(struct task_struct, mm);
	e->vals[n++] = bpf_core_field_offset(task->tgid);
	e->vals[n++] = bpf_core_field_offset(struct task_struct, comm);
	/* type questions */
	e->vals[n++] = bpf_core_type_exists(struct mm_struct);
	e->vals[n++] = bpf_core_type_size(task_t);
	e->vals[n++] = bpf_core_type_id_local(struct task_struct);
	e->vals[n++] = bpf_core_type_id_kernel(struct task_struct);
	/* enum questions */
	e->vals[n++] = bpf_core_enum_value_exists(enum probe_kind, KIND_B);
	e->vals[n++] = bpf_core_enum_value(enum probe_kind, KIND_B);
	/* bitfields, through probe reads */
	e->vals[n++] = BPF_CORE_READ_BITFIELD_PROBED(task, flags);
	e->vals[n++] = BPF_CORE_READ_BITFIELD_PROBED(task, prio);
	/* chains */
	e->vals[n++] = BPF_CORE_READ(task, real_parent, tgid);
	e->vals[n++] = BPF_CORE_READ(task, mm, arg_start);
	BPF_CORE_READ_INTO(&e->vals[n++], task, real_parent, real_parent, pid);
	BPF_CORE_READ_STR_INTO(&e->comm, task, real_parent, comm);
	BPF_CORE_READ_STR_INTO(&e->name, task, name);
	bpf_core_read(&e->vals[n++], sizeof(int), &task->pid);
	bpf_core_read_str(e->arg, sizeof(e->arg), &task->comm);
	e->vals[n++] = BPF_PROBE_READ(task, real_parent, pid);
	BPF_PROBE_READ_INTO(&e->vals[n++], task, tgid);
	BPF_PROBE_READ_STR_INTO(&e->arg, task, comm);
	return 0;
}

SEC("tp_btf/sched_switch")
int core_direct(__u64 *ctx)
{
	struct task_struct *next = (struct task_struct *)ctx[2];
	struct event *e;
	__u32 zero = 0;

	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	/* tp_btf arguments may be read directly */
	e->vals[0] = BPF_CORE_READ_BITFIELD(next, flags);
	e->vals[1] = BPF_CORE_READ_BITFIELD(next, prio);
	return 0;
}

SEC("uprobe")
int core_user(void *ctx __attribute__((unused)))
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(task, mm);
	struct event *e;
	__u32 zero = 0;

	e = bpf_map_lookup_elem(&scratch, &zero);
	if (!e)
		return 0;
	/* pretend mm->arg_start is a user pointer to a pointer */
	e->vals[0] = BPF_CORE_READ_USER(mm, start_stack);
	BPF_CORE_READ_USER_INTO(&e->vals[1], mm, arg_start);
	BPF_CORE_READ_USER_STR_INTO(&e->arg, task, name);
	bpf_core_read_user(&e->vals[2], 8, &mm->start_stack);
	bpf_core_read_user_str(e->name, sizeof(e->name), &task->name);
	BPF_PROBE_READ_USER_INTO(&e->vals[3], mm, start_stack);
	e->vals[4] = BPF_PROBE_READ_USER(mm, arg_start);
	BPF_PROBE_READ_USER_STR_INTO(&e->comm, task, name);
	return 0;
}
