// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_wakeup - the perf buffer's two wakeup modes on the running kernel: an
 * idle consumer runs no timer and a single record wakes it through the
 * per-record event; a burst moves the CPU's slot to the watermark event and
 * the timer; quiet again, the slot goes back. Uses the program of
 * tests/bpf/perf_overflow.bpf.c (a record per write() of this process).
 * Prints one line per check; exit 0 when all held.
 *
 *   perf_wakeup [--obj PATH]
 */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpfsdk.h"

static uint64_t received;

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)ctx;
	(void)cpu;
	(void)data;
	(void)size;
	received++;
}

static int failures;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void expect(long got, long want, const char *what)
{
	printf("%s %s: %ld (expected %ld)\n", got == want ? "ok" : "FAIL", what, got, want);
	if (got != want)
		failures++;
}

static void writes(int fd, int n)
{
	for (int i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1)
			break;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	const char *obj_path = NULL;
	struct bsdk_perfbuf_opts o = { .sz = sizeof(o), .on_sample = on_sample };
	struct bsdk_perfbuf_stats st;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_link *link = NULL;
	struct bsdk_obj *obj;
	struct bsdk_prog *prog;
	__u32 tgid = (__u32)getpid();
	uint64_t wakeups, before;
	long long deadline;
	cpu_set_t set;
	int fd, n;

	if (argc == 3 && !strcmp(argv[1], "--obj")) {
		obj_path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: perf_wakeup [--obj PATH]\n");
		return 2;
	}
	if (!obj_path) {
		if (bsdk_path_beside_exe(path, sizeof(path), "../bpf/tests/perf_overflow.bpf.o"))
			return 1;
		obj_path = path;
	}
	/* All records into the ring of cpu 0. */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	obj = bsdk_obj_open(obj_path);
	if (fd < 0 || !obj || bsdk_obj_set_global(obj, "target_tgid", &tgid, sizeof(tgid)))
		return 1;
	bsdk_prog_set_autoload(bsdk_obj_prog_find(obj, "on_write_ring"), false);
	if (bsdk_obj_load(obj))
		return 1;
	prog = bsdk_obj_prog_find(obj, "on_write");
	pb = bsdk_perfbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "events")), &o);
	if (!prog || !pb || !(link = bsdk_prog_attach(prog)))
		goto out;

	/* Idle from the start: no timer; one record wakes the consumer. */
	expect(bsdk_perfbuf_timeout_ms(pb), -1, "idle: no timer");
	bsdk_perfbuf_stats(pb, &st);
	wakeups = st.wakeups;
	before = received;
	writes(fd, 1);
	n = bsdk_perfbuf_poll(pb, 5000);
	bsdk_perfbuf_stats(pb, &st);
	expect(n, 1, "one record, one poll");
	expect(st.wakeups > wakeups, 1, "the poll ended on the per-record event's wakeup");
	expect((long)(received - before), 1, "the record delivered");

	/* A burst: the slot goes to the watermark event, the timer starts. The policy judges a
	 * rate over a window of several drain periods, so the burst goes on, drained as a
	 * consumer would, until the window has been judged: on a loaded machine that takes
	 * longer, never a different answer. */
	deadline = now_ms() + 10000;
	do {
		writes(fd, 200);
		bsdk_perfbuf_consume(pb);
		bsdk_perfbuf_stats(pb, &st);
	} while (!st.streaming && now_ms() < deadline);
	expect(st.streaming, 1, "after a burst: one CPU draining on the timer");
	expect(bsdk_perfbuf_timeout_ms(pb) >= 0, 1, "after a burst: a timer is due");

	/* Quiet again: back to per-record wakeups, no timer. */
	deadline = now_ms() + 10000;
	do {
		bsdk_perfbuf_poll(pb, 20);
		bsdk_perfbuf_stats(pb, &st);
	} while (st.streaming && now_ms() < deadline);
	expect(st.streaming, 0, "quiet again: no CPU streaming");
	expect(bsdk_perfbuf_timeout_ms(pb), -1, "quiet again: no timer");
	expect(st.switches >= 2, 1, "the slot switched there and back");
	wakeups = st.wakeups;
	before = received;
	writes(fd, 1);
	n = bsdk_perfbuf_poll(pb, 5000);
	bsdk_perfbuf_stats(pb, &st);
	expect(n, 1, "one more record, one poll");
	expect(st.wakeups > wakeups, 1, "woken by the kernel again");
	expect((long)st.received, (long)received, "stats agree with the callback");
	expect((long)st.lost, 0, "nothing lost");
out:
	if (!pb || !link)
		failures++;
	bsdk_link_destroy(link);
	bsdk_perfbuf_free(pb);
	bsdk_obj_close(obj);
	close(fd);
	printf("%s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
