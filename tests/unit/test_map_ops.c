// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_map_ops.c - the map element API on real maps (tests/bpf/map_ops.bpf.c):
 * lookup, update, delete, lookup-and-delete and iteration on a hash map;
 * per-CPU values laid out round_up(value_size, 8) per CPU; batch lookup
 * through the kernel (hash, array, LPM trie) and through the fallback (a
 * program array, which the kernel cannot batch);
 * a queue without keys; wrong sizes refused with a message; a map opened
 * from its pin.
 *
 * Skipped where bpf() is not permitted.
 */
#include <linux/bpf.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "test_obj_craft.h"

#define BPF_FS_MAGIC 0xcafe4a11
#define NHASH 100

struct triple {
	uint32_t a, b, c;
};

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

/* err must be -EINVAL with errno EINVAL and one error message holding each of the needles. */
static void expect_einval(int err, const char *what, const char *n1, const char *n2,
			  const char *n3)
{
	int saved = errno;

	bsdk_set_log(NULL, NULL);
	check_i64(err, -EINVAL, "%s: -EINVAL", what);
	check_i64(saved, EINVAL, "%s: errno EINVAL", what);
	check_i64(cap.errors, 1, "%s: one error message", what);
	check_diag("    error: %s", cap.first);
	check(strstr(cap.first, n1) && strstr(cap.first, n2) && strstr(cap.first, n3),
	      "%s: the message names '%s', '%s' and '%s'", what, n1, n2, n3);
}

static void test_hash(struct bsdk_obj *obj)
{
	struct bsdk_map *m = map(obj, "hash");
	uint32_t key, next, seen[NHASH + 1] = { 0 }, n = 0, bad = 0;
	uint64_t val, sum = 0;
	void *cur = NULL;
	int err;

	for (key = 1; key <= NHASH; key++)
		bad += bsdk_map_update_elem(m, &key, sizeof(key), &(uint64_t){ key * key + 7 },
					    sizeof(uint64_t), BPF_ANY) != 0;
	check_u64(bad, 0, "hash: %d updates succeed", NHASH);
	for (key = 1; key <= NHASH; key++) {
		val = 0;
		if (bsdk_map_lookup_elem(m, &key, sizeof(key), &val, sizeof(val), 0) ||
		    val != key * key + 7)
			bad++;
	}
	check_u64(bad, 0, "hash: each lookup returns the value written (k*k+7)");

	cap_start();
	key = 1000;
	errno = 0;
	err = bsdk_map_lookup_elem(m, &key, sizeof(key), &val, sizeof(val), 0);
	check(err == -ENOENT && errno == ENOENT, "hash: a missing key is -ENOENT, errno ENOENT (%s)",
	      bsdk_strerror(err));
	check_i64(cap.errors, 0, "hash: and logs no error (it is an answer)");
	key = 3;
	err = bsdk_map_update_elem(m, &key, sizeof(key), &val, sizeof(val), BPF_NOEXIST);
	check_i64(err, -EEXIST, "hash: BPF_NOEXIST on a present key is -EEXIST");
	bsdk_set_log(NULL, NULL);

	cap_start();
	err = bsdk_map_lookup_elem(m, &(uint64_t){ 3 }, sizeof(uint64_t), &val, sizeof(val), 0);
	expect_einval(err, "hash: an 8-byte key", "map 'hash'", "key size 8 given", "key size is 4");
	cap_start();
	err = bsdk_map_update_elem(m, &key, sizeof(key), &key, sizeof(key), 0);
	expect_einval(err, "hash: a 4-byte value", "map 'hash'", "value size 4 given", "is 8");
	cap_start();
	err = bsdk_map_lookup_and_delete_elem(m, &key, sizeof(key), &val, 16, 0);
	expect_einval(err, "hash: a 16-byte value to lookup_and_delete", "map 'hash'", "16 given", "is 8");
	cap_start();
	err = bsdk_map_get_next_key(m, NULL, &val, sizeof(val));
	expect_einval(err, "hash: an 8-byte next key", "map 'hash'", "8 given", "is 4");

	/* Iterate: every key once, then -ENOENT. */
	while ((err = bsdk_map_get_next_key(m, cur, &next, sizeof(next))) == 0) {
		if (next == 0 || next > NHASH || seen[next]++)
			bad++;
		sum += next;
		n++;
		key = next;
		cur = &key;
	}
	check_i64(err, -ENOENT, "hash: iteration ends with -ENOENT");
	check_u64(n, NHASH, "hash: iteration visits %d keys", NHASH);
	check_u64(sum, NHASH * (NHASH + 1) / 2, "hash: each key 1..%d once (sum)", NHASH);
	check_u64(bad, 0, "hash: no key outside 1..%d, none twice", NHASH);

	key = 50;
	check_i64(bsdk_map_delete_elem(m, &key, sizeof(key), 0), 0, "hash: delete key 50");
	check_i64(bsdk_map_delete_elem(m, &key, sizeof(key), 0), -ENOENT, "hash: deleting it again is -ENOENT");
	check_i64(bsdk_map_lookup_elem(m, &key, sizeof(key), &val, sizeof(val), 0), -ENOENT,
		  "hash: key 50 is gone");
	key = 51;
	val = 0;
	check_i64(bsdk_map_lookup_and_delete_elem(m, &key, sizeof(key), &val, sizeof(val), 0), 0,
		  "hash: lookup_and_delete key 51");
	check_u64(val, 51 * 51 + 7, "hash: returned its value");
	check_i64(bsdk_map_lookup_elem(m, &key, sizeof(key), &val, sizeof(val), 0), -ENOENT,
		  "hash: and deleted it");
}

