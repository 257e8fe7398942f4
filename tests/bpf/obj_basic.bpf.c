// SPDX-License-Identifier: GPL-2.0
/*
 * obj_basic.bpf.c - a little of everything the loader handles, for the
 * loader's unit tests: BTF-defined maps, .rodata/.data/.bss, a static and a
 * global __noinline subprogram, a tracepoint program, perf output. The
 * tests inspect it, load it, and mutate its bytes into malformed objects.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

const volatile __u32 target_pid = 0;	/* .rodata, set before load */
__u64 total = 1;			/* .data */
__u64 calls;				/* .bss */

/* static: verified as part of its caller */
static __attribute__((noinline)) __u64 bump(__u64 v)
{
	calls++;
	return v + 1;
}

/* global: verified on its own, which the kernel does only with BTF
 * func_info */
__attribute__((noinline)) int global_add(int a, int b)
{
	return a + b;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int on_getpid(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 *count;

	if (target_pid && pid != target_pid)
		return 0;
	count = bpf_map_lookup_elem(&counts, &pid);
	if (count)
		__sync_fetch_and_add(count, 1);
	total = bump(total);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &pid, sizeof(pid));
	return global_add(count ? 1 : 0, 1);
}
