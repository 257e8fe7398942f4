// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * execsnoop - show every execve(2) on the system: the new program's name,
 * its pid and parent, the result, and the command line.
 *
 * The BPF side (execsnoop.bpf.c) copies the arguments at the entry of
 * execve, adds the result at its exit and sends a record as long as the
 * command line; this side prints a line for each, in BCC's columns.
 *
 * The story: open -> configure -> load -> open the perf buffer -> attach
 * -> poll and print -> report -> clean up.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "execsnoop.h"
#include "execsnoop.skel.h"	/* generated: bpfsdk gen skeleton execsnoop.bpf.o */

static const char usage[] =
"usage: execsnoop [options]\n"
"\n"
"Show each execve(2) as it returns: the command name, the process and its\n"
"parent, the result, and the arguments: the first 2560 bytes of the new\n"
"program's command line, or for a failed exec up to 20 arguments of up to\n"
"127 bytes each, as the caller passed them.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"output, one line per execve:\n"
"  PCOMM    the command name after the call: the new program's when it\n"
"           worked, the caller's when it failed\n"
"  PID      the process that called execve\n"
"  PPID     its parent (the process that forked it)\n"
"  RET      0, or the error as -ENAME\n"
"  ARGS     the arguments, argv[0] first, separated by spaces; ' ...' when\n"
"           there were more, or one was cut; bytes that are not printable\n"
"           as \\xNN\n"
"\n"
"--json prints ts_ns, pid, tid, ppid, uid, comm, ret, args (an array of\n"
"strings) and truncated per line.\n"
"\n"
USAGE_TALLY
"\n"
USAGE_EXIT("tracing", "");

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	bool fails;
	bool time;
};

struct snoop {
	struct bsdk_tally counts;	/* first: bsdk_tally_lost() is on_lost */
	const struct options *opt;
};

/* Tell the BPF side the parent of every process already running: field 4
 * of /proc/PID/stat. Those forked from now on, fork_note sees. */
static int parents_seed(const struct bsdk_map *parents)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int n = 0;

	if (!dir) {
		fprintf(stderr, "error: cannot read '/proc': %s\n", strerror(errno));
		return -1;
	}
	while ((d = readdir(dir))) {
		char path[300], buf[512], *p;
		unsigned int pid, ppid;
		FILE *f;

		if (sscanf(d->d_name, "%u", &pid) != 1)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* it has just exited */
		/* "pid (comm) state ppid": comm may hold spaces and
		 * parentheses, so start after the last ')'. */
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    sscanf(p + 1, " %*c %u", &ppid) == 1 &&
		    bsdk_map_update_elem(parents, &pid, sizeof(pid), &ppid, sizeof(ppid),
					 BPF_NOEXIST) == 0)
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

/* Where to find "offset:N;" of field name in a tracepoint's format file. */
static int format_field_offset(const char *event, const char *name, __u32 *offset)
{
	char path[256], line[512], needle[64];
	int err = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/format", event);
	snprintf(needle, sizeof(needle), " %s;", name);
	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		fprintf(stderr, "error: cannot read '%s': %s%s\n", path, strerror(-err),
			err == -EACCES ? " (reading tracefs takes CAP_DAC_READ_SEARCH, or root)" : "");
		return err;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, needle);

		if (p && sscanf(p + strlen(needle), " offset:%u;", offset) == 1) {
			err = 0;
			break;
		}
	}
	fclose(f);
	if (err)
		fprintf(stderr, "error: '%s' has no field '%s'\n", path, name);
	return err;
}

static void print_header(const struct options *o)
{
	if (o->time)
		printf("%-8s ", "TIME");
	if (o->common.verbose)
		printf("%-16s %-7s %-7s %-7s %-5s %-7s %s\n", "PCOMM", "PID", "TID", "PPID",
		       "UID", "RET", "ARGS");
	else
		printf("%-16s %-7s %-7s %-7s %s\n", "PCOMM", "PID", "PPID", "RET", "ARGS");
}

static void print_args(const struct execsnoop_event *e, const char *args)
{
	const char *p = args;

	for (__u32 i = 0; i < e->argc; i++) {
		if (i)
			putchar(' ');
		for (; *p; p++) {
			unsigned char c = (unsigned char)*p;

			if (c < 0x20 || c >= 0x7f || c == '\\')
				printf("\\x%02x", c);
			else
				putchar(c);
		}
		p++;
	}
	if (e->flags)
		printf(" ...");
}

static void print_event(const struct options *o, const struct execsnoop_event *e,
			const char *comm, const char *args)
{
	char ret[32];

	if (o->common.json) {
		const char *p = args;

		printf("{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"ppid\":%u,\"uid\":%u,\"comm\":",
		       (unsigned long long)e->ts_ns, e->pid, e->tid, e->ppid, e->uid);
		bsdk_json_string(stdout, comm, strlen(comm));
		printf(",\"ret\":%d,\"args\":[", e->ret);
		for (__u32 i = 0; i < e->argc; i++) {
			size_t n = strlen(p);

			if (i)
				putchar(',');
			bsdk_json_string(stdout, p, n);
			p += n + 1;
		}
		printf("],\"truncated\":%s}\n", e->flags ? "true" : "false");
		return;
	}
	if (e->ret < 0 && strerrorname_np(-e->ret))
		snprintf(ret, sizeof(ret), "-%s", strerrorname_np(-e->ret));
	else
		snprintf(ret, sizeof(ret), "%d", e->ret);
	if (o->time) {
		time_t t = time(NULL);
		char hms[16];

		strftime(hms, sizeof(hms), "%H:%M:%S", localtime(&t));
		printf("%-8s ", hms);
	}
	if (o->common.verbose)
		printf("%-16s %-7u %-7u %-7u %-5u %-7s ", comm, e->pid, e->tid, e->ppid, e->uid, ret);
	else
		printf("%-16s %-7u %-7u %-7s ", comm, e->pid, e->ppid, ret);
	print_args(e, args);
	putchar('\n');
}

