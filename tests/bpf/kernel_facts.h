/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * kernel_facts.h - what fault_co_re.bpf.c and threads.bpf.c ask of the
 * running kernel, so that loading them goes through the library's CO-RE
 * engine (a task_struct field) and its configuration reader (externs).
 */
#ifndef KERNEL_FACTS_H
#define KERNEL_FACTS_H

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig __weak;

struct task_struct {
	int tgid;
} __attribute__((preserve_access_index));

#endif