/* Read all of m by batches of chunk: the keys into keys (uint32_t), values into vals, each
 * vsize bytes. The number read; *calls the calls made. */
static uint32_t read_batches(struct bsdk_map *m, uint32_t chunk, uint32_t *keys, size_t ksize,
			     void *vals, size_t vsize, uint32_t cap_entries, int *calls, int *last)
{
	uint8_t batch[64];
	void *in = NULL;
	uint32_t total = 0;
	int err;

	*calls = 0;
	do {
		uint32_t n = chunk;

		if (total + n > cap_entries)
			n = cap_entries - total;
		err = bsdk_map_lookup_batch(m, in, batch, sizeof(batch),
					    (char *)keys + (size_t)total * ksize, ksize,
					    (char *)vals + (size_t)total * vsize, vsize, &n, 0);
		(*calls)++;
		if (err && err != -ENOENT)
			break;
		total += n;
		in = batch;
	} while (!err && *calls < 1000 && total < cap_entries);
	*last = err;
	return total;
}

static void test_batch(struct bsdk_obj *obj)
{
	struct bsdk_map *h = map(obj, "hash"), *a = map(obj, "array"), *t = map(obj, "trie");
	uint32_t keys[256], seen[256] = { 0 }, n, bad = 0, v32[256];
	struct lpm_key tkeys[64];
	uint64_t vals[256];
	uint8_t small[4];
	int calls, last, err;

	/* hash: 98 keys left by test_hash, by 16 */
	n = read_batches(h, 16, keys, sizeof(*keys), vals, sizeof(*vals), 256, &calls, &last);
	check_i64(last, -ENOENT, "batch hash: ends with -ENOENT");
	check_u64(n, NHASH - 2, "batch hash: reads the %d elements", NHASH - 2);
	check(calls > 1, "batch hash: in %d calls of at most 16", calls);
	for (uint32_t i = 0; i < n; i++)
		if (keys[i] == 0 || keys[i] > NHASH || keys[i] == 50 || keys[i] == 51 ||
		    seen[keys[i]]++ || vals[i] != (uint64_t)keys[i] * keys[i] + 7)
			bad++;
	check_u64(bad, 0, "batch hash: each key once, with its value");

	/* array: 40 slots by 7 */
	for (uint32_t i = 0; i < 40; i++)
		bad += bsdk_map_update_elem(a, &i, sizeof(i), &(uint32_t){ i * 3 + 1 }, 4, 0) != 0;
	n = read_batches(a, 7, keys, sizeof(*keys), v32, sizeof(*v32), 256, &calls, &last);
	check_i64(last, -ENOENT, "batch array: ends with -ENOENT");
	check_u64(n, 40, "batch array: reads the 40 slots");
	for (uint32_t i = 0; i < n; i++)
		bad += keys[i] != i || v32[i] != i * 3 + 1;
	check_u64(bad, 0, "batch array: slot i holds i*3+1, in order");

	/* trie: no BPF_MAP_LOOKUP_BATCH in the kernel; the fallback reads it */
	memset(seen, 0, sizeof(seen));
	for (uint32_t i = 0; i < 10; i++) {
		struct lpm_key k = { 8 + i, 10u | i << 24 };

		bad += bsdk_map_update_elem(t, &k, sizeof(k), &(uint64_t){ 1000 + i }, 8, 0) != 0;
	}
	check_u64(bad, 0, "trie: 10 prefixes inserted");
	{
		struct lpm_key probe = { 32, 10u | 3u << 24 };
		uint64_t v = 0;

		/* 10.0.0.3 is inside every prefix (10.0.0.0/8 .. /17): the longest wins */
		check_i64(bsdk_map_lookup_elem(t, &probe, sizeof(probe), &v, 8, 0), 0,
			  "trie: longest-prefix lookup of 10.0.0.3");
		check_u64(v, 1009, "trie: matches the /17");
	}
	n = read_batches(t, 3, (uint32_t *)tkeys, sizeof(*tkeys), vals, sizeof(*vals), 64, &calls, &last);
	check_i64(last, -ENOENT, "batch trie: ends with -ENOENT");
	check_u64(n, 10, "batch trie: reads the 10 prefixes");
	check(calls >= 4, "batch trie: in %d calls of at most 3", calls);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = tkeys[i].prefixlen;

		if (p < 8 || p > 17 || seen[p]++ || vals[i] != 1000 + p - 8 ||
		    tkeys[i].addr != (10u | (p - 8) << 24))
			bad++;
	}
	check_u64(bad, 0, "batch trie: each prefix once, with its value");

	/* program array: no BPF_MAP_LOOKUP_BATCH; the fallback reads it, skipping the
	 * empty slots (which get_next_key lists and lookup calls missing) */
	{
		struct bsdk_map *pa = map(obj, "progs");
		uint32_t fd = (uint32_t)bsdk_prog_fd(bsdk_obj_prog_find(obj, "count_getpid"));
		uint32_t slots[] = { 1, 4, 6 }, id = 0;

		for (size_t i = 0; i < 3; i++)
			bad += bsdk_map_update_elem(pa, &slots[i], 4, &fd, 4, 0) != 0;
		check_u64(bad, 0, "prog array: the program stored in slots 1, 4, 6");
		check_i64(bsdk_map_lookup_elem(pa, &slots[0], 4, &id, 4, 0), 0, "prog array: lookup slot 1");
		check(id != 0 && id != fd, "prog array: gives the program's id (%u)", id);
		n = read_batches(pa, 2, keys, 4, v32, 4, 256, &calls, &last);
		check_i64(last, -ENOENT, "batch prog array (fallback): ends with -ENOENT");
		check_u64(n, 3, "batch prog array (fallback): reads the 3 filled slots");
		check(n == 3 && keys[0] == 1 && keys[1] == 4 && keys[2] == 6 && v32[0] == id &&
		      v32[1] == id && v32[2] == id, "batch prog array (fallback): slots 1, 4, 6 with the id");
		check(calls == 2, "batch prog array (fallback): in %d calls of at most 2", calls);
	}

	cap_start();
	n = 4;
	err = bsdk_map_lookup_batch(h, NULL, small, sizeof(small), keys, 4, vals, 8, &n, 0);
	expect_einval(err, "batch: a 4-byte batch token", "map 'hash'", "4 bytes given", "at least 8");
	cap_start();
	n = 4;
	err = bsdk_map_lookup_batch(h, NULL, keys, 64, keys, 4, vals, 4, &n, 0);
	expect_einval(err, "batch: 4-byte values", "map 'hash'", "value size 4 given", "is 8");
}

