// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * map_snapshot.c - a map read whole: the one reader behind `bpfsdk run`'s
 * map views and the metrics. bsdk_map_lookup_batch() does the reading,
 * many elements a call where the kernel has BPF_MAP_LOOKUP_BATCH, key by
 * key otherwise (an element deleted between get_next_key and lookup
 * skipped); this file sizes the buffers, grows a chunk that one hash bucket
 * overflows, and bounds the walk for a map that keeps changing under it.
 */
#include "object/object.h"

#define SNAPSHOT_CHUNK 4096		/* elements asked for per call */
#define SNAPSHOT_CHUNK_MAX (1u << 20)	/* a hash bucket larger than this: an error */
#define SNAPSHOT_ROOM_MAX 65536		/* elements room is made for at first */

void bsdk_map_snapshot_free(struct bsdk_map_snapshot *s)
{
	if (!s)
		return;
	free(s->keys);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

/* Room for want elements (doubling), in both buffers. 0 or -ENOMEM. */
static int snapshot_grow(struct bsdk_map_snapshot *s, size_t *cap, size_t want)
{
	size_t n = *cap ? *cap : want;
	unsigned char *k, *v;

	while (n < want)
		n *= 2;
	if (n == *cap)
		return 0;
	if (n > SIZE_MAX / (s->key_size > s->value_size ? s->key_size : s->value_size))
		return -ENOMEM;
	k = realloc(s->keys, n * s->key_size);
	if (!k)
		return -ENOMEM;
	s->keys = k;
	v = realloc(s->values, n * s->value_size);
	if (!v)
		return -ENOMEM;
	s->values = v;
	*cap = n;
	return 0;
}

/* Batch after batch until the end, or until the walk has seen limit elements. */
static int snapshot_walk(const struct bsdk_map *map, struct bsdk_map_snapshot *s, size_t cap,
			 unsigned char *batch, size_t batch_size)
{
	size_t max = bsdk_map_max_entries(map), limit = 2 * max + 16;
	uint32_t chunk = SNAPSHOT_CHUNK;
	bool first = true;
	int err;

	/* room for the map's size at once (its keys are usually there), up to 64 Ki elements */
	err = snapshot_grow(s, &cap, max < SNAPSHOT_ROOM_MAX ? max + chunk : SNAPSHOT_ROOM_MAX);
	while (!err && s->n < limit) {
		uint32_t got = chunk;

		err = snapshot_grow(s, &cap, s->n + chunk);
		if (err)
			break;
		err = bsdk_map_lookup_batch(map, first ? NULL : batch, batch, batch_size,
					    s->keys + s->n * s->key_size, s->key_size,
					    s->values + s->n * s->value_size, s->value_size, &got, 0);
		if (err == -ENOSPC && chunk < SNAPSHOT_CHUNK_MAX) {
			chunk *= 2;	/* a hash bucket larger than the chunk */
			err = 0;
			continue;
		}
		if (err && err != -ENOENT)
			break;
		first = false;
		s->n += got;
	}
	return err == -ENOENT ? 0 : err;
}

int bsdk_map_snapshot(const struct bsdk_map *map, struct bsdk_map_snapshot *s)
{
	size_t batch_size;
	unsigned char *batch;
	int err;

	if (s)
		memset(s, 0, sizeof(*s));
	if (!map || !s)
		return fail(EINVAL);
	s->key_size = bsdk_map_key_size(map);
	s->value_size = bsdk_map_value_buf_size(map);
	if (!s->value_size)
		return fail(map->value_size ? errno : EINVAL);	/* the CPU count: logged */
	if (!s->key_size)
		return log_fail(EINVAL, "map '%s': has no keys to read", map->name);
	batch_size = bsdk_map_batch_size(map);
	batch = malloc(batch_size);
	if (!batch)
		return fail(ENOMEM);
	err = snapshot_walk(map, s, 0, batch, batch_size);
	free(batch);
	if (err) {
		bsdk_map_snapshot_free(s);
		return fail(-err);
	}
	return 0;
}
