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
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "uprobe.h"
#include "uprobe.skel.h"	/* generated: bpfsdk gen skeleton uprobe.bpf.o */

static const char usage[] =
"usage: uprobe [options]\n"
"\n"
"Without --func: show every line an interactive bash reads, from a\n"
"uretprobe on its readline() function. With --func PATH:SYMBOL: show every\n"
"call of that function, its first arguments and its return value, from a\n"
"uprobe at its entry and a uretprobe at its return.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
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
USAGE_TALLY
"\n"
USAGE_EXIT("tracing", "");

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	const char *func;	/* "PATH:SYMBOL", or NULL for readline */
	const char *symbol;	/* after the colon of func */
	unsigned int nargs;
	const char *bash;
};

struct tracer {
	struct bsdk_tally counts;	/* first: bsdk_tally_lost() is on_lost */
	const struct options *opt;
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
	if (o->common.json) {
		json_head(e->ts_ns, e->pid, e->tid, comm);
		if (e->kind == UPROBE_LINE) {
			printf(",\"line\":");
			bsdk_json_string(stdout, line, line_len);
		} else {
			printf(",\"func\":");
			bsdk_json_string(stdout, o->symbol, strlen(o->symbol));
			printf(",\"args\":[");
			for (unsigned int i = 0; i < o->nargs; i++)
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
	for (unsigned int i = 0; i < o->nargs; i++)
		printf("%s%lld", i ? ", " : "", (long long)e->args[i]);
	printf(") = %lld\n", (long long)e->ret);
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tracer *t = ctx;
	struct uprobe_event e;
	char comm[UPROBE_COMM_LEN + 1];
	const char *line = (const char *)data + UPROBE_HEAD_SIZE;

	if (!bsdk_tally_check(&t->counts, cpu, size, UPROBE_HEAD_SIZE))
		return;
	memcpy(&e, data, UPROBE_HEAD_SIZE);
	if ((e.kind != UPROBE_LINE && e.kind != UPROBE_CALL) || e.len > UPROBE_LINE_MAX ||
	    e.len > size - UPROBE_HEAD_SIZE) {
		bsdk_tally_bad(&t->counts, cpu, "kind %u, len %u do not fit a %u-byte record",
			       e.kind, e.len, size);
		return;
	}
	memcpy(comm, e.comm, UPROBE_COMM_LEN);
	comm[UPROBE_COMM_LEN] = '\0';
	if (t->opt->common.comm && strcmp(comm, t->opt->common.comm) != 0)
		return;
	t->counts.shown++;
	print_event(t->opt, &e, comm, line, strnlen(line, e.len));
}

static struct options opt = { .nargs = 3 };

/* --func PATH:SYMBOL, split at the last colon. */
static int parse_func(const char *name, const char *value, void *dest)
{
	struct options *o = dest;
	const char *colon = strrchr(value, ':');

	if (!colon || colon == value || !colon[1]) {
		fprintf(stderr, "error: %s '%s' is not PATH:SYMBOL\n", name, value);
		return -EINVAL;
	}
	o->func = value;
	o->symbol = colon + 1;
	return 0;
}

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ "func", 'f', BSDK_OPT_CALL, .dest = &opt, .parse = parse_func,
	  .arg = "PATH:SYMBOL",
	  .help =
	"trace this function of the ELF file PATH (a\n"
	"program or a shared library)" },
	{ "args", 'a', BSDK_OPT_UINT, .dest = &opt.nargs, .min = 0, .max = UPROBE_ARGS_MAX,
	  .what = "a number from 0 to 5",
	  .arg = "N",
	  .help =
	"arguments of --func to show, 0 to 5 (default 3),\n"
	"as signed integers" },
	{ "bash", 'b', BSDK_OPT_STRING, .dest = &opt.bash,
	  .arg = "PATH",
	  .help =
	"the bash whose readline() to probe (default:\n"
	"/bin/bash, else /usr/bin/bash)" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "uprobe", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER | BSDK_ARGS_COMM,
};

/* Load only the mode's programs, and tell them where to attach - "PATH:SYMBOL",
 * found in the file's symbol tables; place gets bash's readline. 0, or not 0
 * (logged). */
static int choose_programs(struct uprobe_bpf *skel, char *place, size_t size)
{
	if (opt.func) {
		bsdk_prog_set_autoload(skel->progs.readline_return, false);
		if (bsdk_prog_set_attach_target(skel->progs.func_entry, opt.func))
			return -1;
		return bsdk_prog_set_attach_target(skel->progs.func_return, opt.func);
	}
	bsdk_prog_set_autoload(skel->progs.func_entry, false);
	bsdk_prog_set_autoload(skel->progs.func_return, false);
	snprintf(place, size, "%s:readline", opt.bash);
	return bsdk_prog_set_attach_target(skel->progs.readline_return, place);
}

int main(int argc, char **argv)
{
	struct tracer tracer = { .opt = &opt };
	struct bsdk_prog *progs[2];	/* the return probe, then the entry probe */
	struct bsdk_link *links[2] = { NULL };
	struct bsdk_perfbuf *pb = NULL;
	struct uprobe_bpf *skel = NULL;
	char place[PATH_MAX + 64];
	int ret = 1, err;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	if (!opt.bash)
		opt.bash = access("/bin/bash", R_OK) == 0 ? "/bin/bash" : "/usr/bin/bash";
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.common.object ? uprobe_bpf__open_file(opt.common.object) : uprobe_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: the mode's programs, where they attach, the pid filter. */
	if (choose_programs(skel, place, sizeof(place)))
		goto cleanup;
	skel->rodata->target_tgid = opt.common.pid;

	/* Load: maps created, the chosen programs verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || uprobe_bpf__load(skel))
		goto cleanup;

	/* Read: a perf ring per CPU, merged by the timestamp at each record's head. */
	struct bsdk_perfbuf_opts pb_opts = { .sz = sizeof(pb_opts), .on_sample = on_sample,
		.on_lost = bsdk_tally_lost, .ctx = &tracer, .merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct uprobe_event, ts_ns) };
	pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	if (!pb)
		goto cleanup;

	/* Attach: the return probe before the entry probe, so that no entry
	 * is kept for a return nobody would see. */
	progs[0] = opt.func ? skel->progs.func_return : skel->progs.readline_return;
	progs[1] = skel->progs.func_entry;
	if (bsdk_progs_attach(progs, opt.func ? 2 : 1, links))
		goto cleanup;

	if (!opt.common.json)
		print_header(&opt);
	fflush(stdout);
	fprintf(stderr, "uprobe: tracing %s, Ctrl-C to stop\n", opt.func ? opt.func : place);

	/* Poll: print as records come, until Ctrl-C, --duration or a reader
	 * that left (| head); then detach, take what is still in the rings,
	 * and report: every record accounted for. */
	ret = bsdk_perfbuf_run_report(pb, opt.common.duration, links, 2, &tracer.counts);

cleanup:
	/* Clean up: one place, each call accepts NULL. The skeleton's destroy
	 * also destroys the links a failure left attached, the last first. */
	bsdk_perfbuf_free(pb);
	uprobe_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
