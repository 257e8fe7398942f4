// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_set.c - a set of maps exported as metrics (struct bsdk_metrics):
 * each map read whole (bsdk_map_snapshot(), ext/maps/map_snapshot.c) and
 * rendered by its plan (metrics.c), the record channels' counters beside
 * them, and the text written to a FILE * or, atomically, to a file for
 * node_exporter's textfile collector.
 *
 * Renders are serialised by the set's lock; the records' counters have a
 * lock of their own, held only to copy numbers, so that a reader of records
 * updating them never waits for a render that reads a large map.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "readers/metrics/metrics.h"

struct mset_map {
	const struct bsdk_map *map;
	struct mplan *plan;
};

struct mset_records {
	char *object, *map;
	uint64_t received, lost;
};

struct bsdk_metrics {
	struct bsdk_metrics_opts opts;
	char *prefix, *gauges;
	pthread_mutex_t render_lock;
	struct mset_map *maps;
	size_t nmaps;
	pthread_mutex_t records_lock;
	struct mset_records *records;
	size_t nrecords;
};

/* The object label of an object's name or path: "runqlat" for build/bpf/runqlat.bpf.o. */
static char *object_label(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (n > 6 && !strcmp(base + n - 6, ".bpf.o"))
		n -= 6;
	else if (n > 2 && !strcmp(base + n - 2, ".o"))
		n -= 2;
	return strndup(base, n);
}

