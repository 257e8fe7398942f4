// SPDX-License-Identifier: GPL-2.0
/*
 * attach_policy.bpf.c - one program `bpfsdk run` can attach next to every
 * kind of program it must leave out, for tests/bats/attach_policy.bats:
 * load-only kinds (perf_event, socket, tc, classifier, xdp), uprobes that
 * name no binary, and a tracepoint no kernel has. run attaches the getppid
 * tracepoint, warns once for each of the others, and streams.
 *
 * Records: { pid } from the getppid tracepoint, of target_pid only (other
 * tests call getppid() at the same time).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid;

SEC("tp/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (pid != target_pid)
		return 0;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &pid, sizeof(pid));
	return 0;
}

SEC("tracepoint/bpfsdk_no_such/tracepoint_here")
int on_missing(void *ctx)
{
	return 0;
}

SEC("perf_event")
int on_sample(void *ctx)
{
	return 0;
}

SEC("socket")
int sock_all(struct __sk_buff *skb)
{
	return skb->len;	/* keep the whole packet */
}

SEC("tc")
int tc_pass(struct __sk_buff *skb)
{
	return 0;		/* TC_ACT_OK */
}

SEC("classifier")
int cls_pass(struct __sk_buff *skb)
{
	return 0;
}

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/* A uretprobe on bash's readline() as BCC's bashreadline writes it: the
 * function but not the binary, which its user gives at attach time. */
SEC("uretprobe/readline")
int on_readline(void *ctx)
{
	return 0;
}

SEC("uprobe")
int on_any_uprobe(void *ctx)
{
	return 0;
}
