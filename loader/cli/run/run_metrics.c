// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_metrics.c - `bpfsdk run --metrics ADDR:PORT` and `--metrics-file
 * PATH`: the maps the views show, and each stream's record counts, as
 * Prometheus metrics (the library's bsdk_metrics_*, served by
 * libbpfsdk-http from a thread of its own, so that a scrape never holds up
 * the records).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "http/bpfsdk_http.h"
#include "cli/run/run.h"
#include "run_privs.h"

#define METRICS_FILE_INTERVAL_MS 15000	/* node_exporter's textfile: every 15 s */

struct run_metrics {
	struct bsdk_metrics *set;
	struct bsdk_metrics_server *server;
	const char *file;
	int64_t interval_ms, next_write;
	const struct run_state *st;
	const struct sample_ctx *ctxs;
	const char *object;	/* the object's path: the library labels it */
	bool started;		/* the final write is due */
};

static void update_records(struct run_metrics *rm)
{
	for (size_t i = 0; i < rm->st->nstreams; i++) {
		const struct stream *s = &rm->st->streams[i];
		uint64_t lost = UINT64_MAX;	/* a ring buffer's reader is told of none */

		if (s->pb) {
			struct bsdk_perfbuf_stats stats;

			bsdk_perfbuf_stats(s->pb, &stats);
			lost = stats.lost;
		}
		bsdk_metrics_set_records(rm->set, rm->object, s->map, rm->ctxs[i].received, lost);
	}
}

/* Listen on cfg->addr (or take the socket systemd passed) and serve there under cfg->web; say
 * where. 0, or EXIT_USAGE / EXIT_RUNTIME after one error line. */
static int start_server(struct run_metrics *rm, const struct run_metrics_cfg *cfg)
{
	const char *colon, *scheme = bsdk_web_config_tls(cfg->web) ? "https" : "http";
	int fd = cfg->systemd_fd ? cfg->systemd_fd : bsdk_metrics_listen(cfg->addr);
	int hostlen;

	if (fd < 0)
		return fd == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	rm->server = bsdk_metrics_serve_web(rm->set, fd, cfg->web);
	if (!rm->server) {
		cli_error("--metrics %s: cannot start the HTTP server: %s", cfg->addr, strerror(errno));
		return EXIT_RUNTIME;
	}
	if (cfg->systemd_fd) {
		fprintf(stderr, "metrics: serving %s on port %d, the socket systemd passed\n", scheme,
			bsdk_metrics_server_port(rm->server));
		return 0;
	}
	/* the address as given, the port as bound: port 0 takes a free one */
	colon = strrchr(cfg->addr, ':');
	hostlen = colon && colon != cfg->addr ? (int)(colon - cfg->addr) : 0;
	fprintf(stderr, "metrics: serving %s://%.*s:%d/metrics\n", scheme,
		hostlen ? hostlen : 9, hostlen ? cfg->addr : "127.0.0.1",
		bsdk_metrics_server_port(rm->server));
	return 0;
}

int run_metrics_start(const struct run_metrics_cfg *cfg, const struct bsdk_obj *obj,
		      const struct run_state *st, const struct sample_ctx *ctxs,
		      const struct mapview_cfg *views, int64_t interval_ms, struct run_metrics **out)
{
	struct bsdk_metrics_opts opts = {
		.sz = sizeof(opts), .prefix = cfg->prefix, .gauges = cfg->gauges,
		.max_series = cfg->max_series, .flags = views->per_cpu ? BSDK_METRICS_PER_CPU : 0,
		.unit = views->unit,
	};
	struct run_metrics *rm;
	int ret;

	*out = NULL;
	if (!cfg->addr && !cfg->file)
		return 0;
	rm = calloc(1, sizeof(*rm));
	if (!rm) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	rm->object = bsdk_obj_name(obj);
	rm->st = st;
	rm->ctxs = ctxs;
	rm->file = cfg->file;
	rm->interval_ms = interval_ms ? interval_ms : METRICS_FILE_INTERVAL_MS;
	rm->next_write = run_now_ms() + rm->interval_ms;
	cli_lib_errors_reset();
	rm->set = bsdk_metrics_new(&opts);
	if (!rm->set) {
		int err = errno;

		cli_error_unless_logged("--metrics: %s", bsdk_strerror(-err));
		run_metrics_stop(rm);
		return err == EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	/* every map the views show; one that has nothing to export is a warning */
	cli_log_demote_errors(true);
	for (size_t i = 0; i < mapviews_count(st->views); i++) {
		int err = bsdk_metrics_add_map(rm->set, mapviews_map(st->views, i),
					       bsdk_obj_btf(obj), rm->object);

		if (err == -ENOMEM) {
			cli_log_demote_errors(false);
			cli_error("out of memory");
			run_metrics_stop(rm);
			return EXIT_RUNTIME;
		}
	}
	cli_log_demote_errors(false);
	update_records(rm);
	if (cfg->addr && (ret = start_server(rm, cfg))) {
		run_metrics_stop(rm);
		return ret;
	}
	if (rm->file && bsdk_metrics_write_file(rm->set, rm->file)) {
		run_metrics_stop(rm);
		return EXIT_RUNTIME;
	}
	rm->started = true;
	*out = rm;
	return 0;
}

int run_metrics_tick(struct run_metrics *rm)
{
	int64_t now;

	update_records(rm);
	if (!rm->file)
		return -1;
	now = run_now_ms();
	if (now >= rm->next_write) {
		if (bsdk_metrics_write_file(rm->set, rm->file))
			return -2;
		rm->next_write += rm->interval_ms;
		if (rm->next_write <= now)	/* a write that took longer than the interval */
			rm->next_write = now + rm->interval_ms;
	}
	return (int)(rm->next_write - now);
}

int run_metrics_stop(struct run_metrics *rm)
{
	int ret = 0;

	if (!rm)
		return 0;
	/* the server first: no scrape reads the maps once they close */
	bsdk_metrics_server_stop(rm->server);
	if (rm->started && rm->file) {
		update_records(rm);
		ret = bsdk_metrics_write_file(rm->set, rm->file) ? -1 : 0;
	}
	bsdk_metrics_free(rm->set);
	free(rm);
	return ret;
}