static void test_percpu(struct bsdk_obj *obj)
{
	struct bsdk_map *pa = map(obj, "pcpu_array"), *ph = map(obj, "pcpu_hash");
	int ncpus = bsdk_cpu_possible_count(), err;
	size_t asize = (size_t)ncpus * 8, hsize = (size_t)ncpus * 16;
	uint64_t *av = calloc((size_t)ncpus, 8);
	unsigned char *hv = calloc((size_t)ncpus, 16);
	char want[64];
	uint32_t key = 1, bad = 0;

	check(ncpus > 0, "%d possible CPUs", ncpus);
	check(bsdk_map_is_percpu(pa) && bsdk_map_is_percpu(ph) &&
	      !bsdk_map_is_percpu(map(obj, "hash")), "per-CPU maps are told apart");
	check_u64(bsdk_map_value_buf_size(pa), asize, "pcpu_array: buffer 8 x CPUs");
	check_u64(bsdk_map_value_buf_size(ph), hsize, "pcpu_hash: 12-byte value padded to 16 x CPUs");

	for (int i = 0; i < ncpus; i++)
		*(uint64_t *)BSDK_PERCPU_VALUE(av, 8, i) = (uint64_t)i * 100 + 3;
	check_i64(bsdk_map_update_elem(pa, &key, 4, av, asize, 0), 0, "pcpu_array: write every CPU's value");
	memset(av, 0, asize);
	check_i64(bsdk_map_lookup_elem(pa, &key, 4, av, asize, 0), 0, "pcpu_array: read them back");
	for (int i = 0; i < ncpus; i++)
		bad += *(uint64_t *)BSDK_PERCPU_VALUE(av, 8, i) != (uint64_t)i * 100 + 3;
	check_u64(bad, 0, "pcpu_array: CPU i holds i*100+3");

	{	/* per-CPU batch: every element a whole per-CPU buffer */
		uint64_t *all = calloc(4, asize);
		uint32_t keys[4];
		int calls, last;
		uint32_t n = read_batches(pa, 3, keys, 4, all, asize, 4, &calls, &last);

		check_u64(n, 4, "batch pcpu_array: its 4 slots");
		for (uint32_t k = 0; k < n; k++)
			for (int i = 0; i < ncpus; i++)
				bad += *(uint64_t *)BSDK_PERCPU_VALUE((char *)all + k * asize, 8, i) !=
				       (keys[k] == 1 ? (uint64_t)i * 100 + 3 : 0);
		check_u64(bad, 0, "batch pcpu_array: slot 1 holds i*100+3 on CPU i, the others 0");
		free(all);
	}

	cap_start();
	err = bsdk_map_lookup_elem(pa, &key, 4, av, asize + 8, 0);
	snprintf(want, sizeof(want), "expected %zu", asize);
	expect_einval(err, "pcpu_array: one value too many", "map 'pcpu_array'", want, "per-CPU");
	if (ncpus > 1) {
		cap_start();
		err = bsdk_map_lookup_elem(pa, &key, 4, av, 8, 0);
		expect_einval(err, "pcpu_array: a single value", "map 'pcpu_array'", "value size 8 given", want);
	}

	for (int i = 0; i < ncpus; i++)
		*(struct triple *)BSDK_PERCPU_VALUE(hv, sizeof(struct triple), i) =
			(struct triple){ (uint32_t)i, (uint32_t)i + 10, (uint32_t)i + 20 };
	check_i64(bsdk_map_update_elem(ph, &key, 4, hv, hsize, 0), 0, "pcpu_hash: write");
	memset(hv, 0xff, hsize);
	check_i64(bsdk_map_lookup_elem(ph, &key, 4, hv, hsize, 0), 0, "pcpu_hash: read back");
	for (int i = 0; i < ncpus; i++) {
		struct triple *tr = BSDK_PERCPU_VALUE(hv, sizeof(struct triple), i);

		bad += tr->a != (uint32_t)i || tr->b != (uint32_t)i + 10 || tr->c != (uint32_t)i + 20;
	}
	check_u64(bad, 0, "pcpu_hash: CPU i's triple at i*16");
	if (ncpus > 1)
		check_u64(((uint32_t *)hv)[4], 1, "pcpu_hash: CPU 1's value starts at byte 16");
	free(av);
	free(hv);
}

