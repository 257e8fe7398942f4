// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_section_names.c - the section name table: each form libbpf gives
 * meaning to maps to its program type, expected attach type, attach
 * function and flags, and names that only look alike match nothing (or
 * the right row, never a longer one's prefix).
 */
#include "object/object.h"
#include "hooks/hooks.h"
#include "channel/channel.h"
#include "check.h"

struct want {
	const char *section;
	const char *prefix;	/* the row; NULL: no row matches */
	int prog_type;
	int expected_attach_type;
	int flags;		/* RET, SLEEP */
};

enum { RET = 1, SLEEP = 2 };

static const struct want wants[] = {
	{ "tracepoint/syscalls/sys_enter_write", "tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, 0 },
	{ "tp/sched/sched_switch", "tp", BPF_PROG_TYPE_TRACEPOINT, 0, 0 },
	{ "raw_tracepoint/sched_switch", "raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0 },
	{ "raw_tp/sched_switch", "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0 },
	{ "raw_tp.w/bpf_test_finish", "raw_tp.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 0 },
	{ "raw_tracepoint.w/bpf_test_finish", "raw_tracepoint.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 0 },
	{ "kprobe/do_unlinkat", "kprobe", BPF_PROG_TYPE_KPROBE, 0, 0 },
	{ "kretprobe/do_unlinkat", "kretprobe", BPF_PROG_TYPE_KPROBE, 0, RET },
	{ "ksyscall/openat", "ksyscall", BPF_PROG_TYPE_KPROBE, 0, 0 },
	{ "kretsyscall/openat", "kretsyscall", BPF_PROG_TYPE_KPROBE, 0, RET },
	{ "uprobe", "uprobe", BPF_PROG_TYPE_KPROBE, 0, 0 },
	{ "uprobe//proc/self/exe:main", "uprobe", BPF_PROG_TYPE_KPROBE, 0, 0 },
	{ "uretprobe/readline", "uretprobe", BPF_PROG_TYPE_KPROBE, 0, RET },
	{ "uprobe.s/libc.so.6:malloc", "uprobe.s", BPF_PROG_TYPE_KPROBE, 0, SLEEP },
	{ "uretprobe.s", "uretprobe.s", BPF_PROG_TYPE_KPROBE, 0, RET | SLEEP },
	{ "perf_event", "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, 0 },
	{ "socket", "socket", BPF_PROG_TYPE_SOCKET_FILTER, 0, 0 },
	{ "tc", "tc", BPF_PROG_TYPE_SCHED_CLS, 0, 0 },
	{ "classifier", "classifier", BPF_PROG_TYPE_SCHED_CLS, 0, 0 },
	{ "xdp", "xdp", BPF_PROG_TYPE_XDP, BPF_XDP, 0 },
	{ "tp_btf/sched_switch", "tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, 0 },
	{ "fentry/do_unlinkat", "fentry", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, 0 },
	{ "fentry.s/do_unlinkat", "fentry.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, SLEEP },
	{ "fexit/do_unlinkat", "fexit", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, 0 },
	{ "fmod_ret/security_file_open", "fmod_ret", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, 0 },
	{ "lsm/file_open", "lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, 0 },
	{ "lsm.s/bprm_committed_creds", "lsm.s", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, SLEEP },
	{ "iter/task", "iter", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, 0 },
	{ "iter.s/task", "iter.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, SLEEP },
	/* look-alikes */
	{ "tracepoints/x/y", NULL, 0, 0, 0 },
	{ "tpx/x/y", NULL, 0, 0, 0 },
	{ "uprobes/x:y", NULL, 0, 0, 0 },
	{ "kprobe.multi/x", NULL, 0, 0, 0 },
	{ "xdp_pass", NULL, 0, 0, 0 },
	{ "sockets", NULL, 0, 0, 0 },
	{ "", NULL, 0, 0, 0 },
	{ "tp_btfx/y", NULL, 0, 0, 0 },
	{ "fentry.x/y", NULL, 0, 0, 0 },
	{ "lsmx/y", NULL, 0, 0, 0 },
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(wants); i++) {
		const struct want *w = &wants[i];
		const struct attach_kind *k = attach_kind_find(w->section);

		if (!w->prefix) {
			check(k == NULL, "'%s' matches no row (got '%s')", w->section,
			      k ? k->prefix : "");
			continue;
		}
		if (!check(k != NULL, "'%s' matches a row", w->section))
			continue;
		check_str(k->prefix, w->prefix, "the row of '%s'", w->section);
		check_i64(k->prog_type, w->prog_type, "program type");
		check_i64(k->expected_attach_type, w->expected_attach_type, "expected attach type");
		check_i64(k->retprobe, !!(w->flags & RET), "retprobe");
		check_i64(k->sleepable, !!(w->flags & SLEEP), "sleepable");
		check((k->btf_prefix != NULL) == (k->prog_type == BPF_PROG_TYPE_TRACING ||
						 k->prog_type == BPF_PROG_TYPE_LSM),
		      "'%s': BTF-typed exactly for tracing and lsm programs", w->section);
		check((k->method == NULL) == (k->manual != NULL),
		      "'%s': load-only exactly when it says how to attach it", w->section);
	}
	/* the uprobe target forms */
	check(uprobe_target_complete("/bin/bash:readline"), "PATH:FUNC names a binary");
	check(uprobe_target_complete("lib.so:0x1234"), "PATH:OFFSET names a binary");
	check(!uprobe_target_complete("readline"), "FUNC alone names no binary");
	check(!uprobe_target_complete(""), "nothing names no binary");
	check(!uprobe_target_complete(":readline"), "':FUNC' names no binary");
	check(!uprobe_target_complete("/bin/bash:"), "'PATH:' names no function");
	return check_done();
}
