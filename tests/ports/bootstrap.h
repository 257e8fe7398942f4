/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bootstrap.h - the record bootstrap.bpf.c sends for each exec and each
 * process exit, and bootstrap.c prints. Both sides include this header, so
 * they agree on the layout by construction.
 */
#ifndef PORTS_BOOTSTRAP_H
#define PORTS_BOOTSTRAP_H

#define BOOT_COMM_LEN     16
#define BOOT_FILENAME_LEN 128

struct boot_event {
	__u32 pid;
	__u32 ppid;
	__u32 exit_code;        /* the status the process passed to exit() */
	__u32 is_exit;          /* 0: an exec, 1: an exit */
	__u64 duration_ns;      /* exits: since the exec we saw, 0 when we saw none */
	char comm[BOOT_COMM_LEN];
	char filename[BOOT_FILENAME_LEN];  /* execs: the file run */
};

#endif
