// SPDX-License-Identifier: GPL-2.0
/*
 * decode_event.bpf.c - an object written the way libbpf's tools are, against
 * libbpf's own headers (<bpf/bpf_helpers.h>) and with no BPFSDK_RECORD():
 * tests/bats/run_decode.bats builds it with libbpf-dev and checks that
 * `bpfsdk run --format json` decodes its records, finding struct event as
 * the only struct of the records' size, and with --type event.
 *
 * struct event holds what a decoder has to get right: a nested struct, a
 * char array, an enum and bitfields. The driver calls getpgid(START + i);
 * each record says which call it was.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

enum parity { PARITY_EVEN = 0, PARITY_ODD = 1 };

struct who {
	__u32 pid;
	__u32 tid;
};

struct event {
	struct who who;
	char comm[16];
	enum parity parity;
	__u32 low4 : 4, next12 : 12, top : 16;
	__u64 arg;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

const volatile __u32 target_pid = 0;

/* clang writes BTF only for types reachable from a global or a function's
 * signature, not for a struct that lives on the stack: libbpf-bootstrap's
 * examples keep their record type in the object this way. */
struct event *unused_event __attribute__((unused));

/* Larger than any record: --type too_big must be refused. */
struct too_big {
	char bytes[64];
};
struct too_big *unused_too_big __attribute__((unused));

SEC("tracepoint/syscalls/sys_enter_getpgid")
int on_getpgid(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct event e = {};
	__u64 arg;

	if (id >> 32 != target_pid)
		return 0;
	/* the argument sits 16 bytes in: common fields, syscall nr, pad */
	bpf_probe_read_kernel(&arg, sizeof(arg), ctx + 16);
	e.who.pid = id >> 32;
	e.who.tid = (__u32)id;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	e.parity = arg & 1 ? PARITY_ODD : PARITY_EVEN;
	e.low4 = arg & 0xf;
	e.next12 = (arg >> 4) & 0xfff;
	e.top = 0xbeef;
	e.arg = arg;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
