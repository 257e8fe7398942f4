// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_perf_ring.c - libFuzzer target: the record walkers over arbitrary
 * ring contents, the perf ring's (perf_ring_walk(), records that wrap and
 * corrupt headers) and the BPF ring buffer's (bpf_ring_walk(), the data
 * area mapped twice). The input's first 17 bytes say the ring: its size
 * (2^(8 + b0 % 9) bytes: 256 to 64 KiB), where the tail is (a u64, free
 * running) and how far the head is ahead of it (a u64, taken modulo twice
 * the size: more than the ring holds is a corrupt head too). The rest of
 * the input fills the data area from its start, cut or zero-padded.
 *
 * Every sample handed out must lie in the ring or in the scratch copy, be
 * no larger than the ring, and the tail must end at the head or before it;
 * ASan watches every read.
 *
 *   make fuzz-perf-ring [FUZZ_SECONDS=60]  seeds: tests/fuzz/perf_ring_seeds.py
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "object/object.h"
#include "rings/rings.h"
#include "channel/perf_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct walk {
	const uint8_t *ring;
	uint64_t size;
	const struct perf_scratch *scratch;
	uint64_t bytes, samples;
};

static void quiet(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)level, (void)msg, (void)ctx;
}

static int inside(const uint8_t *p, uint32_t n, const uint8_t *start, uint64_t len)
{
	return p >= start && n <= len && (uint64_t)(p - start) <= len - n;
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct walk *w = ctx;
	const uint8_t *p = data;
	uint8_t sum = 0;

	(void)cpu;
	/* the ring mapped twice for the BPF ring buffer: 2 * size */
	if (size > w->size ||
	    !(inside(p, size, w->ring, 2 * w->size) ||
	      (w->scratch && inside(p, size, w->scratch->buf, w->scratch->cap))))
		abort();
	for (uint32_t i = 0; i < size; i++)	/* every byte readable */
		sum += p[i];
	w->bytes += size + sum % 2;
	w->samples++;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	(void)cpu;
	((struct walk *)ctx)->bytes += count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_scratch scratch = { 0 };
	struct perf_ring_counts counts = { 0 };
	uint64_t ring_size, tail, ahead, samples;
	struct walk w = { 0 };
	uint8_t *ring;

	if (size < 17)
		return 0;
	bsdk_set_log(quiet, NULL);
	ring_size = (uint64_t)1 << (8 + data[0] % 9);
	memcpy(&tail, data + 1, 8);
	memcpy(&ahead, data + 9, 8);
	ahead %= 2 * ring_size + 1;
	data += 17;
	size -= 17;
	ring = calloc(2, ring_size);
	if (!ring)
		return 0;
	memcpy(ring, data, size < ring_size ? size : ring_size);
	memcpy(ring + ring_size, ring, ring_size);	/* the BPF ring's second mapping */

	/* the perf ring: records may wrap, and are then copied to scratch */
	struct perf_ring r = {
		.data = ring, .size = ring_size, .head = tail + ahead, .tail = tail,
		.scratch = &scratch, .counts = &counts,
	};
	w = (struct walk){ .ring = ring, .size = ring_size, .scratch = &scratch };
	samples = perf_ring_walk(&r, on_sample, on_lost, &w);
	if (samples != w.samples || counts.samples != samples ||
	    r.tail - tail > ahead || r.head != tail + ahead)
		abort();
	/* the head did not move: a second walk finds nothing */
	if (perf_ring_walk(&r, on_sample, on_lost, &w) != 0)
		abort();
	perf_scratch_free(&scratch);

	/* the BPF ring buffer over the same bytes */
	struct bpf_ring b = {
		.data = ring, .size = ring_size, .prod = tail + ahead, .cons = tail,
	};
	w = (struct walk){ .ring = ring, .size = ring_size };
	samples = bpf_ring_walk(&b, on_sample, &w);
	if (samples != w.samples || b.cons - tail > ahead)
		abort();
	free(ring);
	return 0;
}