static bool prefix_valid(const char *s)
{
	if (!*s || !(*s == '_' || *s == ':' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == ':' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

struct bsdk_metrics *bsdk_metrics_new(const struct bsdk_metrics_opts *opts)
{
	struct bsdk_metrics *m;

	if (opts && opts->sz < sizeof(size_t))
		return fail_ptr(EINVAL);
	if (opts && opts->prefix && !prefix_valid(opts->prefix)) {
		log_error("metrics prefix '%s' is not a metric name: letters, digits, '_' and ':', not starting with a digit",
			  opts->prefix);
		return fail_ptr(EINVAL);
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return fail_ptr(ENOMEM);
	if (opts)
		memcpy(&m->opts, opts, opts->sz < sizeof(m->opts) ? opts->sz : sizeof(m->opts));
	m->opts.sz = sizeof(m->opts);
	m->prefix = strdup(m->opts.prefix ? m->opts.prefix : "bpfsdk");
	m->gauges = m->opts.gauges ? strdup(m->opts.gauges) : NULL;
	if (!m->prefix || (m->opts.gauges && !m->gauges)) {
		bsdk_metrics_free(m);
		return fail_ptr(ENOMEM);
	}
	m->opts.prefix = m->prefix;
	m->opts.gauges = m->gauges;
	pthread_mutex_init(&m->render_lock, NULL);
	pthread_mutex_init(&m->records_lock, NULL);
	return m;
}

void bsdk_metrics_free(struct bsdk_metrics *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nmaps; i++)
		mplan_free(m->maps[i].plan);
	for (size_t i = 0; i < m->nrecords; i++) {
		free(m->records[i].object);
		free(m->records[i].map);
	}
	free(m->maps);
	free(m->records);
	free(m->prefix);
	free(m->gauges);
	pthread_mutex_destroy(&m->render_lock);
	pthread_mutex_destroy(&m->records_lock);
	free(m);
}

/* A family another map already writes, or one of the set's own. */
static const char *family_taken(const struct bsdk_metrics *m, const struct mplan *p)
{
	char own[2][300];

	snprintf(own[0], sizeof(own[0]), "%s_records", m->prefix);
	snprintf(own[1], sizeof(own[1]), "%s_records_lost", m->prefix);
	for (size_t f = 0; f < mplan_family_count(p); f++) {
		const char *name = mplan_family(p, f);

		if (!strcmp(name, own[0]) || !strcmp(name, own[1]))
			return "the records' counters";
		for (size_t i = 0; i < m->nmaps; i++)
			for (size_t g = 0; g < mplan_family_count(m->maps[i].plan); g++)
				if (!strcmp(name, mplan_family(m->maps[i].plan, g)))
					return bsdk_map_name(m->maps[i].map);
	}
	return NULL;
}

int bsdk_metrics_add_map(struct bsdk_metrics *m, const struct bsdk_map *map,
			 const struct bsdk_btf *btf, const char *object)
{
	int type = map ? bsdk_map_type(map) : 0;
	bool percpu, array;
	struct mplan_map pm;
	struct mset_map *grown;
	struct mplan *plan;
	const char *taken;
	char *label = NULL;

	if (!m || !map)
		return fail(EINVAL);
	percpu = bsdk_map_is_percpu(map);
	array = type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
	if (type != BPF_MAP_TYPE_HASH && type != BPF_MAP_TYPE_LRU_HASH && !array &&
	    type != BPF_MAP_TYPE_PERCPU_HASH && type != BPF_MAP_TYPE_LRU_PERCPU_HASH)
		return log_fail(EINVAL, "map '%s': only hash and array maps hold values to export",
				bsdk_map_name(map));
	if (object && !(label = object_label(object)))
		return fail(ENOMEM);
	pm = (struct mplan_map){
		.name = bsdk_map_name(map), .object = label, .btf = btf,
		.key_type = btf ? bsdk_map_btf_key_type(map) : 0,
		.value_type = btf ? bsdk_map_btf_value_type(map) : 0,
		.key_size = bsdk_map_key_size(map), .value_size = bsdk_map_value_size(map),
		.keyed = !(array && bsdk_map_max_entries(map) == 1),
		.skip_zero = array && bsdk_map_max_entries(map) > 1,
		.ncpus = percpu ? bsdk_cpu_possible_count() : 0,
	};
	plan = pm.ncpus < 0 ? NULL : mplan_new(&pm, &m->opts);
	free(label);	/* the plan has its copy */
	if (!plan)
		return pm.ncpus < 0 ? pm.ncpus : -errno;
	taken = family_taken(m, plan);
	if (taken) {
		log_warn("map '%s': not exported: its metric names are %s's", pm.name, taken);
		mplan_free(plan);
		return fail(EEXIST);
	}
	grown = realloc(m->maps, (m->nmaps + 1) * sizeof(*grown));
	if (!grown) {
		mplan_free(plan);
		return fail(ENOMEM);
	}
	m->maps = grown;
	m->maps[m->nmaps++] = (struct mset_map){ map, plan };
	return 0;
}

int bsdk_metrics_add_obj(struct bsdk_metrics *m, const struct bsdk_obj *obj)
{
	const struct bsdk_map *map = NULL;
	const struct bsdk_btf *btf;
	int added = 0, err;

	if (!m || !obj)
		return fail(EINVAL);
	btf = bsdk_obj_btf(obj);
	while ((map = bsdk_obj_map_next(obj, map))) {
		const char *origin = bsdk_map_origin(map);
		int type = bsdk_map_type(map);

		if (strcmp(origin, ".maps") && strcmp(origin, "maps"))
			continue;	/* global data and .kconfig: no results */
		if (type != BPF_MAP_TYPE_HASH && type != BPF_MAP_TYPE_ARRAY &&
		    type != BPF_MAP_TYPE_PERCPU_HASH && type != BPF_MAP_TYPE_PERCPU_ARRAY &&
		    type != BPF_MAP_TYPE_LRU_HASH && type != BPF_MAP_TYPE_LRU_PERCPU_HASH)
			continue;
		err = bsdk_metrics_add_map(m, map, btf, bsdk_obj_name(obj));
		if (err == -ENOMEM)
			return err;
		added += !err;
	}
	return added;
}

int bsdk_metrics_set_records(struct bsdk_metrics *m, const char *object, const char *map,
			     uint64_t received, uint64_t lost)
{
	struct mset_records *r = NULL;
	char *label;

	if (!m || !map)
		return fail(EINVAL);
	label = object_label(object ? object : "");
	if (!label)
		return fail(ENOMEM);
	pthread_mutex_lock(&m->records_lock);
	for (size_t i = 0; i < m->nrecords && !r; i++)
		if (!strcmp(m->records[i].map, map) && !strcmp(m->records[i].object, label))
			r = &m->records[i];
	if (!r) {
		struct mset_records *grown = realloc(m->records, (m->nrecords + 1) * sizeof(*grown));

		if (grown) {
			m->records = grown;
			r = &m->records[m->nrecords];
			r->object = strdup(label);
			r->map = strdup(map);
			if (r->object && r->map) {
				m->nrecords++;
			} else {
				free(r->object), free(r->map);
				r = NULL;
			}
		}
	}
	if (r)
		r->received = received, r->lost = lost;
	pthread_mutex_unlock(&m->records_lock);
	free(label);
	return r ? 0 : fail(ENOMEM);
}

/* ---- reading a map whole */

/* Map i read whole (bsdk_map_snapshot(), the map views' reader too) and rendered by its plan,
 * which takes a pointer to each key and value. */
static int render_map(const struct mset_map *mm, unsigned int flags, struct mtext *t)
{
	struct bsdk_map_snapshot s;
	const unsigned char **kp = NULL, **vp = NULL;
	int err = bsdk_map_snapshot(mm->map, &s);

	if (err) {
		log_error("map '%s': cannot read: %s", bsdk_map_name(mm->map), bsdk_strerror(err));
		return err;
	}
	kp = malloc((s.n ? s.n : 1) * sizeof(*kp));
	vp = malloc((s.n ? s.n : 1) * sizeof(*vp));
	if (!kp || !vp) {
		err = -ENOMEM;
	} else {
		for (size_t i = 0; i < s.n; i++) {
			kp[i] = s.keys + i * s.key_size;
			vp[i] = s.values + i * s.value_size;
		}
		err = mplan_render_text(mm->plan, kp, vp, s.n, flags, t);
	}
	free(kp);
	free(vp);
	bsdk_map_snapshot_free(&s);
	return err;
}

static void render_records(struct bsdk_metrics *m, bool om, struct mtext *t)
{
	static const char *const what[2] = { "records received", "records lost" };
	static const char *const name[2] = { "records", "records_lost" };

	pthread_mutex_lock(&m->records_lock);
	for (int w = 0; w < 2 && m->nrecords; w++) {
		size_t known = 0;

		for (size_t i = 0; i < m->nrecords; i++)
			known += !w || m->records[i].lost != UINT64_MAX;
		if (!known)
			continue;
		for (int line = 0; line < 2; line++) {
			mtext_put(t, line ? "# TYPE " : "# HELP ");
			mtext_put(t, m->prefix);
			mtext_put(t, "_");
			mtext_put(t, name[w]);
			mtext_put(t, om ? "" : "_total");
			mtext_put(t, line ? " counter\n" : " ");
			if (!line) {
				mtext_put(t, what[w]);
				mtext_put(t, " from the map's channel\n");
			}
		}
		for (size_t i = 0; i < m->nrecords; i++) {
			const struct mset_records *r = &m->records[i];

			if (w && r->lost == UINT64_MAX)
				continue;	/* a channel that cannot count its losses */
			mtext_put(t, m->prefix);
			mtext_put(t, "_");
			mtext_put(t, name[w]);
			mtext_put(t, "_total{");
			if (r->object[0]) {
				mtext_put(t, "object=\"");
				mtext_escape(t, r->object);
				mtext_put(t, "\",");
			}
			mtext_put(t, "map=\"");
			mtext_escape(t, r->map);
			mtext_put(t, "\"} ");
			mtext_u64(t, w ? r->lost : r->received);
			mtext_put(t, "\n");
		}
	}
	pthread_mutex_unlock(&m->records_lock);
}

int bsdk_metrics_render_text(struct bsdk_metrics *m, unsigned int flags, char **text,
			     size_t *len)
{
	bool om = flags & BSDK_METRICS_OPENMETRICS;
	struct mtext t = { 0 };
	int err = 0;

	if (!m || !text || !len || (flags & ~(unsigned int)BSDK_METRICS_OPENMETRICS))
		return fail(EINVAL);
	pthread_mutex_lock(&m->render_lock);
	for (size_t i = 0; i < m->nmaps && !err; i++)
		err = render_map(&m->maps[i], flags, &t);
	if (!err)
		render_records(m, om, &t);
	if (!err && om)
		mtext_put(&t, "# EOF\n");
	pthread_mutex_unlock(&m->render_lock);
	/* an empty set is an empty text, not NULL */
	if (!err && (t.oom || !mtext_room(&t, 1)))
		err = -ENOMEM;
	if (err) {
		free(t.p);
		return fail(-err);
	}
	t.p[t.len] = '\0';
	*text = t.p;
	*len = t.len;
	return 0;
}

int bsdk_metrics_render(struct bsdk_metrics *m, unsigned int flags, FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	int err;

	if (!m || !f || (flags & ~(unsigned int)BSDK_METRICS_OPENMETRICS))
		return fail(EINVAL);
	err = bsdk_metrics_render_text(m, flags, &text, &len);
	if (err)
		return err;
	if ((len && fwrite(text, 1, len, f) != len) || fflush(f) || ferror(f))
		err = -(errno ? errno : EIO);
	free(text);
	return err ? fail(-err) : 0;
}

int bsdk_metrics_write_file(struct bsdk_metrics *m, const char *path)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1, err;

	if (!m || !path)
		return fail(EINVAL);
	/* the temporary file in the same directory, so that rename() replaces the file in one
	 * step; its name does not end in .prom, which the textfile collector would read */
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return fail(ENOMEM);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		log_error("metrics file '%s': cannot create '%s': %s", path, tmp, strerror(-err));
		free(tmp);
		return fail(-err);
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	err = bsdk_metrics_render(m, 0, f);
	if (err) {
		fclose(f);
		unlink(tmp);
		free(tmp);
		return err;
	}
	if (fsync(fileno(f)) && errno != EINVAL) {
		err = -errno;
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		err = -errno;
		goto fail;
	}
	if (rename(tmp, path)) {
		err = -errno;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	log_error("metrics file '%s': cannot write it: %s", path, strerror(-err));
	unlink(tmp);
	free(tmp);
	return fail(-err);
}

int bsdk_obj_metrics_render(const struct bsdk_obj *obj, const struct bsdk_metrics_opts *opts,
			    unsigned int flags, FILE *f)
{
	struct bsdk_metrics *m = bsdk_metrics_new(opts);
	int err;

	if (!m)
		return -errno;
	err = bsdk_metrics_add_obj(m, obj);
	if (err >= 0)
		err = bsdk_metrics_render(m, flags, f);
	bsdk_metrics_free(m);
	return err < 0 ? fail(-err) : 0;
}

int bsdk_map_metrics_render(const struct bsdk_map *map, const struct bsdk_btf *btf,
			    const struct bsdk_metrics_opts *opts, unsigned int flags, FILE *f)
{
	struct bsdk_metrics *m = bsdk_metrics_new(opts);
	int err;

	if (!m)
		return -errno;
	err = bsdk_metrics_add_map(m, map, btf, NULL);
	if (!err)
		err = bsdk_metrics_render(m, flags, f);
	bsdk_metrics_free(m);
	return err < 0 ? fail(-err) : 0;
}
