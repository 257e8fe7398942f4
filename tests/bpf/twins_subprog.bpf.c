// SPDX-License-Identifier: GPL-2.0
/*
 * twins_subprog.bpf.c - entry and exit programs that share their map only
 * through subprograms, as libbpf-tools' fsdist records a function's return
 * through one static function its kretprobe and its fexit both call. Each
 * entry program calls enter(), which saves the thread's start in 'starts';
 * each exit program calls leave(), which finds it there and hands it to
 * forget() to delete: no program touches 'starts' in its own instructions.
 * The pairs: fentry with fexit, kprobe with kretprobe (on getpgid(), as
 * twins_pair.bpf.c), and a uprobe with its uretprobe on cli_uprobe_hit()
 * of tests/drivers/cli_trigger.c (the path is relative: run bpfsdk from the
 * driver's directory). 'done' counts target_pid's calls seen at return (0)
 * and their entries (1). tests/bats/twins.bats reads the groups with
 * inspect, and runs the uprobe pair on the host.
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
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u64);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} done SEC(".maps");

const volatile __u32 target_pid;

static __always_inline void count(__u32 slot)
{
	__u64 *n = bpf_map_lookup_elem(&done, &slot);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __noinline int enter(void)
{
	__u64 id = bpf_get_current_pid_tgid(), ts = bpf_ktime_get_ns();

	if (id >> 32 != target_pid)
		return 0;
	bpf_map_update_elem(&starts, &id, &ts, BPF_ANY);
	count(1);
	return 0;
}

static __noinline int forget(__u64 id)
{
	return bpf_map_delete_elem(&starts, &id);
}

static __noinline int leave(void)
{
	__u64 id = bpf_get_current_pid_tgid();

	if (id >> 32 != target_pid || forget(id))
		return 0;
	count(0);
	return 0;
}

SEC("fentry/" SYS_GETPGID)
int sub_fentry(void *ctx)
{
	return enter();
}

SEC("fexit/" SYS_GETPGID)
int sub_fexit(void *ctx)
{
	return leave();
}

SEC("kprobe/" SYS_GETPGID)
int sub_kprobe(void *ctx)
{
	return enter();
}

SEC("kretprobe/" SYS_GETPGID)
int sub_kretprobe(void *ctx)
{
	return leave();
}

SEC("uprobe/cli_trigger:cli_uprobe_hit")
int sub_uprobe(void *ctx)
{
	return enter();
}

SEC("uretprobe/cli_trigger:cli_uprobe_hit")
int sub_uretprobe(void *ctx)
{
	return leave();
}
