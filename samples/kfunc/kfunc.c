// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kfunc - trace a kernel function, do_unlinkat(), through kprobes or
 * through fentry/fexit, whichever the running kernel allows: every file
 * name removed, by whom, and the result.
 *
 * The BPF side (kfunc.bpf.c) has both pairs of programs; this side loads
 * and attaches one pair - the one --mode names, or with --mode auto fentry
 * first, then kprobes - and prints a line per call.
 *
 * The story: open -> choose the pair -> load -> open the perf buffer ->
 * attach (or try the other pair) -> poll and print -> report -> clean up.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "kfunc.h"
#include "kfunc.skel.h"	/* generated: bpfsdk gen skeleton kfunc.bpf.o */

static const char usage[] =
"usage: kfunc [options]\n"
"\n"
"Show each call of the kernel's do_unlinkat() - what unlink(2), unlinkat(2)\n"
"and rm end in - as it returns: the process, the file name and the result,\n"
"traced with a kprobe/kretprobe pair or an fentry/fexit pair.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"output, one line per call:\n"
"  PID      the process that removed the name\n"
"  COMM     its command name\n"
"  RET      0, or the error as -ENAME\n"
"  FILE     the name as given, relative to the caller's directory or dfd\n"
"\n"
"--json prints ts_ns, pid, tid, comm, ret and file per line. The first\n"
"line on stderr says which mode is in use. On a kernel that allows neither\n"
"mode, one line says why and the exit status is 1.\n"
"\n"
"On exit a line 'received N, shown S, lost L' goes to stderr.\n"
"\n"
USAGE_EXIT("tracing", "");

enum mode { MODE_AUTO, MODE_KPROBE, MODE_FENTRY };

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	enum mode mode;
};

struct tracer {
	struct bsdk_tally counts;	/* first: bsdk_tally_lost() is on_lost */
	const struct options *opt;
};

static void print_event(const struct options *o, const struct kfunc_event *e,
			const char *comm, const char *name, size_t name_len)
{
	char ret[32];

	if (o->common.json) {
		json_head(e->ts_ns, e->pid, e->tid, comm);
		printf(",\"ret\":%d,\"file\":", e->ret);
		bsdk_json_string(stdout, name, name_len);
		printf("}\n");
		return;
	}
	if (e->ret < 0 && strerrorname_np(-e->ret))
		snprintf(ret, sizeof(ret), "-%s", strerrorname_np(-e->ret));
	else
		snprintf(ret, sizeof(ret), "%d", e->ret);
	printf("%-7u %-16s %-8s %.*s\n", e->pid, comm, ret, (int)name_len, name);
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tracer *t = ctx;
	struct kfunc_event e;
	char comm[KFUNC_COMM_LEN + 1];
	const char *name = (const char *)data + KFUNC_HEAD_SIZE;

	if (!bsdk_tally_check(&t->counts, cpu, size, KFUNC_HEAD_SIZE))
		return;
	memcpy(&e, data, KFUNC_HEAD_SIZE);
	if (e.name_len > KFUNC_NAME_MAX || e.name_len > size - KFUNC_HEAD_SIZE) {
		bsdk_tally_bad(&t->counts, cpu, "name_len %u does not fit a %u-byte record",
			       e.name_len, size);
		return;
	}
	memcpy(comm, e.comm, KFUNC_COMM_LEN);
	comm[KFUNC_COMM_LEN] = '\0';
	if (t->opt->common.comm && strcmp(comm, t->opt->common.comm) != 0)
		return;
	t->counts.shown++;
	print_event(t->opt, &e, comm, name, strnlen(name, e.name_len));
}

static struct options opt = { .mode = MODE_AUTO };

/* --mode kprobe|fentry|auto */
static int parse_mode(const char *name, const char *value, void *dest)
{
	static const char *const modes[] = { "auto", "kprobe", "fentry" };

	for (int i = 0; i < 3; i++) {
		if (strcmp(value, modes[i]) == 0) {
			*(enum mode *)dest = (enum mode)i;
			return 0;
		}
	}
	fprintf(stderr, "error: %s '%s' is not kprobe, fentry or auto\n", name, value);
	return -EINVAL;
}

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ "mode", 'm', BSDK_OPT_CALL, .dest = &opt.mode, .parse = parse_mode,
	  .arg = "MODE",
	  .help =
	"kprobe, fentry, or auto (default): fentry where the\n"
	"kernel allows it, else kprobe" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "kfunc", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER | BSDK_ARGS_COMM,
};

/* The first error the library reported while a mode was tried. */
struct first_error {
	int verbose;
	char msg[512];
};

static void keep_first_error(enum bsdk_log_level level, const char *msg, void *ctx)
{
	struct first_error *fe = ctx;

	if (level == BSDK_LOG_ERROR && !fe->msg[0])
		snprintf(fe->msg, sizeof(fe->msg), "%s", msg);
	else if (level != BSDK_LOG_ERROR && (int)level <= fe->verbose + 1)
		fprintf(stderr, "%s%s\n", level == BSDK_LOG_WARN ? "warning: " : "", msg);
}

/* Open the object, load the pair of programs of mode, open the perf buffer
 * whose records go to t, and attach the pair. 0, or -1 with the reason in
 * why; -2 when the object itself could not be opened, which no other mode
 * would change. */
