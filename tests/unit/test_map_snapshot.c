// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_map_snapshot.c - a map read whole (bsdk_map_snapshot(), the reader of `bpfsdk run`'s
 * map views and of the metrics) on real maps (tests/bpf/map_ops.bpf.c): a hash map through
 * the kernel's batches, every key once with its value; per-CPU values laid out as lookups give
 * them; a hash map read while another thread deletes and adds its keys again: each read ends,
 * within its bound, and every key it lists has its own value; an LPM trie through the
 * key-by-key walk (the kernel has no batches for it).
 *
 * Skipped where bpf() is not permitted.
 */
#include <linux/bpf.h>
#include <pthread.h>
#include <time.h>

#include "test_obj_craft.h"

#define NHASH 100

struct lpm_key {
	uint32_t prefixlen;
	uint32_t addr;
};

static struct bsdk_map *map(struct bsdk_obj *obj, const char *name)
{
	struct bsdk_map *m = bsdk_obj_map_find(obj, name);

	if (!m) {
		printf("not ok - the test object has no map '%s'\n", name);
		exit(1);
	}
	return m;
}

static void test_hash(struct bsdk_obj *obj)
{
	struct bsdk_map *m = map(obj, "hash");
	struct bsdk_map_snapshot s;
	uint32_t seen[NHASH + 1] = { 0 }, bad = 0;

	for (uint32_t k = 1; k <= NHASH; k++)
		bad += bsdk_map_update_elem(m, &k, 4, &(uint64_t){ (uint64_t)k * k + 7 }, 8, 0) != 0;
	check_u64(bad, 0, "hash: %d keys written", NHASH);
	check_i64(bsdk_map_snapshot(m, &s), 0, "hash: read whole");
	check_u64(s.n, NHASH, "hash: %d elements", NHASH);
	check(s.key_size == 4 && s.value_size == 8, "hash: 4-byte keys, 8-byte values");
	for (size_t i = 0; i < s.n; i++) {
		uint32_t k;
		uint64_t v;

		memcpy(&k, s.keys + i * 4, 4);
		memcpy(&v, s.values + i * 8, 8);
		if (k == 0 || k > NHASH || seen[k]++ || v != (uint64_t)k * k + 7)
			bad++;
	}
	check_u64(bad, 0, "hash: each key once, with its value");
	bsdk_map_snapshot_free(&s);
	check(s.n == 0 && !s.keys && !s.values, "freed: left empty");
}

