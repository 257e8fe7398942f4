// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * modes.c - programs on different kinds of hook that send one map's
 * records: `inspect` names them, `run` says when it attached them all.
 *
 * A tool may carry its work two ways and load one: sigsnoop sends a record
 * from the exit of kill(), tkill() and tgkill() (their entries save the
 * arguments) or, in its other mode, from the signal/signal_generate
 * tracepoint, and turns one set off with bpf_program__set_autoload(). A
 * run that attaches both shows every signal twice. Nothing in the object
 * says which programs are modes, so the programs that send one map are
 * sorted by where their hook is - the system calls (their tracepoints,
 * ksyscall, a kprobe or fentry on an entry symbol), a tracepoint category,
 * the kernel's functions (kprobe, fentry and their returns), a program's
 * (uprobe, usdt), another kind of hook - and two places or more are worth a
 * word: opensnoop's open() and openat() are both system calls, tcpconnect's
 * kprobes on tcp_v4_connect and tcp_v6_connect both kernel functions, and
 * no modes. A perf_event program samples rather than hooks: no place.
 */
#include <stdio.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

#define MAX_SENDERS 64

static bool kind_is(const char *sec, size_t len, const char *const *kinds)
{
	for (; *kinds; kinds++)
		if (strlen(*kinds) == len && strncmp(sec, *kinds, len) == 0)
			return true;
	return false;
}

/* Where prog's hook is, in a word ("" for none): "syscalls", a tracepoint's category,
 * "kernel functions", "user functions", or its kind. */
static void hook_place(const struct bsdk_prog *prog, char *buf, size_t size)
{
	static const char *const kfunc[] = { "kprobe", "kretprobe", "fentry", "fexit",
		"fentry.s", "fexit.s", "fmod_ret", "fmod_ret.s", "kprobe.multi",
		"kretprobe.multi", NULL };
	static const char *const ufunc[] = { "uprobe", "uretprobe", "uprobe.s",
		"uretprobe.s", "usdt", NULL };
	static const char *const sys[] = { "ksyscall", "kretsyscall", NULL };
	static const char *const tp[] = { "tracepoint", "tp", NULL };
	const char *sec = bsdk_prog_section(prog), *slash = strchr(sec, '/');
	const char *target = slash ? slash + 1 : "";
	size_t kind = slash ? (size_t)(slash - sec) : strlen(sec);

	if (kind_is(sec, kind, tp))
		snprintf(buf, size, "%.*s", (int)strcspn(target, "/"), target);
	else if (kind_is(sec, kind, sys) ||
		 (kind_is(sec, kind, kfunc) && (strstr(target, "sys_") == target ||
						strstr(target, "_sys_"))))
		snprintf(buf, size, "syscalls");
	else if (kind_is(sec, kind, kfunc))
		snprintf(buf, size, "kernel functions");
	else if (kind_is(sec, kind, ufunc))
		snprintf(buf, size, "user functions");
	else if (kind == 10 && strncmp(sec, "perf_event", kind) == 0)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%.*s", (int)kind, sec);
}

int record_modes(const struct bsdk_map *map, bool attached_only, char *buf, size_t size)
{
	const struct bsdk_prog *progs[MAX_SENDERS];
	char places[MAX_SENDERS][64];
	int n = bsdk_map_senders(map, progs, MAX_SENDERS), nplaces = 0;
	size_t len = 0;

	buf[0] = '\0';
	if (n > MAX_SENDERS)
		n = MAX_SENDERS;
	for (int i = 0; i < n; i++) {
		bool seen = false;

		places[i][0] = '\0';
		if (attached_only && !bsdk_prog_attached(progs[i]))
			continue;
		hook_place(progs[i], places[i], sizeof(places[i]));
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(places[j], places[i]) == 0;
		nplaces += !seen && places[i][0];
	}
	/* "a, b (syscalls); c (signal)": each place once, its programs before it */
	for (int i = 0; i < n && nplaces > 1; i++) {
		bool first = true;

		if (!places[i][0])
			continue;	/* not attached, or no place */
		for (int j = 0; j < i && first; j++)
			first = strcmp(places[j], places[i]) != 0;
		if (!first)
			continue;	/* listed with an earlier one of its place */
		for (int j = i; j < n; j++) {
			if (strcmp(places[j], places[i]) != 0)
				continue;
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
						j == i ? (len ? "; " : "") : ", ",
						bsdk_prog_name(progs[j]));
		}
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " (%s)", places[i]);
	}
	return n < 0 ? n : nplaces;
}
