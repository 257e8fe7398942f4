// SPDX-License-Identifier: GPL-2.0
/*
 * cli_slow.bpf.c - programs the verifier takes a long time over, for the
 * signal tests of tests/bats/cli_signals.bats: each walks a bounded loop
 * whose iterations the verifier cannot prune (the counter differs in each
 * state), close to the million instructions it will check per program.
 * The object also pins a map, so a test sees whether an interrupted run
 * leaves its pin behind.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} cli_slow_pinned SEC(".maps");

#define SLOW_PROG(name)						\
SEC("tracepoint/syscalls/sys_enter_getppid")			\
int name(void *ctx)						\
{								\
	__u64 sum = 0;						\
								\
	_Pragma("clang loop unroll(disable)")			\
	for (__u32 i = 0; i < 60000; i++)			\
		sum += (bpf_get_prandom_u32() & 1) + i;		\
	return sum == 7;					\
}

SLOW_PROG(slow0)
SLOW_PROG(slow1)
SLOW_PROG(slow2)
SLOW_PROG(slow3)
SLOW_PROG(slow4)
SLOW_PROG(slow5)
SLOW_PROG(slow6)
SLOW_PROG(slow7)