static void test_percpu(struct bsdk_obj *obj)
{
	struct bsdk_map *m = map(obj, "pcpu_array");
	int ncpus = bsdk_cpu_possible_count();
	size_t size = (size_t)(ncpus > 0 ? ncpus : 1) * 8;
	uint64_t *v = calloc(1, size);
	struct bsdk_map_snapshot s;
	uint32_t key = 2, bad = 0;

	for (int i = 0; v && i < ncpus; i++)
		v[i] = (uint64_t)i * 1000 + 5;
	check(v && bsdk_map_update_elem(m, &key, 4, v, size, 0) == 0, "pcpu_array: slot 2 written");
	check_i64(bsdk_map_snapshot(m, &s), 0, "pcpu_array: read whole");
	check(s.n == 4 && s.value_size == size, "pcpu_array: 4 slots of %zu bytes", size);
	for (size_t k = 0; k < s.n; k++)
		for (int i = 0; i < ncpus; i++) {
			uint32_t slot;
			uint64_t got;

			memcpy(&slot, s.keys + k * 4, 4);
			memcpy(&got, BSDK_PERCPU_VALUE(s.values + k * s.value_size, 8, i), 8);
			bad += got != (slot == 2 ? (uint64_t)i * 1000 + 5 : 0);
		}
	check_u64(bad, 0, "pcpu_array: slot 2 holds i*1000+5 on CPU i, the others 0");
	bsdk_map_snapshot_free(&s);
	free(v);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct churn {
	struct bsdk_map *hash;
	volatile bool stop;
	volatile unsigned long rounds;
};

/* Delete each key and add it again, with its own value, until told to stop (at most 10^6
 * rounds). */
static void *churn(void *arg)
{
	struct churn *c = arg;

	for (c->rounds = 0; !c->stop && c->rounds < 1000000; c->rounds++) {
		uint32_t k = (uint32_t)(c->rounds % NHASH) + 1;

		bsdk_map_delete_elem(c->hash, &k, 4, 0);
		bsdk_map_update_elem(c->hash, &k, 4, &(uint64_t){ (uint64_t)k * k + 7 }, 8, 0);
	}
	return NULL;
}

/* A hash map read while another thread deletes and adds its keys: every read ends, each key
 * it lists has its own value, and no read lists more than the bound. */
static void test_changing(struct bsdk_obj *obj)
{
	struct churn c = { .hash = map(obj, "hash") };
	struct bsdk_map_snapshot s;
	uint32_t bad = 0, failed = 0;
	double start = now_s();
	size_t most = 0;
	pthread_t t;
	int r;

	if (pthread_create(&t, NULL, churn, &c)) {
		check(false, "a thread to change the map");
		return;
	}
	/* 200 reads at least, and on until the thread has made 20,000 changes (at most 10 s) */
	for (r = 0; r < 200 || (c.rounds < 20000 && now_s() < start + 10); r++) {
		if (bsdk_map_snapshot(c.hash, &s)) {
			failed++;
			continue;
		}
		for (size_t i = 0; i < s.n; i++) {
			uint32_t k;
			uint64_t v;

			memcpy(&k, s.keys + i * 4, 4);
			memcpy(&v, s.values + i * 8, 8);
			bad += k == 0 || k > NHASH || v != (uint64_t)k * k + 7;
		}
		most = s.n > most ? s.n : most;
		bsdk_map_snapshot_free(&s);
	}
	c.stop = true;
	pthread_join(t, NULL);
	check_u64(failed, 0, "hash changing: %d reads, none failed", r);
	check(c.rounds >= 20000, "hash changing: %lu changes meanwhile", c.rounds);
	check_u64(bad, 0, "hash changing: every key listed has its own value");
	check(most <= 2 * 128 + 16 + 4096, "hash changing: at most %zu elements in a read", most);
}

/* An LPM trie: the kernel has no batches for it, the key-by-key walk reads it. (Its lookup is
 * by longest prefix: a prefix deleted during a walk may be listed with a shorter one's value,
 * so the trie is read here at rest.) */
static void test_fallback(struct bsdk_obj *obj)
{
	struct bsdk_map *trie = map(obj, "trie");
	struct bsdk_map_snapshot s;
	uint32_t bad = 0, seen[18] = { 0 };

	for (uint32_t i = 0; i < 10; i++) {
		struct lpm_key k = { 8 + i, 10u | i << 24 };

		bad += bsdk_map_update_elem(trie, &k, sizeof(k), &(uint64_t){ 1000 + i }, 8, 0) != 0;
	}
	check_u64(bad, 0, "trie: 10 prefixes");
	check_i64(bsdk_map_snapshot(trie, &s), 0, "trie (key by key): read whole");
	check_u64(s.n, 10, "trie (key by key): 10 elements");
	for (size_t i = 0; i < s.n; i++) {
		struct lpm_key k;
		uint64_t v;

		memcpy(&k, s.keys + i * sizeof(k), sizeof(k));
		memcpy(&v, s.values + i * 8, 8);
		bad += k.prefixlen < 8 || k.prefixlen > 17 || seen[k.prefixlen]++ ||
		       v != 1000 + k.prefixlen - 8 || k.addr != (10u | (k.prefixlen - 8) << 24);
	}
	check_u64(bad, 0, "trie (key by key): each prefix once, with its value");
	bsdk_map_snapshot_free(&s);
}

int main(void)
{
	struct bsdk_obj *obj = craft_open_for_kernel("map_ops");
	struct bsdk_map_snapshot s;

	if (!obj)
		return check_done();
	cap_start();
	check_i64(bsdk_map_snapshot(map(obj, "hash"), &s), -EBADF, "before load: -EBADF");
	bsdk_set_log(NULL, NULL);
	check(s.n == 0 && !s.keys && !s.values, "before load: left empty");
	check_i64(bsdk_map_snapshot(NULL, &s), -EINVAL, "no map: -EINVAL");
	if (!check_i64(bsdk_obj_load(obj), 0, "load map_ops")) {
		bsdk_obj_close(obj);
		return check_done();
	}
	test_hash(obj);
	test_percpu(obj);
	test_changing(obj);
	test_fallback(obj);
	bsdk_obj_close(obj);
	return check_done();
}
