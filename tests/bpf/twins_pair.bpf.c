// SPDX-License-Identifier: GPL-2.0
/*
 * twins_pair.bpf.c - a function's entry and exit two ways, as klockstat and
 * solisten carry them: fentry and fexit, and kprobe and kretprobe, whose
 * kprobe saves what its kretprobe needs in the map 'starts' they share
 * (a kretprobe cannot read the function's arguments). The two entry
 * programs are twins, and so are the two exit programs; the two groups are
 * a pair, attached as one kind: fentry with fexit, or kprobe with
 * kretprobe, never kprobe with fexit - whose kprobe would fill 'starts'
 * with entries nothing deletes. Each counts target_pid's getpgid() calls
 * in its own slot of 'hits' (0: fentry, 1: fexit, 2: kprobe, 3: kretprobe,
 * which counts only the calls its kprobe saw). tests/bats/twins.bats checks
 * the groups with inspect on the host (no kprobes, fentry refused);
 * tests/bats/twins_kernel_fn.bats what is attached in the VM.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPGID "__arm64_sys_getpgid"
#else
#define SYS_GETPGID "__x64_sys_getpgid"
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u64);
} starts SEC(".maps");

const volatile __u32 target_pid;

static __always_inline int traced(void)
{
	return bpf_get_current_pid_tgid() >> 32 == target_pid;
}

static __always_inline void count(__u32 slot)
{
	__u64 *n = bpf_map_lookup_elem(&hits, &slot);

	if (n)
		__sync_fetch_and_add(n, 1);
}

SEC("fentry/" SYS_GETPGID)
int pair_fentry(void *ctx)
{
	if (traced())
		count(0);
	return 0;
}

SEC("fexit/" SYS_GETPGID)
int pair_fexit(void *ctx)
{
	if (traced())
		count(1);
	return 0;
}

SEC("kprobe/" SYS_GETPGID)
int pair_kprobe(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), one = 1;

	if (!traced())
		return 0;
	bpf_map_update_elem(&starts, &id, &one, BPF_ANY);
	count(2);
	return 0;
}

SEC("kretprobe/" SYS_GETPGID)
int pair_kretprobe(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();

	if (!traced() || !bpf_map_lookup_elem(&starts, &id))
		return 0;
	bpf_map_delete_elem(&starts, &id);
	count(3);
	return 0;
}
