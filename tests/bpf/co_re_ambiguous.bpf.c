// SPDX-License-Identifier: GPL-2.0
/*
 * co_re_ambiguous.bpf.c - two flavours of one struct with other layouts, for
 * tests/bats/cli_co_re.bats. Resolved against this object's own BTF (--btf), each access has
 * two candidates named "thing" that put the field at different offsets: the loader must not
 * pick one, it refuses the relocation and says which candidates disagree.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct thing___a {
	int x, y;
} __attribute__((preserve_access_index));

struct thing___b {
	int y, x;
} __attribute__((preserve_access_index));

SEC("tp/syscalls/sys_enter_getpgid")
int co_re_ambiguous(void *ctx)
{
	struct thing___a *a = (void *)bpf_get_current_task();
	struct thing___b *b = (void *)a;
	int v = 0, w = 0;

	bpf_core_read(&v, sizeof(v), &a->y);
	bpf_core_read(&w, sizeof(w), &b->x);
	return v + w;
}
