// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * opensnoop - show every openat(2) on the system as it happens: the
 * process, the path, the flags and the result.
 *
 * The BPF side (opensnoop.bpf.c) pairs the sys_enter_openat and
 * sys_exit_openat tracepoints and sends one variable-length record per call
 * through bpf_perf_event_output(); this side reads them from the per-CPU
 * perf rings and prints a line (or a JSON object) for each.
 *
 * The story: open -> configure the pid filter -> load -> open the perf
 * buffer -> attach -> poll and print -> report -> clean up. The object is
 * built into this program by its skeleton, opensnoop.skel.h (`bpfsdk gen
 * skeleton`), which names its programs, maps and global variables.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "opensnoop.h"
#include "opensnoop.skel.h"

static const char usage[] =
"usage: opensnoop [options]\n"
"\n"
"Show each openat(2) as it returns: who called it, the path, the flags and\n"
"the new file descriptor or the error. The BPF side reads the path from the\n"
"caller's memory and sends it with bpf_perf_event_output() in a record\n"
"only as long as the path.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"output, one line per call:\n"
"  PID      the process (thread group) that called openat\n"
"  COMM     its command name\n"
"  FD/ERR   the new file descriptor, or the error as -ENAME\n"
"  FLAGS    the open flags without O_, e.g. RDONLY|CLOEXEC; bits with no\n"
"           name are shown in hex\n"
"  PATH     the path as the caller passed it: relative paths are relative\n"
"           to DFD (CWD: the current directory); <unreadable: -EFAULT>\n"
"           when the kernel could not read it\n"
"\n"
"--json prints the same fields as one object per line, plus tid, uid, dfd,\n"
"ts_ns and the flags as a number; bytes of a path that are not UTF-8 are\n"
"written as \\udcXX, which Python's os.fsencode() turns back into them.\n"
"\n"
USAGE_TALLY
"\n"
USAGE_EXIT("tracing", "");

struct options {
	struct bsdk_args_common common;	/* --pid, --duration, --json, --object, -v */
	const char *name;
};

/* What the sample callback needs and counts. */
struct snoop {
	struct bsdk_tally counts;	/* first: bsdk_tally_lost() is on_lost */
	const struct options *opt;
};

/* "-ENOENT" for -2; the number when the C library has no name for it. */
static const char *errno_name(int err, char *buf, size_t size)
{
	const char *name = strerrorname_np(err);

	if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "-%d", err);
	return buf;
}

/* The flags as the open(2) man page names them, without the O_. */
static const char *flags_str(int flags, char *buf, size_t size)
{
	static const struct { int bits; const char *name; } names[] = {
		/* Flags made of several bits first, so that their parts
		 * are not named again. */
		{ O_TMPFILE, "TMPFILE" }, { O_SYNC, "SYNC" },
		{ O_CREAT, "CREAT" }, { O_EXCL, "EXCL" },
		{ O_NOCTTY, "NOCTTY" }, { O_TRUNC, "TRUNC" },
		{ O_APPEND, "APPEND" }, { O_NONBLOCK, "NONBLOCK" },
		{ O_DSYNC, "DSYNC" }, { O_ASYNC, "ASYNC" },
		{ O_DIRECT, "DIRECT" }, { O_DIRECTORY, "DIRECTORY" },
		{ O_NOFOLLOW, "NOFOLLOW" }, { O_NOATIME, "NOATIME" },
		{ O_CLOEXEC, "CLOEXEC" }, { O_PATH, "PATH" },
	};
	static const char *const modes[] = { "RDONLY", "WRONLY", "RDWR", "ACCMODE" };
	unsigned int rest = (unsigned int)flags & ~(unsigned int)O_ACCMODE;
	size_t len;

	len = (size_t)snprintf(buf, size, "%s", modes[flags & O_ACCMODE]);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned int bits = (unsigned int)names[i].bits;

		if ((rest & bits) == bits && len < size) {
			len += (size_t)snprintf(buf + len, size - len, "|%s",
						names[i].name);
			rest &= ~bits;
		}
	}
	/* O_LARGEFILE among them: the C library calls it 0 on 64-bit
	 * systems, the kernel does not. */
	if (rest && len < size)
		snprintf(buf + len, size - len, "|%#x", rest);
	return buf;
}

static void print_header(const struct options *o)
{
	if (o->common.verbose)
		printf("%-7s %-7s %-5s %-16s %-7s %-24s %-4s %s\n", "PID", "TID",
		       "UID", "COMM", "FD/ERR", "FLAGS", "DFD", "PATH");
	else
		printf("%-7s %-16s %-7s %-24s %s\n", "PID", "COMM", "FD/ERR",
		       "FLAGS", "PATH");
}

static void print_event(const struct options *o, const struct opensnoop_event *e,
			const char *comm, const char *path, size_t path_len)
{
	char ret[32], flags[128], dfd[16], err[32];

	if (e->ret < 0)
		errno_name(-e->ret, ret, sizeof(ret));
	else
		snprintf(ret, sizeof(ret), "%d", e->ret);
	flags_str(e->flags, flags, sizeof(flags));
	if (e->dfd == AT_FDCWD)
		snprintf(dfd, sizeof(dfd), "CWD");
	else
		snprintf(dfd, sizeof(dfd), "%d", e->dfd);

	if (o->common.json) {
		printf("{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"uid\":%u,\"comm\":",
		       (unsigned long long)e->ts_ns, e->pid, e->tid, e->uid);
		bsdk_json_string(stdout, comm, strlen(comm));
		printf(",\"ret\":%d,\"flags\":%d,\"flags_str\":\"%s\",\"dfd\":%d,\"path\":",
		       e->ret, e->flags, flags, e->dfd);
		if (e->path_err)
			printf("null,\"path_err\":\"%s\"}\n",
			       errno_name(-e->path_err, err, sizeof(err)) + 1);
		else {
			bsdk_json_string(stdout, path, path_len);
			printf("}\n");
		}
		return;
	}
	if (o->common.verbose)
		printf("%-7u %-7u %-5u %-16s %-7s %-24s %-4s ", e->pid, e->tid,
		       e->uid, comm, ret, flags, dfd);
	else
		printf("%-7u %-16s %-7s %-24s ", e->pid, comm, ret, flags);
	if (e->path_err)
		printf("<unreadable: %s>\n",
		       errno_name(-e->path_err, err, sizeof(err)));
	else
		printf("%.*s\n", (int)path_len, path);
}