static int try_mode(struct tracer *t, enum mode mode, struct kfunc_bpf **skelp,
		    struct bsdk_perfbuf **pbp, struct bsdk_link **links, char *why, size_t size)
{
	const struct options *o = t->opt;
	int use = mode == MODE_FENTRY;
	struct first_error fe = { .verbose = o->common.verbose };
	struct bsdk_prog *progs[2][2];
	struct kfunc_bpf *skel;

	bsdk_set_log(keep_first_error, &fe);
	skel = o->common.object ? kfunc_bpf__open_file(o->common.object) : kfunc_bpf__open();
	if (!skel) {
		bsdk_set_log(NULL, NULL);
		snprintf(why, size, "%s", fe.msg[0] ? fe.msg : "cannot open the object");
		return -2;
	}
	progs[0][0] = skel->progs.kprobe_entry;
	progs[0][1] = skel->progs.kprobe_return;
	progs[1][0] = skel->progs.fentry_entry;
	progs[1][1] = skel->progs.fexit_return;
	if (mode == MODE_KPROBE && !bsdk_prog_attach_supported(progs[0][0])) {
		snprintf(fe.msg, sizeof(fe.msg), "the kernel has no kprobes");
		goto fail;
	}
	/* Only the chosen pair goes to the verifier. */
	for (int j = 0; j < 2; j++)
		bsdk_prog_set_autoload(progs[!use][j], false);
	skel->rodata->target_tgid = o->common.pid;
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || kfunc_bpf__load(skel))
		goto fail;
	/* A perf ring per CPU, merged by the timestamp at each record's head;
	 * open before attach, so that no record finds its ring missing. */
	struct bsdk_perfbuf_opts pb_opts = { .sz = sizeof(pb_opts), .on_sample = on_sample,
		.on_lost = bsdk_tally_lost, .ctx = t, .merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct kfunc_event, ts_ns) };
	*pbp = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	if (!*pbp)
		goto fail;
	/* The return first: no entry is kept for a return nobody sees. */
	if (!(links[0] = bsdk_prog_attach(progs[use][1])) ||
	    !(links[1] = bsdk_prog_attach(progs[use][0])))
		goto fail;
	bsdk_set_log(NULL, NULL);
	*skelp = skel;
	return 0;
fail:
	bsdk_set_log(NULL, NULL);
	snprintf(why, size, "%s", fe.msg[0] ? fe.msg : "failed");
	bsdk_link_destroy(links[1]);
	bsdk_link_destroy(links[0]);
	links[0] = links[1] = NULL;
	bsdk_perfbuf_free(*pbp);
	*pbp = NULL;
	kfunc_bpf__destroy(skel);
	return -1;
}

int main(int argc, char **argv)
{
	struct tracer tracer = { .opt = &opt };
	struct bsdk_link *links[2] = { NULL };
	struct bsdk_perfbuf *pb = NULL;
	struct kfunc_bpf *skel = NULL;
	char why_fentry[600] = "", why_kprobe[600] = "";
	const char *mode_name = NULL;
	int ret = 1, err, tried = 0;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open, load, read, attach: the mode asked for, or fentry then kprobes. */
	if (opt.mode != MODE_KPROBE) {
		tried = try_mode(&tracer, MODE_FENTRY, &skel, &pb, links, why_fentry,
				 sizeof(why_fentry));
		if (!tried)
			mode_name = "fentry/fexit";
	}
	if (!mode_name && tried != -2 && opt.mode != MODE_FENTRY) {
		tried = try_mode(&tracer, MODE_KPROBE, &skel, &pb, links, why_kprobe,
				 sizeof(why_kprobe));
		if (!tried)
			mode_name = "kprobe/kretprobe";
	}
	if (!mode_name && bsdk_signals_caught())	/* Ctrl-C or SIGTERM while it tried */
		return 128 + bsdk_signals_caught();
	if (tried == -2) {
		fprintf(stderr, "error: %s\n", why_fentry[0] ? why_fentry : why_kprobe);
		return 1;
	}
	if (!mode_name) {
		if (opt.mode == MODE_AUTO)
			fprintf(stderr, "error: this kernel allows neither fentry (%s) nor kprobes (%s)\n",
				why_fentry, why_kprobe);
		else
			fprintf(stderr, "error: --mode %s: %s\n",
				opt.mode == MODE_FENTRY ? "fentry" : "kprobe",
				opt.mode == MODE_FENTRY ? why_fentry : why_kprobe);
		return 1;
	}

	if (!opt.common.json)
		printf("%-7s %-16s %-8s %s\n", "PID", "COMM", "RET", "FILE");
	fflush(stdout);
	fprintf(stderr, "kfunc: tracing do_unlinkat with %s, Ctrl-C to stop\n", mode_name);

	/* Poll: print as records come, until Ctrl-C, --duration or a reader
	 * that left (| head); then detach, take what is still in the rings,
	 * and report: every record accounted for. */
	ret = bsdk_perfbuf_run_report(pb, opt.common.duration, links, 2, &tracer.counts);

	/* Clean up: what try_mode() kept; the skeleton's destroy also destroys
	 * the links, the last first. */
	bsdk_perfbuf_free(pb);
	kfunc_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
