/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * run_state.h - what the files of `bpfsdk run` share: the parsed command line
 * (run_args.c), the readers and the poll loop (run_poll.c), the command
 * (run.c).
 */
#ifndef BPFSDK_CLI_RUN_STATE_H
#define BPFSDK_CLI_RUN_STATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/types.h>

#include "bpfsdk.h"
#include "cli/run/run.h"

struct run_args {
	const char *path;
	const char *btf_path;	/* --btf */
	const char **sets;	/* "NAME=VALUE", checked for syntax */
	size_t nsets;
	const char **types;	/* --type NAME or MAP=NAME */
	size_t ntypes;
	const char **fields;	/* --field NAME=raw|addr|host, checked for syntax */
	size_t nfields;
	bool raw;		/* --raw */
	enum record_format format;
	bool format_given;	/* --format; else chosen at open (decode_default_format()) */
	bool timestamp;		/* --timestamp */
	bool durations;		/* --durations */
	const char *sort_by;	/* --sort-by FIELD */
	double interval;	/* --interval SEC; 0: views at the end only */
	struct mapview_cfg views;	/* --clear, --top, --maps, --unit, --per-cpu */
	uint64_t count;		/* 0: no limit */
	double duration;	/* seconds; 0: no limit */
	unsigned int pages;	/* 0: the library's default */
	unsigned int attach_flags;	/* --require-all, --all-twins: BSDK_ATTACH_* */
	struct choice *choices;	/* --program, --no-program, in order */
	size_t nchoices;
	const char **sizes;	/* --max-entries MAP=N, checked for syntax */
	size_t nsizes;
	unsigned int freq;	/* --freq: perf_event programs' sampling rate */
	bool no_trace_pipe;	/* --no-trace-pipe: bpf_printk() lines not relayed */
	struct run_metrics_cfg {
		const char *addr;	/* --metrics ADDR:PORT */
		const char *file;	/* --metrics-file PATH */
		const char *prefix;	/* --metrics-prefix */
		const char *gauges;	/* --metrics-gauges */
		size_t max_series;	/* --metrics-max-series; 0: the library's */
		const char *web_config;	/* --web-config FILE */
		struct bsdk_web_config *web;	/* read from it before anything is loaded */
		int systemd_fd;		/* --metrics systemd: the socket passed; 0 without */
	} metrics;
	struct run_privs_cfg {
		const char *user;	/* --user NAME, looked up into: */
		uid_t uid;
		gid_t gid;
	} privs;
};

/* A map being read: a perf_event_array (one ring per CPU) or a ringbuf
 * (one ring for all); the two readers have the same shape. */
struct stream {
	struct bsdk_perfbuf *pb;
	struct bsdk_ringbuf *rb;
	const char *map;
};

struct run_state {
	struct stream *streams;
	size_t nstreams;
	uint64_t printed;
	uint64_t count;		/* 0: no limit */
	bool done;		/* --count reached */
	bool write_failed;
	int write_errno;	/* why, for the message */
	bool failed;		/* a record could not be decoded: said, stop */
	struct mapviews *views;	/* the result maps, printed at the end */
	struct run_metrics *metrics;	/* --metrics, --metrics-file: NULL without */
	struct trace_relay *trace;	/* the trace pipe's lines: NULL when not relayed */
	int64_t interval_ms;	/* --interval: also every interval_ms */
	int64_t next_view;	/* when, on the run_now_ms() clock */
};

/* Each perfbuf gets its own ctx so that a record knows its map. */
struct sample_ctx {
	struct run_state *st;
	uint64_t received;	/* records of this map, printed or not */
	char *map;		/* record_map_label() of the map's name */
	struct decoder *dec;	/* prints its records */
};

/* Everything the command holds, released in one place at its end. */
struct run {
	struct run_args a;
	struct run_state st;
	struct sample_ctx *ctxs;	/* one per stream, nctxs of them */
	size_t nctxs;
	struct bsdk_obj *obj;
	struct decode_cfg dcfg;
	int nsampled;		/* perf_event programs, given a CPU-clock event */
	int nlinks;		/* programs attached */
};

/* ---- run_usage.c, run_options.c: the --help text and the options */

/* The manual before OPTIONS, and after. */
extern const char run_usage[];
extern const char run_usage_end[];