static void test_queue(struct bsdk_obj *obj)
{
	struct bsdk_map *q = map(obj, "queue");
	uint32_t v, bad = 0, key = 0;
	int err;

	for (uint32_t i = 0; i < 3; i++)
		bad += bsdk_map_update_elem(q, NULL, 0, &(uint32_t){ 70 + i }, 4, 0) != 0;
	check_u64(bad, 0, "queue: push 3 values with no key");
	for (uint32_t i = 0; i < 3; i++) {
		v = 0;
		err = bsdk_map_lookup_and_delete_elem(q, NULL, 0, &v, 4, 0);
		bad += err || v != 70 + i;
	}
	check_u64(bad, 0, "queue: pop them in order");
	check_i64(bsdk_map_lookup_and_delete_elem(q, NULL, 0, &v, 4, 0), -ENOENT, "queue: then empty");
	cap_start();
	err = bsdk_map_lookup_and_delete_elem(q, &key, 4, &v, 4, 0);
	expect_einval(err, "queue: a key", "map 'queue'", "key size 4 given", "is 0");
}

static void test_pinned(struct bsdk_obj *obj)
{
	struct bsdk_map *h = map(obj, "hash"), *p;
	struct statfs fs;
	char path[128];
	union bpf_attr attr;
	uint32_t key = 2, keys[128], n;
	uint64_t val = 0, vals[128];
	int calls, last;

	if (statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC) {
		check(1, "# skip no bpffs on /sys/fs/bpf");
		return;
	}
	snprintf(path, sizeof(path), "/sys/fs/bpf/bsdk_test_map_ops_%d", (int)getpid());
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uint64_t)(uintptr_t)path;
	attr.bpf_fd = (uint32_t)bsdk_map_fd(h);
	if (!check(syscall(__NR_bpf, BPF_OBJ_PIN, &attr, sizeof(attr)) == 0, "pin the hash map"))
		return;
	p = bsdk_map_open_pinned(path);
	unlink(path);
	if (!check(p != NULL, "open it from its pin (%s)", p ? "" : bsdk_strerror(errno)))
		return;
	check_str(bsdk_map_name(p), strrchr(path, '/') + 1, "pinned: named after the pin");
	check(bsdk_map_type(p) == BPF_MAP_TYPE_HASH && bsdk_map_key_size(p) == 4 &&
	      bsdk_map_value_size(p) == 8 && bsdk_map_max_entries(p) == 128,
	      "pinned: type and sizes from the kernel");
	check_i64(bsdk_map_lookup_elem(p, &key, 4, &val, 8, 0), 0, "pinned: lookup key 2");
	check_u64(val, 11, "pinned: sees the value written through the object");
	key = 500;
	check_i64(bsdk_map_update_elem(p, &key, 4, &(uint64_t){ 5 }, 8, 0), 0, "pinned: update key 500");
	check_i64(bsdk_map_lookup_elem(h, &key, 4, &val, 8, 0), 0, "the object's map sees it");
	check_u64(val, 5, "with the value written through the pin");
	n = read_batches(p, 32, keys, 4, vals, 8, 128, &calls, &last);
	check_u64(n, NHASH - 1, "pinned: batch reads every element");
	check_i64(bsdk_map_set_max_entries(p, 3), -EBUSY, "pinned: max_entries cannot change");
	cap_start();
	check_i64(bsdk_map_lookup_elem(p, &key, 8, &val, 8, 0), -EINVAL, "pinned: sizes checked too");
	bsdk_set_log(NULL, NULL);
	check(strstr(cap.first, path + strlen("/sys/fs/bpf/")) != NULL, "naming the pin: %s", cap.first);
	bsdk_map_close(p);
	bsdk_map_close(h);	/* ignored: the object owns it */

	cap_start();
	errno = 0;
	p = bsdk_map_open_pinned(path);
	check(p == NULL && errno == ENOENT, "open_pinned of nothing: NULL, ENOENT (%s)", bsdk_strerror(errno));
	bsdk_set_log(NULL, NULL);
	check(cap.errors == 1 && strstr(cap.first, path), "with a message naming the path: %s", cap.first);

	attr.bpf_fd = (uint32_t)bsdk_prog_fd(bsdk_obj_prog_find(obj, "count_getpid"));
	if (check(syscall(__NR_bpf, BPF_OBJ_PIN, &attr, sizeof(attr)) == 0, "pin the program")) {
		cap_start();
		errno = 0;
		p = bsdk_map_open_pinned(path);
		unlink(path);
		check(p == NULL && errno == EINVAL, "open_pinned of a program: NULL, EINVAL (%s)",
		      bsdk_strerror(errno));
		bsdk_set_log(NULL, NULL);
		check(strstr(cap.first, "not a map") != NULL, "saying it is not a map: %s", cap.first);
	}
}

int main(void)
{
	struct bsdk_obj *obj;
	uint32_t key = 1;
	uint64_t val;
	int err;

	obj = craft_open_for_kernel("map_ops");
	if (!obj)
		return check_done();

	cap_start();
	err = bsdk_map_lookup_elem(map(obj, "hash"), &key, 4, &val, 8, 0);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EBADF, "before load: -EBADF");
	check(strstr(cap.first, "load the object first") != NULL, "saying so: %s", cap.first);

	err = bsdk_obj_load(obj);
	if (!check_i64(err, 0, "load map_ops")) {
		bsdk_obj_close(obj);
		return check_done();
	}
	test_hash(obj);
	test_batch(obj);
	test_percpu(obj);
	test_queue(obj);
	test_pinned(obj);
	bsdk_obj_close(obj);
	return check_done();
}
