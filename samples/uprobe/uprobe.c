// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * uprobe - probes in user programs: every line bash reads, or every call
 * of a function of any binary with its arguments and return value.
 *
 * The BPF side (uprobe.bpf.c) has a uretprobe for bash's readline(), and a
 * uprobe + uretprobe pair for the function of --func; this side loads the
 * programs of the mode asked for, attaches them where it is told, and
 * prints a line per record.
 *
 * The story: open -> choose the programs and their places -> load -> open
 * the perf buffer -> attach -> poll and print -> report -> clean up.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "uprobe.h"
#include "uprobe.skel.h"	/* generated: bpfsdk gen skeleton uprobe.bpf.o */

static const char usage[] =
"usage: uprobe [options]\n"
"\n"
"Without --func: show every line an interactive bash reads, from a\n"
"uretprobe on its readline() function. With --func PATH:SYMBOL: show every\n"
"call of that function, its first arguments and its return value, from a\n"
"uprobe at its entry and a uretprobe at its return.\n"
"\n"
"options:\n"
"  -f, --func PATH:SYMBOL  trace this function of the ELF file PATH (a\n"
"                       program or a shared library)\n"
"  -a, --args N         arguments of --func to show, 0 to 5 (default 3),\n"
"                       as signed integers\n"
"  -b, --bash PATH      the bash whose readline() to probe (default:\n"
"                       /bin/bash, else /usr/bin/bash)\n"
"  -p, --pid PID        only the process PID (filtered in the kernel)\n"
"  -c, --comm COMM      only processes whose command name is COMM\n"
"  -d, --duration SEC   stop after SEC seconds (default: until Ctrl-C)\n"
"  -j, --json           one JSON object per line instead of columns\n"
"  -o, --object PATH    load this build of uprobe.bpf.o instead of the one\n"
"                       built into the program\n"
"  -v, --verbose        what the loader does; twice for debug messages\n"
"  -h, --help           this text\n"
"\n"
"output, one line per record:\n"
"  PID      the process\n"
"  COMM     its command name\n"
"  LINE     (bash) the line readline() returned, without its newline\n"
"  LAT(us)  (--func) microseconds from the call to its return\n"
"  CALL     (--func) SYMBOL(arg1, arg2, ...) = return value\n"
"\n"
"--json prints ts_ns, pid, tid, comm and line, or args, ret and\n"
"duration_ns, per line.\n"
"\n"
"On exit a line 'received N, shown S, lost L' goes to stderr: L is the\n"
"number of records the kernel dropped because a ring was full.\n"
"\n"
"exit status: 0 on success (Ctrl-C, --duration or a closed pipe), 1 on\n"
"failure, 2 on a usage error, 130/143 for SIGINT/SIGTERM before tracing\n"
"began. Needs root (CAP_BPF and CAP_PERFMON).\n";

struct options {
	const char *func;	/* "PATH:SYMBOL", or NULL for readline */
	const char *symbol;	/* after the colon of func */
	int nargs;
	const char *bash;
	__u32 pid;
	const char *comm;
	double duration;
	const char *object;
	bool json;
	int verbose;
};

struct tracer {
	const struct options *opt;
	__u64 received;
	__u64 shown;
	__u64 lost;
	__u64 bad;
};

static void print_header(const struct options *o)
{
	if (o->func)
		printf("%-7s %-16s %-9s %s\n", "PID", "COMM", "LAT(us)", "CALL");
	else
		printf("%-7s %-16s %s\n", "PID", "COMM", "LINE");
}

