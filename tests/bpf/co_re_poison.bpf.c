// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_poison.bpf.c - a CO-RE read of a field no kernel has, on a path that runs: the loader
 * must not leave the compiled offset in place (that would read the wrong bytes silently); it
 * poisons the load, the verifier refuses the program there, and the error names the
 * relocation, its type and access string and this file's line. For tests/bats/cli_co_re.bats.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct task_struct___poison {
	int pid;
	long no_such_field;
} __attribute__((preserve_access_index));

SEC("tp/syscalls/sys_enter_getpgid")
int co_re_poison(void *ctx)
{
	struct task_struct___poison *task = (void *)bpf_get_current_task();
	long v = 0;

	bpf_core_read(&v, sizeof(v), &task->no_such_field);
	return v == 42;
}
