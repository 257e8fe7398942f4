// SPDX-License-Identifier: GPL-2.0
/*
 * globals.bpf.c - global variables for tests/unit/test_globals.c, which
 * reaches them through pointers into the mmapped maps: a filter in .rodata
 * set before load, a cookie in .data that user space changes after load
 * and the program copies into .bss, and a counter in .bss.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;	/* .rodata */
const volatile __u64 rodata_tag = 0x5eed;	/* .rodata, never changed */
__u64 cookie = 0xc0ffee;		/* .data */
__u64 hits;				/* .bss */
__u64 seen_cookie;			/* .bss */

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_getppid(void *ctx)
{
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	__sync_fetch_and_add(&hits, 1);
	seen_cookie = cookie + rodata_tag;
	return 0;
}
