// SPDX-License-Identifier: GPL-2.0
/*
 * fault_usdt.bpf.c - a USDT object for the fault walk (tests/faults/):
 * tests/drivers/fault_flow.c fires its probe fault_flow:tick with the
 * argument 1, 2, 3, ...; each firing becomes a ring buffer record with
 * that argument. Names start with flt_.
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>
#include "fault_events.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} flt_usdt_ring SEC(".maps");

SEC("usdt")
int BPF_USDT(flt_usdt_tick, long arg)
{
	struct fault_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.seq = (__u32)arg;
	e.value = bpf_usdt_cookie(ctx);
	bpf_ringbuf_output(&flt_usdt_ring, &e, sizeof(e), 0);
	return 0;
}
