// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringbuf_multi - one bsdk_ringbuf consumer reading two ring buffer maps, a
 * callback that stops a drain, and the consumer going back to sleep on the
 * kernel when records stop. Prints what it checked; exit 0 when all held.
 *
 *   ringbuf_multi [--obj PATH]
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpfsdk.h"

struct multi_event {
	__u32 seq;
	__u32 which;
};

/* What one ring's callback saw. */
struct seen {
	char which;
	unsigned int n, last_seq, bad;
	unsigned int stop_at;	/* return -ECANCELED at this record; 0: never */
};

static int on_record(void *ctx, const void *data, uint32_t size)
{
	struct seen *s = ctx;
	struct multi_event e;

	if (size != sizeof(e)) {
		s->bad++;
		return 0;
	}
	memcpy(&e, data, sizeof(e));
	if (e.which != (unsigned char)s->which || e.seq != s->last_seq + 1)
		s->bad++;
	s->last_seq = e.seq;
	s->n++;
	return s->n == s->stop_at ? -ECANCELED : 0;
}

static int failures;

static void expect(long got, long want, const char *what)
{
	printf("%s %s: %ld (expected %ld)\n", got == want ? "ok" : "FAIL", what, got, want);
	if (got != want)
		failures++;
}

static void trigger(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	const char *obj_path = NULL;
	struct seen a = { .which = 'a' }, b = { .which = 'b' };
	struct bsdk_ringbuf_opts oa = { .sz = sizeof(oa), .on_record = on_record, .ctx = &a };
	struct bsdk_ringbuf_opts ob = { .sz = sizeof(ob), .on_record = on_record, .ctx = &b };
	struct bsdk_ringbuf_stats st;
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_link *link = NULL;
	struct bsdk_obj *obj;
	struct bsdk_prog *prog;
	__u32 tgid = (__u32)getpid();
	uint64_t wakeups;
	int n;

	if (argc == 3 && !strcmp(argv[1], "--obj")) {
		obj_path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: ringbuf_multi [--obj PATH]\n");
		return 2;
	}
	if (!obj_path) {
		if (bsdk_path_beside_exe(path, sizeof(path), "../bpf/tests/ringbuf_multi.bpf.o"))
			return 1;
		obj_path = path;
	}
	obj = bsdk_obj_open(obj_path);
	if (!obj || bsdk_obj_set_global(obj, "target_tgid", &tgid, sizeof(tgid)) ||
	    bsdk_obj_load(obj))
		return 1;
	prog = bsdk_obj_prog_find(obj, "on_getppid");
	rb = bsdk_ringbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "ring_a")), &oa);
	if (!prog || !rb ||
	    bsdk_ringbuf_add(rb, bsdk_map_fd(bsdk_obj_map_find(obj, "ring_b")), &ob) < 0)
		goto out;
	/* A ring's timing options belong to the consumer: refused on add. */
	ob.max_latency_ms = 1;
	expect(bsdk_ringbuf_add(rb, bsdk_map_fd(bsdk_obj_map_find(obj, "ring_b")), &ob), -EINVAL,
	       "bsdk_ringbuf_add() with max_latency_ms");
	ob.max_latency_ms = 0;
	link = bsdk_prog_attach(prog);
	if (!link)
		goto out;

	/* 100 records in each ring; ring a's callback stops the drain at its 10th. */
	trigger(100);
	a.stop_at = 10;
	n = bsdk_ringbuf_consume(rb);
	expect(n, -ECANCELED, "consume returns the callback's stop value");
	expect(a.n, 10, "ring a: records before the stop");
	expect(b.n, 0, "ring b: not drained after the stop");
	expect(bsdk_ringbuf_timeout_ms(rb), 0, "records left behind: a drain is due at once");
	a.stop_at = 0;
	n = bsdk_ringbuf_consume(rb);
	expect(n, 190, "the next drain takes the rest of both");
	expect(a.n, 100, "ring a: all records");
	expect(b.n, 100, "ring b: all records");

	/* Nothing more: within a few periods no timer is left running. */
	for (int i = 0; i < 5; i++)
		bsdk_ringbuf_poll(rb, 20);
	expect(bsdk_ringbuf_timeout_ms(rb), -1, "idle: no timer, sleeping on the kernel");

	/* Then only the kernel's wakeup can end a wait early: the records come in
	 * one poll, through an epoll event, both rings in one pass. */
	bsdk_ringbuf_stats(rb, &st);
	wakeups = st.wakeups;
	trigger(3);
	n = bsdk_ringbuf_poll(rb, 5000);
	bsdk_ringbuf_stats(rb, &st);
	expect(n, 6, "one poll after idle: the new records of both rings");
	expect(st.wakeups > wakeups, 1, "the poll ended on an epoll event (the kernel's wakeup)");

	bsdk_ringbuf_stats(rb, &st);
	expect(st.rings, 2, "stats: rings");
	expect((long)st.received, 206, "stats: received");
	expect(a.n + b.n, 206, "callbacks: received");
	expect(a.bad + b.bad, 0, "records out of order or from the wrong ring");
out:
	if (!rb || !link)
		failures++;
	bsdk_link_destroy(link);
	bsdk_ringbuf_free(rb);
	bsdk_obj_close(obj);
	printf("%s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