/* What cli_opt_next() returns for each of run_options[]'s rows. */
enum {
	OPT_SET = 1, OPT_COUNT, OPT_DURATION, OPT_PAGES, OPT_FORMAT,
	OPT_VERBOSE, OPT_HELP, OPT_BTF, OPT_REQUIRE_ALL,
	OPT_TYPE, OPT_TIMESTAMP, OPT_SORT_BY, OPT_DURATIONS,
	OPT_INTERVAL, OPT_CLEAR, OPT_TOP, OPT_MAPS, OPT_UNIT, OPT_PER_CPU, OPT_FREQ,
	OPT_METRICS, OPT_METRICS_FILE, OPT_METRICS_PREFIX, OPT_METRICS_MAX, OPT_METRICS_GAUGES,
	OPT_ALL_TWINS, OPT_PROGRAM, OPT_NO_PROGRAM, OPT_MAX_ENTRIES, OPT_WEB_CONFIG, OPT_USER,
	OPT_NO_TRACE_PIPE, OPT_RAW, OPT_FIELD,
};

/* Ends with a row whose name is NULL. */
extern const struct bsdk_opt run_options[];

/* ---- run_args.c: the command line and --set */

/* 0, or a usage error already printed (EXIT_USAGE), or -1 for --help. */
int run_parse_args(int argc, char **argv, struct run_args *a);
/* Store one checked "NAME=VALUE" of --set in obj's global variable: 0, or
 * EXIT_USAGE / EXIT_RUNTIME after one error line. */
int run_apply_set(struct bsdk_obj *obj, const char *arg);

/* ---- run_poll.c: the readers and the poll loop */

/* The signal that asked to stop (SIGINT, SIGTERM), 0 until one came. */
extern volatile sig_atomic_t run_stop_signal;
/* Ctrl-C and SIGTERM only set run_stop_signal; SIGPIPE is ignored. */
void run_signals_catch(void);

/* The clock of intervals and deadlines, in milliseconds (CLOCK_MONOTONIC). */
static inline int64_t run_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
/* A reader on every perf_event_array and ringbuf map of r->obj, in r->st.streams, each with
 * its r->ctxs entry and decoder. 0, or EXIT_USAGE / EXIT_RUNTIME after one error line. */
int run_streams_new(struct run *r);
void stream_free(struct stream *s);
/* Poll every stream until --count, the duration, a signal, a failed write
 * or a record that cannot be decoded; 0, or -1 after an error line. */
int run_poll_loop(struct run_state *st, double duration, const sigset_t *waitmask);

/* ---- run_trace.c: bpf_printk()'s lines, relayed from the trace pipe */

struct trace_relay;

/* When a loaded program of obj calls bpf_trace_printk() or bpf_trace_vprintk(): open the trace
 * pipe and say once that the system shares it. 0 with *out set (NULL when nothing prints, or the
 * pipe cannot be opened: a warning), or EXIT_RUNTIME after one error line. */
int trace_relay_new(const struct bsdk_obj *obj, enum record_format format,
		    struct trace_relay **out);
int trace_relay_fd(const struct trace_relay *t);
/* Print every whole line waiting in the pipe to f: 0, or -1 after an error line. */
int trace_relay_read(struct trace_relay *t, FILE *f);
/* Say how many lines were relayed (when any), close, free; NULL is ignored. */
void trace_relay_free(struct trace_relay *t);

/* ---- run_metrics.c: --metrics, --metrics-file */

struct run_metrics;

/* Export the viewed maps of obj (st->views; --per-cpu and --unit as they say) and the streams'
 * record counts: listen on
 * cfg->addr, serve from a thread of its own; write cfg->file every interval_ms (0: 15 s).
 * 0 with *out set (NULL when neither is asked for), or EXIT_USAGE / EXIT_RUNTIME after one
 * error line. */
int run_metrics_start(const struct run_metrics_cfg *cfg, const struct bsdk_obj *obj,
		      const struct run_state *st, const struct sample_ctx *ctxs,
		      const struct mapview_cfg *views, int64_t interval_ms, struct run_metrics **out);
/* In the poll loop: the record counts brought up to date, the file written when it is due.
 * The milliseconds until the next write (-1: none to come), or -2 after an error line. */
int run_metrics_tick(struct run_metrics *rm);
/* Write the file a last time, stop the server, free; NULL is ignored. 0, or -1 after an error
 * line (the last write failed). */
int run_metrics_stop(struct run_metrics *rm);

#endif /* BPFSDK_CLI_RUN_STATE_H */
