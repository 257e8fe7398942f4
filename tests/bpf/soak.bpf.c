// SPDX-License-Identifier: GPL-2.0
/*
 * soak.bpf.c - the producer of make soak (tests/soak/soak): a record for
 * every write(2) of a process called soakdd (a dd writing one byte at a
 * time, then one write on each CPU to carry out the kernel's last lost
 * report), each counted first in soak_sent (pinned by name, so that the
 * count outlives the run and can be read after it) and in soak_views, the
 * map the run prints every second.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct soak_event {
	__u32 pid;
	__u32 pad;
	__u64 seq;
};

BPFSDK_RECORD(soak_event)
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} soak_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} soak_sent SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} soak_views SEC(".maps");

static __always_inline int is_soakdd(void)
{
	char comm[16];

	bpf_get_current_comm(comm, sizeof(comm));
	return comm[0] == 's' && comm[1] == 'o' && comm[2] == 'a' && comm[3] == 'k' &&
	       comm[4] == 'd' && comm[5] == 'd' && comm[6] == '\0';
}

SEC("tp/syscalls/sys_enter_write")
int soak_write(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, zero = 0, cpu = bpf_get_smp_processor_id();
	struct soak_event e = { .pid = pid };
	__u64 one = 1, *n;

	if (!is_soakdd())
		return 0;
	n = bpf_map_lookup_elem(&soak_sent, &zero);
	if (!n)
		return 0;
	e.seq = __sync_fetch_and_add(n, 1) + 1;
	n = bpf_map_lookup_elem(&soak_views, &cpu);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&soak_views, &cpu, &one, BPF_NOEXIST);
	bpf_perf_event_output(ctx, &soak_events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}
