// SPDX-License-Identifier: GPL-2.0
/*
 * json_bytes.bpf.c - bytes that are not UTF-8 in every place a JSON writer
 * meets them, for tests/bats/json_strings.bats: the object's license
 * (inspect --json), a record's char arrays (run --format json) and a .bss
 * variable (run's map view). The test names its process with those bytes
 * (prctl(PR_SET_NAME)); each getppid() of process target_pid sends its
 * command name.
 *
 * The license is the same 15 bytes - not UTF-8, so not GPL-compatible:
 * the program calls only helpers that any license may call.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* 0xff; a sequence cut short; an overlong '/'; a surrogate in UTF-8; tab,
 * carriage return, DEL, quote, backslash; a valid two-byte sequence: 15
 * bytes, as many as a command name holds. */
char LICENSE[] SEC("license") = "\xff\xe2\x82\xc0\xaf\xed\xa0\x80\t\r\x7f\"\\\xc3\xa9";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

const volatile __u32 target_pid = 0;

char last_comm[16];	/* .bss: shown by run's map view */

struct json_bytes_event {
	__u32 pid;
	char comm[16];
	char cut[8];	/* "a", a NUL, then bytes past it that are never shown */
};

SEC("tracepoint/syscalls/sys_enter_getppid")
int send_comm(void *ctx)
{
	struct json_bytes_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	if (e.pid != target_pid)
		return 0;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_get_current_comm(last_comm, sizeof(last_comm));
	e.cut[0] = 'a';
	e.cut[2] = (char)0xff;
	e.cut[3] = '\n';
	bpf_ringbuf_output(&events, &e, sizeof(e), 0);
	return 0;
}
