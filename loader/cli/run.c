// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run.c - `bpfsdk run`: load an object, attach every program and print
 * every record its PERF_EVENT_ARRAY (and RINGBUF) maps receive.
 *
 * The story of a BPF tool in one function: open -> configure (--set) ->
 * load -> attach -> poll -> clean up. Ctrl-C and SIGTERM never end the
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
#include "cli.h"
#include "run.h"

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

/* ---- the command ---- */

static int run_main(int argc, char **argv)
{
	struct run_args a = { .freq = 49 };
	struct run_state st = { 0 };
	struct sample_ctx *ctxs = NULL;
	size_t nmaps = 0;
	int nlinks, niters;
	struct bsdk_map *map = NULL;
	struct bsdk_obj *obj = NULL;
	sigset_t stopmask, waitmask;
	struct decode_cfg dcfg;
	int nsampled;
	struct sigaction sa;
	uint64_t lost = 0;
	int ret, err;

	a.sets = calloc((size_t)argc, sizeof(*a.sets));
	a.types = calloc((size_t)argc, sizeof(*a.types));
	if (!a.sets || !a.types) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	ret = run_parse_args(argc, argv, &a);
	if (ret) {
		if (ret < 0)
			cli_print_usage(&cmd_run);
		free(a.sets);
		free(a.types);
		return ret < 0 ? EXIT_OK : ret;
	}
	st.count = a.count;
	cli_log_init(cli_verbosity);

	/* Ctrl-C and SIGTERM only set a flag, checked after each step below
	 * (no SA_RESTART: a wait they interrupt returns); a closed stdout
	 * shows up as EPIPE from fflush, not as a signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* open */
	obj = bsdk_obj_open_opts(a.path, &(struct bsdk_obj_open_opts){
		.sz = sizeof(struct bsdk_obj_open_opts), .btf_path = a.btf_path });
	if (run_stop_signal)
		goto stopped;
	if (!obj) {
		cli_error_unless_logged("cannot open '%s': %s", a.path,
					bsdk_strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* configure */
	for (size_t i = 0; i < a.nsets; i++) {
		ret = run_apply_set(obj, a.sets[i]);
		if (ret)
			goto out;
	}
	dcfg = (struct decode_cfg){
		.format = a.format, .types = a.types, .ntypes = a.ntypes,
		.timestamp = a.timestamp, .btf_flags = a.durations ? BSDK_BTF_DURATIONS : 0,
	};
	ret = decode_check_types(obj, &dcfg);
	if (ret)
		goto out;
	if (bsdk_obj_prog_next(obj, NULL) == NULL) {
		cli_error("'%s': no programs to run", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* leave out, before loading, what cannot be attached here */
	bsdk_bump_memlock();
	cli_log_demote_errors(true);	/* attach says it if tracefs is missing */
	bsdk_mount_fs();
	cli_log_demote_errors(false);
	nsampled = sampling_hold(obj);	/* run gives them an event of its own */
	err = bsdk_obj_attach_prepare(obj, a.attach_flags);
	sampling_release(obj);
	if (err >= 0)
		err += nsampled;
	if (run_stop_signal)
		goto stopped;
	if (err <= 0) {
		if (err == 0)
			cli_error("'%s': no program this kernel can attach", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* load: maps first, then each program through the verifier */
	err = bsdk_obj_load(obj);
	if (run_stop_signal)
		goto stopped;
	if (err) {
		cli_error_unless_logged("'%s': cannot load: %s", a.path,
					bsdk_strerror(err));
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* perf_event programs sample the CPU clock; then attach every
	 * program that can be; the object owns the links */
	nsampled = nsampled ? sampling_attach(obj, a.freq) : 0;
	if (nsampled < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	nlinks = bsdk_obj_attach_all(obj, a.attach_flags);
	if (nlinks >= 0)
		nlinks += nsampled;
	if (run_stop_signal)
		goto stopped;
	if (nlinks <= 0) {
		if (nlinks == 0)
			cli_error("'%s': no program could be attached", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* an iterator is read, not waited for: with only those, that is all */
	niters = print_iterators(obj);
	if (niters < 0 || niters == nlinks) {
		ret = niters < 0 ? EXIT_RUNTIME : EXIT_OK;
		goto out;
	}

	/* a reader on every perf_event_array and ringbuf */
	while ((map = bsdk_obj_map_next(obj, map)))
		nmaps += bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
			 bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF;
	st.streams = calloc(nmaps ? nmaps : 1, sizeof(*st.streams));
	ctxs = calloc(nmaps ? nmaps : 1, sizeof(*ctxs));
	if (!st.streams || !ctxs) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	dcfg.columns = nmaps == 1;	/* columns when one stream has them alone */
	while ((map = bsdk_obj_map_next(obj, map))) {
		struct sample_ctx *c;
		struct stream *s;

		if (bsdk_map_type(map) != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		    bsdk_map_type(map) != BPF_MAP_TYPE_RINGBUF)
			continue;
		c = &ctxs[st.nstreams];
		s = &st.streams[st.nstreams];
		c->st = &st;
		c->map = record_map_label(bsdk_map_name(map));
		if (!c->map) {
			cli_error("out of memory");
			ret = EXIT_RUNTIME;
			goto out;
		}
		s->map = c->map;
		c->dec = decoder_new(obj, map, c->map, &dcfg);
		if (!c->dec) {
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			struct bsdk_perfbuf_opts opts = {
				.sz = sizeof(opts), .pages = a.pages,
				.on_sample = run_on_sample, .ctx = c,
			};
			int ts_offset = 0;

			/* the rings' k-way merge orders each drain by the field */
			if (a.sort_by) {
				ts_offset = decoder_field_offset(c->dec, a.sort_by);
				if (ts_offset < 0) {
					ret = EXIT_USAGE;
					goto out;
				}
				opts.merge_by_ts = true;
				opts.ts_offset = (unsigned int)ts_offset;
			}

			s->pb = bsdk_perfbuf_new(bsdk_map_fd(map), &opts);
			if (!s->pb) {
				cli_error_unless_logged("map '%s': cannot open its perf rings: %s",
							c->map, bsdk_strerror(errno));
				ret = EXIT_RUNTIME;
				goto out;
			}
		} else {
			/* run cannot know whether the program passes BPF_RB_NO_WAKEUP, for
			 * which the kernel never wakes the reader: drain an idle ring
			 * every RUN_RINGBUF_IDLE_MS too, ten cheap checks a second */
			struct bsdk_ringbuf_opts opts = {
				.sz = sizeof(opts), .on_sample = run_on_sample, .ctx = c,
				.idle_drain_ms = RUN_RINGBUF_IDLE_MS,
			};

			s->rb = bsdk_ringbuf_new(bsdk_map_fd(map), &opts);
			if (!s->rb) {
				cli_error_unless_logged("map '%s': cannot map its ring buffer: %s",
							c->map, bsdk_strerror(errno));
				ret = EXIT_RUNTIME;
				goto out;
			}
		}
		st.nstreams++;
	}
	/* the maps that hold results, shown at the end and every --interval */
	a.views.format = a.format;
	a.views.timestamp = a.timestamp;
	ret = mapviews_new(obj, &a.views, &st.views);
	if (ret)
		goto out;
	if (a.interval && !mapviews_count(st.views)) {
		cli_error("--interval: '%s' has no maps to show (--maps NAME,... names them)", a.path);
		ret = EXIT_USAGE;
		goto out;
	}
	st.interval_ms = (int64_t)(a.interval * 1000 + 0.5);
	if (a.interval && !st.interval_ms)
		st.interval_ms = 1;
	st.next_view = run_now_ms() + st.interval_ms;
	if (st.nstreams == 0 && !mapviews_count(st.views))
		fprintf(stderr, "warning: '%s' has no perf_event_array or ringbuf map: no records to print\n",
			a.path);
	if (cli_verbosity)
		fprintf(stderr, "streaming: %d program%s attached, %zu map%s read; Ctrl-C to stop\n",
			nlinks, nlinks == 1 ? "" : "s", st.nstreams,
			st.nstreams == 1 ? "" : "s");

	/* poll until --count, --duration, a signal or a closed pipe; from
	 * here the signals are blocked except inside the wait, so one that
	 * arrives between a check and the wait still ends the wait at once */
	sigemptyset(&stopmask);
	sigaddset(&stopmask, SIGINT);
	sigaddset(&stopmask, SIGTERM);
	sigprocmask(SIG_BLOCK, &stopmask, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	ret = run_poll_loop(&st, a.duration, &waitmask) || st.failed ? EXIT_RUNTIME : EXIT_OK;
	/* the views once more at the end, unless nobody reads stdout */
	if (!st.write_failed && mapviews_count(st.views) && mapviews_print(st.views, stdout))
		ret = EXIT_RUNTIME;
	if (st.write_failed && st.write_errno != EPIPE) {
		cli_error("cannot write records: %s", strerror(st.write_errno));
		ret = EXIT_RUNTIME;
	}
	for (size_t i = 0; i < st.nstreams; i++) {
		struct bsdk_perfbuf_stats s;

		decoder_report(ctxs[i].dec);
		/* a ringbuf's producer learns of a full ring itself: the
		 * kernel reports no losses to the reader */
		if (!st.streams[i].pb)
			continue;
		bsdk_perfbuf_stats(st.streams[i].pb, &s);
		lost += s.lost;
		if (s.corrupt)
			fprintf(stderr, "warning: map '%s': %llu corrupt record headers, %llu bytes dropped\n",
				st.streams[i].map, (unsigned long long)s.corrupt,
				(unsigned long long)s.corrupt_bytes);
	}
	fprintf(stderr, "received %llu, lost %llu\n",
		(unsigned long long)st.printed, (unsigned long long)lost);
	goto out;
stopped:
	/* stopped before the records flowed: the shell's code for the signal */
	ret = 128 + run_stop_signal;
out:
	/* clean up: readers, then links, then maps and programs */
	for (size_t i = 0; st.streams && i < st.nstreams; i++)
		stream_free(&st.streams[i]);
	for (size_t i = 0; ctxs && i < nmaps; i++) {
		free(ctxs[i].map);
		decoder_free(ctxs[i].dec);
	}
	mapviews_free(st.views);
	/* pins are for sharing a map while it runs: the ones it made go */
	bsdk_obj_unpin(obj);
	bsdk_obj_close(obj);
	free(st.streams);
	free(ctxs);
	free(a.sets);
	free(a.types);
	return ret;
}

const struct cli_cmd cmd_run = {
	.name = "run",
	.summary = "load an object, attach its programs, print the records they send",
	.usage = run_usage,
	.main = run_main,
};
