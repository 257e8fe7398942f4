// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run.c - `bpfsdk run`: load an object, attach every program and print
 * every record its PERF_EVENT_ARRAY (and RINGBUF) maps receive.
 *
 * The story of a BPF tool, one step per function, told by run_main():
 * open -> configure (--set) -> load -> attach -> poll -> clean up. Ctrl-C and SIGTERM never end the
 * process from the handler: they set a flag that each step of open, load
 * and attach checks (a verifier run stops by itself when one arrives), and
 * that ends the poll loop, so that links and pins are removed and the
 * summary is printed on every way out.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/run/run.h"
#include "http/bpfsdk_http.h"
#include "run_privs.h"

/* ---- iterators: read to the end, once ---- */

/* Copy the output of every attached iterator (iter/task, ...) to stdout;
 * the number of iterators, or -1 after an error line. */
static int print_iterators(struct bsdk_obj *obj)
{
	struct bsdk_prog *prog = NULL;
	char buf[16384];
	int n = 0;

	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		struct bsdk_link *link;
		ssize_t got;
		int fd;

		if (bsdk_prog_expected_attach_type(prog) != BPF_TRACE_ITER ||
		    !(link = bsdk_prog_link(prog)))
			continue;
		fd = bsdk_link_iter_create(link);
		if (fd < 0)
			return -1;
		while ((got = read(fd, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
			if (got > 0 && fwrite(buf, 1, (size_t)got, stdout) != (size_t)got)
				break;
		if (got < 0)
			cli_error("program '%s': reading iterator '%s': %s", bsdk_prog_name(prog),
				  bsdk_prog_attach_target(prog), strerror(errno));
		close(fd);
		if (got < 0 || fflush(stdout) == EOF)
			return -1;
		n++;
	}
	return n;
}

/* ---- the steps ---- */

/* 0 while no signal asked to stop; then the shell's code for it, which a step returns when
 * the signal came before the records flowed. */
static int stopped(void)
{
	return run_stop_signal ? 128 + run_stop_signal : 0;
}

/* open, then configure: --set, --type */
static int run_open(struct run *r)
{
	const struct run_args *a = &r->a;
	int ret;

	r->obj = bsdk_obj_open_opts(a->path, &(struct bsdk_obj_open_opts){
		.sz = sizeof(struct bsdk_obj_open_opts), .btf_path = a->btf_path });
	if (stopped())
		return stopped();
	if (!r->obj) {
		cli_error_unless_logged("cannot open '%s': %s", a->path,
					bsdk_strerror(errno));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < a->nsets; i++) {
		ret = run_apply_set(r->obj, a->sets[i]);
		if (ret)
			return ret;
	}
	if (!a->format_given)	/* options that decode records want text */
		r->a.format = a->ntypes || a->sort_by || a->durations ? RECORD_TEXT :
			      decode_default_format(r->obj);
	r->dcfg = (struct decode_cfg){
		.format = a->format, .types = a->types, .ntypes = a->ntypes,
		.timestamp = a->timestamp, .fields = a->fields, .nfields = a->nfields,
		.btf_flags = (a->durations ? BSDK_BTF_DURATIONS : 0) | (a->raw ? 0 : BSDK_BTF_NET),
	};
	ret = decode_check_types(r->obj, &r->dcfg);
	if (!ret)
		ret = choose_programs(r->obj, a->choices, a->nchoices);
	if (!ret)
		ret = choose_map_sizes(r->obj, a->sizes, a->nsizes);
	if (ret)
		return ret;
	if (bsdk_obj_prog_next(r->obj, NULL) == NULL) {
		cli_error("'%s': no programs to run", a->path);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* leave out, before loading, what cannot be attached here and all but one
 * kind of each group of twins; then load: maps first, then each program
 * through the verifier, one it rejects left out (its twin stands in),
 * unless --require-all */
static int run_load(struct run *r)
{
	int err;

	bsdk_bump_memlock();
	cli_log_demote_errors(true);	/* attach says it if tracefs is missing */
	bsdk_mount_fs();
	cli_log_demote_errors(false);
	r->nsampled = sampling_hold(r->obj);	/* run gives them an event of its own */
	err = bsdk_obj_attach_prepare(r->obj, r->a.attach_flags);
	sampling_release(r->obj);
	if (err >= 0)
		err += r->nsampled;
	if (stopped())
		return stopped();
	if (err <= 0) {
		if (err == 0)
			cli_error("'%s': no program this kernel can attach", r->a.path);
		return EXIT_RUNTIME;
	}

	err = bsdk_obj_attach_load(r->obj, r->a.attach_flags);
	if (stopped())
		return stopped();
	if (err <= 0) {
		if (err == 0)
			cli_error("'%s': the verifier rejected every program (-vv shows the whole log)",
				  r->a.path);
		else
			cli_error_unless_logged("'%s': cannot load: %s", r->a.path,
						bsdk_strerror(err));
		return EXIT_RUNTIME;
	}
	return 0;
}

/* Programs attached on different kinds of hook that send one map's records: maybe modes of a
 * tool that loads one, each event then shown once per mode. One hint per such map. */
static void say_modes(const struct bsdk_obj *obj)
{
	const struct bsdk_map *map = NULL;
	char list[1024];

	while ((map = bsdk_obj_map_next(obj, map)))
		if ((bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
		     bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF) &&
		    record_modes(map, true, list, sizeof(list)) > 1)
			fprintf(stderr, "hint: map '%s': programs in different places send its records, all attached: %s; if they are modes of the tool, which loads one, each event shows once per mode: --program GLOB or --no-program GLOB chooses\n",
				bsdk_map_name(map), list);
}

/* perf_event programs sample the CPU clock; then attach every program
 * that can be; the object owns the links */
static int run_attach(struct run *r)
{
	int nsampled = r->nsampled ? sampling_attach(r->obj, r->a.freq) : 0;

	if (nsampled < 0)
		return EXIT_RUNTIME;
	r->nlinks = bsdk_obj_attach_all(r->obj, r->a.attach_flags);
	if (r->nlinks >= 0)
		r->nlinks += nsampled;
	if (stopped())
		return stopped();
	if (r->nlinks <= 0) {
		if (r->nlinks == 0)
			cli_error("'%s': no program could be attached", r->a.path);
		return EXIT_RUNTIME;
	}
	say_modes(r->obj);
	return 0;
}

/* the maps that hold results, shown at the end and every --interval */
static int run_views_new(struct run *r)
{
	struct run_args *a = &r->a;
	struct run_state *st = &r->st;
	int ret;

	a->views.format = a->format;
	a->views.timestamp = a->timestamp;
	a->views.metrics = a->metrics.addr || a->metrics.file;
	a->views.btf_flags = a->raw ? 0 : BSDK_BTF_NET;
	ret = mapviews_new(r->obj, &a->views, &st->views);
	if (ret)
		return ret;
	if (a->interval && !mapviews_count(st->views)) {
		cli_error("--interval: '%s' has no maps to show (--maps NAME,... names them)", a->path);
		return EXIT_USAGE;
	}
	st->interval_ms = (int64_t)(a->interval * 1000 + 0.5);
	if (a->interval && !st->interval_ms)
		st->interval_ms = 1;
	st->next_view = run_now_ms() + st->interval_ms;
	return 0;
}

/* poll until --count, --duration, a signal or a closed pipe; from here the
 * signals are blocked except inside the wait, so one that arrives between a
 * check and the wait still ends the wait at once */
static int run_poll(struct run *r)
{
	struct run_state *st = &r->st;
	sigset_t stopmask, waitmask;
	int ret;

	if (st->nstreams == 0 && !mapviews_count(st->views) && !st->trace)
		fprintf(stderr, "warning: '%s' has no perf_event_array or ringbuf map: no records to print\n",
			r->a.path);
	if (cli_verbosity)
		fprintf(stderr, "streaming: %d program%s attached, %zu map%s read; Ctrl-C to stop\n",
			r->nlinks, r->nlinks == 1 ? "" : "s", st->nstreams,
			st->nstreams == 1 ? "" : "s");

	sigemptyset(&stopmask);
	sigaddset(&stopmask, SIGINT);
	sigaddset(&stopmask, SIGTERM);
	sigprocmask(SIG_BLOCK, &stopmask, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	ret = run_poll_loop(st, r->a.duration, &waitmask) || st->failed ? EXIT_RUNTIME : EXIT_OK;
	/* the views once more at the end, unless nobody reads stdout */
	if (!st->write_failed && mapviews_count(st->views) && mapviews_print(st->views, stdout))
		ret = EXIT_RUNTIME;
	/* the metrics file once more, with the last records counted */
	if (run_metrics_stop(st->metrics))
		ret = EXIT_RUNTIME;
	st->metrics = NULL;
	if (st->write_failed && st->write_errno != EPIPE) {
		cli_error("cannot write records: %s", strerror(st->write_errno));
		ret = EXIT_RUNTIME;
	}
	return ret;
}

/* What could not be decoded, what was lost, what came: on stderr. */
static void run_summary(const struct run *r)
{
	const struct run_state *st = &r->st;
	uint64_t lost = 0;

	for (size_t i = 0; i < st->nstreams; i++) {
		struct bsdk_perfbuf_stats s;

		decoder_report(r->ctxs[i].dec);
		/* a ringbuf's producer learns of a full ring itself: the
		 * kernel reports no losses to the reader */
		if (!st->streams[i].pb)
			continue;
		bsdk_perfbuf_stats(st->streams[i].pb, &s);
		lost += s.lost;
		if (s.corrupt)
			fprintf(stderr, "warning: map '%s': %llu corrupt record headers, %llu bytes dropped\n",
				st->streams[i].map, (unsigned long long)s.corrupt,
				(unsigned long long)s.corrupt_bytes);
	}
	/* only where records stream: an object of result maps receives none */
	if (st->nstreams)
		fprintf(stderr, "received %llu, lost %llu\n",
			(unsigned long long)st->printed, (unsigned long long)lost);
}

/* clean up: the metrics server, readers, then links, then maps and programs */
static void run_free(struct run *r)
{
	run_metrics_stop(r->st.metrics);
	for (size_t i = 0; r->st.streams && i < r->st.nstreams; i++)
		stream_free(&r->st.streams[i]);
	for (size_t i = 0; r->ctxs && i < r->nctxs; i++) {
		free(r->ctxs[i].map);
		decoder_free(r->ctxs[i].dec);
	}
	mapviews_free(r->st.views);
	trace_relay_free(r->st.trace);
	/* pins are for sharing a map while it runs: the ones it made go */
	bsdk_obj_unpin(r->obj);
	bsdk_obj_close(r->obj);
	free(r->st.streams);
	free(r->ctxs);
	free(r->a.sets);
	free(r->a.types);
	free(r->a.fields);
	free(r->a.choices);
	free(r->a.sizes);
	bsdk_web_config_free(r->a.metrics.web);	/* after the server that used it */
}

/* ---- the command ---- */

static int run_main(int argc, char **argv)
{
	struct run r = { .a.freq = 49 };
	int ret, niters;

	r.a.sets = calloc((size_t)argc, sizeof(*r.a.sets));
	r.a.types = calloc((size_t)argc, sizeof(*r.a.types));
	r.a.fields = calloc((size_t)argc, sizeof(*r.a.fields));
	r.a.choices = calloc((size_t)argc, sizeof(*r.a.choices));
	r.a.sizes = calloc((size_t)argc, sizeof(*r.a.sizes));
	if (!r.a.sets || !r.a.types || !r.a.fields || !r.a.choices || !r.a.sizes) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = run_parse_args(argc, argv, &r.a);
	if (ret) {
		if (ret < 0)
			cli_print_usage(&cmd_run);
		ret = ret < 0 ? EXIT_OK : ret;
		goto out;
	}
	r.st.count = r.a.count;
	cli_log_init(cli_verbosity);
	run_signals_catch();

	/* open and configure; load; attach: each stops at a signal */
	ret = run_open(&r);
	if (!ret)
		ret = run_privs_check_obj(&r.a, r.obj);
	if (!ret)
		ret = run_load(&r);
	if (!ret)
		ret = run_attach(&r);
	if (ret)
		goto out;
	/* an iterator is read, not waited for: with only those, that is all */
	niters = print_iterators(r.obj);
	if (niters < 0 || niters == r.nlinks) {
		ret = niters < 0 ? EXIT_RUNTIME : EXIT_OK;
		goto out;
	}
	/* a reader on every perf_event_array and ringbuf, the result maps' views */
	ret = run_streams_new(&r);
	if (!ret)
		ret = run_views_new(&r);
	/* bpf_printk()'s lines, when a program writes them */
	if (!ret && !r.a.no_trace_pipe)
		ret = trace_relay_new(r.obj, r.a.format, &r.st.trace);
	/* --metrics, --metrics-file: the viewed maps and the records' counts */
	if (!ret)
		ret = run_metrics_start(&r.a.metrics, r.obj, &r.st, r.ctxs, &r.a.views,
					r.st.interval_ms, &r.st.metrics);
	/* what is left reads through the descriptors held: no privilege needed */
	if (!ret)
		ret = run_privs_drop(&r.a);
	if (ret)
		goto out;
	/* poll, then say what came */
	ret = run_poll(&r);
	run_summary(&r);
out:
	run_free(&r);
	return ret;
}

const struct cli_cmd cmd_run = {
	.name = "run",
	.summary = "load an object, attach its programs, print the records they send",
	.usage = run_usage,
	.options = run_options,
	.usage_end = run_usage_end,
	.main = run_main,
};