/* Called for every record. The record is as long as the BPF side made it:
 * the head, then path_len bytes of path. The kernel pads it to 8 bytes, so
 * size may exceed that, never fall short of it. */
static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct snoop *s = ctx;
	struct opensnoop_event e;
	char comm[OPENSNOOP_COMM_LEN + 1];
	const char *path;
	size_t path_len;

	if (!bsdk_tally_check(&s->counts, cpu, size, OPENSNOOP_HEAD_SIZE))
		return;
	/* The head into an aligned copy (data is only 4-byte aligned); the
	 * path is read in place. */
	memcpy(&e, data, OPENSNOOP_HEAD_SIZE);
	if (e.path_len < 0 || e.path_len > OPENSNOOP_PATH_MAX ||
	    (uint32_t)e.path_len > size - OPENSNOOP_HEAD_SIZE) {
		bsdk_tally_bad(&s->counts, cpu, "path_len %d does not fit a %u-byte record",
			       e.path_len, size);
		return;
	}
	path = (const char *)data + OPENSNOOP_HEAD_SIZE;
	/* path_len counts the NUL; strnlen also stops at a missing one. */
	path_len = strnlen(path, (size_t)e.path_len);
	memcpy(comm, e.comm, OPENSNOOP_COMM_LEN);
	comm[OPENSNOOP_COMM_LEN] = '\0';

	if (s->opt->name && strcmp(comm, s->opt->name) != 0)
		return;
	s->counts.shown++;
	print_event(s->opt, &e, comm, path, path_len);
}

static struct options opt;

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. The
 * kernel keeps 15 characters of a name: a longer one could never match. */
static const struct bsdk_opt own_opts[] = {
	{ .name = "pid", .type = BSDK_OPT_COMMON },
	{ "name", 'n', BSDK_OPT_COMM, .dest = &opt.name, .max = OPENSNOOP_COMM_LEN,
	  .arg = "COMM",
	  .help =
	"only processes whose command name is COMM, exactly\n"
	"as in /proc/PID/comm (filtered here)" },
	{ .name = "duration", .type = BSDK_OPT_COMMON },
	{ .name = "json", .type = BSDK_OPT_COMMON },
	{ .name = "object", .type = BSDK_OPT_COMMON },
	{ .name = "verbose", .type = BSDK_OPT_COMMON,
	  .help =
	"more columns (TID, UID, DFD) and what the loader\n"
	"does; twice for debug messages" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "opensnoop", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER,
};

/* Read: one ring per CPU, merged by the timestamp at the head of each
 * record, so lines come out in the order the calls returned. */
static struct bsdk_perfbuf *perfbuf_open(struct opensnoop_bpf *skel, struct snoop *snoop)
{
	struct bsdk_perfbuf_opts pb_opts = {
		.sz = sizeof(pb_opts),
		.on_sample = on_sample,
		.on_lost = bsdk_tally_lost,
		.ctx = snoop,
		.merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct opensnoop_event, ts_ns),
	};

	return bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
}

int main(int argc, char **argv)
{
	struct snoop snoop = { .opt = &opt };
	struct bsdk_link *links[2] = { NULL };	/* exit, then entry */
	struct opensnoop_bpf *skel = NULL;
	struct bsdk_perfbuf *pb = NULL;
	int ret;

	ret = bsdk_args_parse(&args, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;	/* --help, or a usage error said */
	ret = 1;
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: parse the object; nothing reaches the kernel yet. */
	skel = opt.common.object ? opensnoop_bpf__open_file(opt.common.object) : opensnoop_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: the pid filter is a constant of the program, set
	 * before load (0 = every process). */
	skel->rodata->target_tgid = opt.common.pid;

	/* Load: maps are created, programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || opensnoop_bpf__load(skel))
		goto cleanup;
	/* Read: a perf ring per CPU, opened before attach loses nothing. */
	pb = perfbuf_open(skel, &snoop);
	if (!pb)
		goto cleanup;

	/* Attach exit first: an entry without its exit would only leave a
	 * map entry behind; an exit without its entry is skipped. */
	struct bsdk_prog *progs[2] = { skel->progs.openat_exit, skel->progs.openat_enter };
	if (bsdk_progs_attach(progs, 2, links))
		goto cleanup;

	if (!opt.common.json)
		print_header(&opt);
	fflush(stdout);
	fprintf(stderr, "opensnoop: tracing openat(2)%s, Ctrl-C to stop\n",
		opt.common.pid ? " of one process" : "");

	/* Poll: print as records come, flushed so a pipe sees them now, until
	 * Ctrl-C, --duration or a reader that left (| head: stop, still report);
	 * then detach, take what is still in the rings, and report: every
	 * record accounted for. */
	ret = bsdk_perfbuf_run_report(pb, opt.common.duration, links, 2, &snoop.counts);

cleanup:
	/* Clean up: one place, each call accepts NULL. The skeleton's destroy
	 * also destroys the links a failure left attached, the last first. */
	bsdk_perfbuf_free(pb);
	opensnoop_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