static void print_event(const struct options *o, const struct uprobe_event *e,
			const char *comm, const char *line, size_t line_len)
{
	if (o->json) {
		printf("{\"ts_ns\":%llu,\"pid\":%u,\"tid\":%u,\"comm\":",
		       (unsigned long long)e->ts_ns, e->pid, e->tid);
		bsdk_json_string(stdout, comm, strlen(comm));
		if (e->kind == UPROBE_LINE) {
			printf(",\"line\":");
			bsdk_json_string(stdout, line, line_len);
		} else {
			printf(",\"func\":");
			bsdk_json_string(stdout, o->symbol, strlen(o->symbol));
			printf(",\"args\":[");
			for (int i = 0; i < o->nargs; i++)
				printf("%s%lld", i ? "," : "", (long long)e->args[i]);
			printf("],\"ret\":%lld,\"duration_ns\":%llu", (long long)e->ret,
			       (unsigned long long)e->duration_ns);
		}
		printf("}\n");
		return;
	}
	printf("%-7u %-16s ", e->pid, comm);
	if (e->kind == UPROBE_LINE) {
		printf("%.*s\n", (int)line_len, line);
		return;
	}
	printf("%-9.3f %s(", (double)e->duration_ns / 1e3, o->symbol);
	for (int i = 0; i < o->nargs; i++)
		printf("%s%lld", i ? ", " : "", (long long)e->args[i]);
	printf(") = %lld\n", (long long)e->ret);
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tracer *t = ctx;
	struct uprobe_event e;
	char comm[UPROBE_COMM_LEN + 1];
	const char *line = (const char *)data + UPROBE_HEAD_SIZE;

	t->received++;
	if (size < UPROBE_HEAD_SIZE) {
		if (t->bad++ < 5)
			fprintf(stderr, "warning: cpu %d: record of %u bytes, shorter than the %zu-byte head\n",
				cpu, size, (size_t)UPROBE_HEAD_SIZE);
		return;
	}
	memcpy(&e, data, UPROBE_HEAD_SIZE);
	if ((e.kind != UPROBE_LINE && e.kind != UPROBE_CALL) || e.len > UPROBE_LINE_MAX ||
	    e.len > size - UPROBE_HEAD_SIZE) {
		if (t->bad++ < 5)
			fprintf(stderr, "warning: cpu %d: kind %u, len %u do not fit a %u-byte record\n",
				cpu, e.kind, e.len, size);
		return;
	}
	memcpy(comm, e.comm, UPROBE_COMM_LEN);
	comm[UPROBE_COMM_LEN] = '\0';
	if (t->opt->comm && strcmp(comm, t->opt->comm) != 0)
		return;
	t->shown++;
	print_event(t->opt, &e, comm, line, strnlen(line, e.len));
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	struct tracer *t = ctx;

	t->lost += count;
	if (t->opt->verbose)
		fprintf(stderr, "lost: cpu %d dropped %llu records\n", cpu,
			(unsigned long long)count);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "func", required_argument, NULL, 'f' },
		{ "args", required_argument, NULL, 'a' },
		{ "bash", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "object", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *colon;
	char *end;
	long val;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:a:b:p:c:d:jo:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			colon = strrchr(optarg, ':');
			if (!colon || colon == optarg || !colon[1]) {
				fprintf(stderr, "error: --func '%s' is not PATH:SYMBOL\n", optarg);
				return 2;
			}
			o->func = optarg;
			o->symbol = colon + 1;
			break;
		case 'a':
			val = strtol(optarg, &end, 10);
			if (*end || end == optarg || val < 0 || val > UPROBE_ARGS_MAX) {
				fprintf(stderr, "error: --args '%s' is not a number from 0 to 5\n", optarg);
				return 2;
			}
			o->nargs = (int)val;
			break;
		case 'b':
			o->bash = optarg;
			break;
		case 'p':
			if (bsdk_arg_parse_pid("--pid", optarg, &o->pid))
				return 2;
			break;
		case 'c':
			if (bsdk_arg_parse_comm("--comm", optarg, UPROBE_COMM_LEN))
				return 2;
			o->comm = optarg;
			break;
		case 'd':
			if (bsdk_arg_parse_seconds("--duration", optarg, 86400, &o->duration))
				return 2;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->object = optarg;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:	/* ':' a value missing, '?' an unknown option */
			bsdk_arg_reject("uprobe", c, optind, argv);
			return 2;
		}
	}
	if (optind < argc) {
		bsdk_arg_reject("uprobe", -1, optind, argv);
		return 2;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct options opt = { .nargs = 3 };
	struct tracer tracer = { .opt = &opt };
	struct bsdk_prog *line_prog, *entry, *ret_prog;
	struct bsdk_link *links[2] = { NULL };
	struct bsdk_perfbuf *pb = NULL;
	struct uprobe *skel = NULL;
	char place[PATH_MAX + 64];
	int ret = 1, err, end;

	err = parse_options(argc, argv, &opt);
	if (err >= 0)
		return err;
	if (!opt.bash)
		opt.bash = access("/bin/bash", R_OK) == 0 ? "/bin/bash" : "/usr/bin/bash";
	if (opt.verbose)
		bsdk_set_log_level(opt.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.object ? uprobe__open_file(opt.object) : uprobe__open();
	if (!skel)
		goto cleanup;
	line_prog = skel->progs.readline_return;
	entry = skel->progs.func_entry;
	ret_prog = skel->progs.func_return;

	/* Choose: load only the mode's programs, and tell them where to
	 * attach - "PATH:SYMBOL", found in the file's symbol tables. */
	if (opt.func) {
		bsdk_prog_set_autoload(line_prog, false);
		if (bsdk_prog_set_attach_target(entry, opt.func) ||
		    bsdk_prog_set_attach_target(ret_prog, opt.func))
			goto cleanup;
	} else {
		bsdk_prog_set_autoload(entry, false);
		bsdk_prog_set_autoload(ret_prog, false);
		snprintf(place, sizeof(place), "%s:readline", opt.bash);
		if (bsdk_prog_set_attach_target(line_prog, place))
			goto cleanup;
	}
	skel->rodata->target_tgid = opt.pid;

	/* Load: maps created, the chosen programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || uprobe__load(skel))
		goto cleanup;

	struct bsdk_perfbuf_opts pb_opts = {
		.sz = sizeof(pb_opts),
		.on_sample = on_sample,
		.on_lost = on_lost,
		.ctx = &tracer,
		.merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct uprobe_event, ts_ns),
	};
	pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	if (!pb)
		goto cleanup;

	/* Attach: the return probe before the entry probe, so that no entry
	 * is kept for a return nobody would see. */
	links[0] = bsdk_prog_attach(opt.func ? ret_prog : line_prog);
	if (!links[0])
		goto cleanup;
	if (opt.func && !(links[1] = bsdk_prog_attach(entry)))
		goto cleanup;

	if (!opt.json)
		print_header(&opt);
	fflush(stdout);
	fprintf(stderr, "uprobe: tracing %s, Ctrl-C to stop\n", opt.func ? opt.func : place);

	/* Poll: print as records come, until Ctrl-C, --duration or a reader
	 * that left (| head). */
	struct bsdk_run_opts run = { .sz = sizeof(run), .duration = opt.duration, .out = stdout };
	end = bsdk_perfbuf_run(pb, &run);
	if (end < 0)
		goto cleanup;
	/* Detach, then take what is still in the rings. */
	for (int i = 1; i >= 0; i--) {
		bsdk_link_destroy(links[i]);
		links[i] = NULL;
	}
	if (end != BSDK_RUN_CLOSED && bsdk_perfbuf_drain(pb, stdout) < 0)
		goto cleanup;

	fprintf(stderr, "received %llu, shown %llu, lost %llu\n",
		(unsigned long long)tracer.received, (unsigned long long)tracer.shown,
		(unsigned long long)tracer.lost);
	if (tracer.bad)
		fprintf(stderr, "error: %llu malformed records\n", (unsigned long long)tracer.bad);
	else
		ret = 0;

cleanup:
	if (bsdk_signals_caught() && ret)	/* Ctrl-C or SIGTERM before the tracing began */
		ret = 128 + bsdk_signals_caught();
	/* Clean up: one place, in reverse order; each call accepts NULL. */
	for (int i = 1; i >= 0; i--)
		bsdk_link_destroy(links[i]);
	bsdk_perfbuf_free(pb);
	uprobe__destroy(skel);
	return ret;
}
