// SPDX-License-Identifier: GPL-2.0
/*
 * decode_types.bpf.c - sends a struct rich (decode_types.h) from a local:
 * the struct is in the object's DWARF and not in its .BTF, for
 * tests/unit/test_dwarf_btf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "decode_types.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} rich_events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpgid")
int send_rich(void *ctx)
{
	struct rich r = {};

	r.pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	r.low3 = 5;
	r.mid5 = 17;
	r.color = COLOR_NEG;
	r.wide = WIDE_BIG;
	bpf_perf_event_output(ctx, &rich_events, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}