/* Called for every record: the head, then args_len bytes of arguments,
 * argc strings each with its NUL; the ring pads the whole to 8 bytes. */
static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct snoop *s = ctx;
	struct execsnoop_event e;
	char comm[EXECSNOOP_COMM_LEN + 1];
	const char *args = (const char *)data + EXECSNOOP_HEAD_SIZE;
	__u32 nuls = 0;

	if (!bsdk_tally_check(&s->counts, cpu, size, EXECSNOOP_HEAD_SIZE))
		return;
	memcpy(&e, data, EXECSNOOP_HEAD_SIZE);
	if (e.args_len <= size - EXECSNOOP_HEAD_SIZE)
		for (__u32 i = 0; i < e.args_len; i++)
			nuls += !args[i];
	if (!e.argc)		/* read as one block: count its strings */
		e.argc = nuls;
	/* Exactly argc strings, the last one ended: then printing cannot run
	 * past the record. */
	if (e.args_len > size - EXECSNOOP_HEAD_SIZE || nuls != e.argc ||
	    (e.args_len && args[e.args_len - 1])) {
		bsdk_tally_bad(&s->counts, cpu, "%u arguments do not fit %u bytes", e.argc,
			       e.args_len);
		return;
	}
	memcpy(comm, e.comm, EXECSNOOP_COMM_LEN);
	comm[EXECSNOOP_COMM_LEN] = '\0';
	if ((s->opt->fails && e.ret == 0) ||
	    (s->opt->common.pid && e.pid != s->opt->common.pid && e.ppid != s->opt->common.pid) ||
	    (s->opt->common.comm && strcmp(comm, s->opt->common.comm) != 0))
		return;
	s->counts.shown++;
	print_event(s->opt, &e, comm, args);
}

static struct options opt;

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ .name = "pid", .type = BSDK_OPT_COMMON,
	  .help = "only process PID and the processes it forked" },
	{ .name = "comm", .type = BSDK_OPT_COMMON,
	  .help = "only execs whose command name (after the exec) is COMM" },
	{ "fails", 'x', BSDK_OPT_FLAG, .dest = &opt.fails,
	  .help = "only the execs that failed" },
	{ "time", 'T', BSDK_OPT_FLAG, .dest = &opt.time,
	  .help = "a TIME column: the wall clock, HH:MM:SS" },
	{ .name = "duration", .type = BSDK_OPT_COMMON },
	{ .name = "json", .type = BSDK_OPT_COMMON },
	{ .name = "object", .type = BSDK_OPT_COMMON },
	{ .name = "verbose", .type = BSDK_OPT_COMMON,
	  .help =
	"more columns (TID, UID) and what the loader does;\n"
	"twice for debug messages" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "execsnoop", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER | BSDK_ARGS_COMM,
};

int main(int argc, char **argv)
{
	struct snoop snoop = { .opt = &opt };
	struct bsdk_link *links[4] = { NULL };
	struct bsdk_prog *progs[4];
	struct bsdk_perfbuf *pb = NULL;
	struct execsnoop_bpf *skel = NULL;
	int ret = 1, err;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.common.object ? execsnoop_bpf__open_file(opt.common.object) : execsnoop_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: where this kernel puts child_pid in sched_process_fork's
	 * record, from the tracepoint's format file. */
	if (format_field_offset("sched/sched_process_fork", "child_pid",
				&skel->rodata->fork_child_pid_off))
		goto cleanup;

	/* Load: maps created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || execsnoop_bpf__load(skel))
		goto cleanup;

	/* Read: a perf ring per CPU, merged by the timestamp at each record's head. */
	struct bsdk_perfbuf_opts pb_opts = { .sz = sizeof(pb_opts), .on_sample = on_sample,
		.on_lost = bsdk_tally_lost, .ctx = &snoop, .merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct execsnoop_event, ts_ns) };
	pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	if (!pb)
		goto cleanup;

	/* Attach: fork first, then the parents of the processes that exist
	 * (fork_note keeps what it sees: BPF_NOEXIST leaves those alone),
	 * then exit and exec before entry, so that no entry waits for an exit. */
	progs[0] = skel->progs.fork_note;
	progs[1] = skel->progs.execve_exit;
	progs[2] = skel->progs.exec_done;
	progs[3] = skel->progs.execve_enter;
	if (bsdk_progs_attach(progs, 1, links) || parents_seed(skel->maps.parents) < 0 ||
	    bsdk_progs_attach(progs + 1, 3, links + 1))
		goto cleanup;

	if (!opt.common.json)
		print_header(&opt);
	fflush(stdout);
	fprintf(stderr, "execsnoop: tracing execve(2), Ctrl-C to stop\n");

	/* Poll: print as records come, until Ctrl-C, --duration or a reader
	 * that left (| head); then detach, take what is still in the rings,
	 * and report: every record accounted for. */
	ret = bsdk_perfbuf_run_report(pb, opt.common.duration, links, 4, &snoop.counts);

cleanup:
	/* Clean up: one place, each call accepts NULL. The skeleton's destroy
	 * also destroys the links a failure left attached, the last first. */
	bsdk_perfbuf_free(pb);
	execsnoop_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
