// SPDX-License-Identifier: GPL-2.0
/*
 * kern_output.bpf.c - the BPF side of tests/kernel: send a payload the
 * driver chose with bpf_perf_event_output() and record what the helper
 * returned.
 *
 * One body, three hooks, so the same contract is checked through a
 * tracepoint (every kernel), a kprobe (the 2015 sample's hook; the test VM)
 * and a uprobe on the driver itself. The driver loads only the one it uses.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "kern_output.h"

/* GPL: the helper is GPL-only (kern_reject_license.bpf.c shows the other
 * side of that). */
char LICENSE[] SEC("license") = "GPL";

/* One slot per CPU: max_entries is left to the loader, which sizes it to
 * the possible CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* Slots the driver fills per error case: a BPF output event of this CPU,
 * one of another CPU, an event that is not a BPF output event, nothing. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, KERN_SLOTS);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kern_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kern_result);
} result SEC(".maps");

static __always_inline int send(void *ctx)
{
	__u8 buf[KERN_MAX_PAYLOAD];
	struct kern_config *cfg;
	struct kern_result *res;
	__u32 zero = 0, size;
	long ret;

	cfg = bpf_map_lookup_elem(&config, &zero);
	res = bpf_map_lookup_elem(&result, &zero);
	if (!cfg || !res)
		return 0;
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != cfg->tgid)
		return 0;

	/* The payload goes out from the stack, as in the 2015 helper (whose
	 * data argument had to point to the stack). */
	__builtin_memcpy(buf, cfg->payload, sizeof(buf));
	size = cfg->size;
	/* The bound tells the verifier the size fits buf. */
	if (size > KERN_MAX_PAYLOAD)
		return 0;

	if (cfg->target == KERN_TO_SLOTS)
		ret = bpf_perf_event_output(ctx, &slots, cfg->flags, buf, size);
	else
		ret = bpf_perf_event_output(ctx, &events, cfg->flags, buf, size);

	res->ret = ret;
	res->cpu = bpf_get_smp_processor_id();
	__sync_fetch_and_add(&res->calls, 1);
	return 0;
}

/* The driver triggers with getppid(2): a system call nothing else in the
 * test process makes. */
SEC("tracepoint/syscalls/sys_enter_getppid")
int kern_tracepoint(void *ctx)
{
	return send(ctx);
}

/* The same system call through a kprobe on its entry point, whose name
 * is the architecture's. */
#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPPID_FUNC "__arm64_sys_getppid"
#else
#define SYS_GETPPID_FUNC "__x64_sys_getppid"
#endif

SEC("kprobe/" SYS_GETPPID_FUNC)
int kern_kprobe(void *ctx)
{
	return send(ctx);
}

/* A uprobe on the driver's own kern_trigger(): /proc/self/exe is resolved
 * in the driver, so the probe lands on whatever binary loads this. */
SEC("uprobe//proc/self/exe:kern_trigger")
int kern_uprobe(void *ctx)
{
	return send(ctx);
}
