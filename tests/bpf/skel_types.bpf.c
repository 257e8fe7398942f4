// SPDX-License-Identifier: GPL-2.0
/*
 * skel_types.bpf.c - global variables of every shape for
 * tests/bats/cli_gen.bats: the skeleton must lay each out at its offset in
 * .rodata, .data or .bss (the header checks that at compile time), and the
 * program, run on a getppid() of the process target_pid, shows that values
 * written through the skeleton before load and after are the ones it sees.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "skel_types.h"

char LICENSE[] SEC("license") = "GPL";

typedef unsigned int my_uint;		/* a typedef user space does not have */
enum color { RED, GREEN = 7 };

const volatile __u32 target_pid = 0;		/* .rodata */
const volatile __u8 small = 3;
const volatile __u64 big = 0x1122334455667788ULL;
const volatile char label[12] = "skel";

__u64 cookie = 0xc0ffee;			/* .data */
my_uint typed = 5;
enum color color = GREEN;
struct skel_pair pair = { 1, 2 };		/* named: from skel_types.h */
struct {
	__u16 a;
	__u32 b : 4, c : 12;
	__u64 d;
} anon = { 9, 3, 100, 77 };
__u32 matrix[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
void *ptr = 0;

/* a section whose name the header must escape in its strings and comments */
__u32 quoted SEC(".data.q\"x*/y\\z?\?/") = 42;

__u64 hits;					/* .bss */
__u64 seen_cookie;
__u64 seen_sum;
static __u32 hidden;				/* static: no member */

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	__sync_fetch_and_add(&hits, 1);
	hidden++;
	seen_cookie = cookie + quoted - 42;
	seen_sum = small + big + typed + color + pair.x + pair.y + anon.a + anon.b + anon.c +
		   anon.d + matrix[1][2] + hidden;
	return 0;
}
