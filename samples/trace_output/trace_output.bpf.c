// SPDX-License-Identifier: GPL-2.0
/*
 * trace_output.bpf.c - the kernel side of the seed's experiment: on every
 * write() by the process under test, send {pid, cookie} to user space with
 * bpf_perf_event_output() - or, when user space asks for it before load,
 * with bpf_ringbuf_output() into a BPF ring buffer, to compare the two.
 *
 * Two programs with one body: a kprobe on the kernel's write syscall
 * function (what the 2015 sample used) and the syscalls/sys_enter_write
 * tracepoint (always there, no kprobe support needed). The user side
 * loads exactly one of them, chosen at run time.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "trace_output.h"

/* GPL: bpf_perf_event_output() is a GPL-only helper (since the review of
 * the patch that added it). */
char LICENSE[] SEC("license") = "GPL";

/* BPFSDK_RECORD is bpfsdk's own: it records in BTF that this map carries
 * struct trace_output_event, so generic tools can decode the records. The
 * fallback lets the same file build with libbpf's headers too. */
#ifndef BPFSDK_RECORD
#define BPFSDK_RECORD(name)
#endif

/* One slot per CPU; the loader sizes max_entries to the number of possible
 * CPUs and user space stores one BPF output event per CPU in it. */
BPFSDK_RECORD(trace_output_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* The other channel: one ring shared by all CPUs. User space sizes it before
 * load (--pages), and shrinks it to one page when it reads the perf rings. */
BPFSDK_RECORD(trace_output_event)
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 2 * 1024 * 1024);
} ring SEC(".maps");

/* Set by user space before load: 1 sends through the ring buffer. In
 * .rodata, so the verifier drops the branch not taken. */
const volatile __u32 use_ringbuf = 0;

/* Records bpf_ringbuf_output() could not write (the ring was full): the
 * kernel reports these to nobody, so the program counts them. */
__u64 ringbuf_lost = 0;

/* Set by user space before load (bsdk_obj_set_global): the tgid whose
 * writes to report. const volatile puts it in .rodata - frozen, so the
 * verifier knows its value - while keeping clang from folding the 0. */
const volatile __u32 target_tgid = 0;

static __always_inline int report_write(void *ctx)
{
	struct trace_output_event event = {};
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	if ((__u32)(pid_tgid >> 32) != target_tgid)
		return 0;
	event.pid = pid_tgid >> 32;
	event.cookie = TRACE_OUTPUT_COOKIE;
	if (use_ringbuf) {
		/* Flags 0: the kernel decides whether to wake the reader. */
		if (bpf_ringbuf_output(&ring, &event, sizeof(event), 0))
			__sync_fetch_and_add(&ringbuf_lost, 1);
		return 0;
	}
	/* BPF_F_CURRENT_CPU: into the ring of the CPU we run on, the only
	 * one the helper may write (it returns -EOPNOTSUPP for another). */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &event,
			      sizeof(event));
	return 0;
}

/* The kernel function behind write(2) has an arch-specific name. */
#if defined(__TARGET_ARCH_x86)
#define SYS_WRITE_FUNC "__x64_sys_write"
#elif defined(__TARGET_ARCH_arm64)
#define SYS_WRITE_FUNC "__arm64_sys_write"
#else
#define SYS_WRITE_FUNC "ksys_write"
#endif

SEC("kprobe/" SYS_WRITE_FUNC)
int write_kprobe(void *ctx)
{
	return report_write(ctx);
}

SEC("tracepoint/syscalls/sys_enter_write")
int write_tracepoint(void *ctx)
{
	return report_write(ctx);
}
