// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * threads - the library from several threads at once, each on its own
 * objects (make test-tsan builds it with ThreadSanitizer).
 *
 *   threads OBJECT [THREADS [ROUNDS]]     (defaults: 8 threads, 50 rounds)
 *
 * OBJECT is build/bpf/tests/threads.bpf.o. Each thread, ROUNDS times:
 * opens a file that is not there (one error message, which must reach
 * this thread's count and no other's), opens OBJECT, sets target_tid to
 * itself, loads it, attaches everything (thr_missing is left out with one
 * warning, made through the library's log capture), reads its ring buffer
 * while it makes 20 getppid() calls, checks the 20 records (its tid, 1 to
 * 20 in order, its tgid, the kernel version), the count in thr_count and
 * the .bss sequence number, and closes.
 *
 * Prints "ok: T threads x R rounds" and exits 0, or prints what differed
 * ("thread 3 round 7: ...") and exits 1.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>

#include "bpfsdk.h"

#define RECORDS 20

struct thr_event {
	__u32 tid;
	__u32 seq;
	__u32 tgid;
	__u32 version;
};

static const char *object;
static int rounds = 50;
static int failures;

/* What the log told this thread: the library calls the log function in
 * the thread whose call logs. */
static __thread int my_errors, my_warnings;

static void count_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)msg;
	(void)ctx;
	if (level == BSDK_LOG_ERROR && msg[0] != ' ')
		my_errors++;
	else if (level == BSDK_LOG_WARN)
		my_warnings++;
}

struct worker {
	int index;
	pthread_t thread;
	__u32 tid;
	unsigned int received, bad;
};

static void on_sample(void *ctx, int cpu, const void *data, __u32 size)
{
	struct worker *w = ctx;
	struct thr_event e;

	(void)cpu;
	if (size < sizeof(e)) {
		w->bad++;
		return;
	}
	memcpy(&e, data, sizeof(e));
	if (e.tid != w->tid || e.seq != w->received + 1 || e.tgid != (__u32)getpid() || !e.version)
		w->bad++;
	w->received++;
}

static int report(struct worker *w, int round, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int report(struct worker *w, int round, const char *fmt, ...)
{
	va_list ap;

	flockfile(stdout);
	printf("thread %d round %d: ", w->index, round);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	funlockfile(stdout);
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	return -1;
}

static int one_round(struct worker *w, int round)
{
	struct bsdk_ringbuf_opts ro = { .sz = sizeof(ro), .on_sample = on_sample, .ctx = w };
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_obj *obj;
	__u32 key = 0;
	__u64 count = 0;
	volatile __u64 *seq;
	double end;
	int n, rc = 0;

	my_errors = my_warnings = 0;
	if (bsdk_obj_open("/nonexistent/threads-test.bpf.o") || my_errors != 1)
		return report(w, round, "a missing file gave %d error messages here, expected 1", my_errors);
	obj = bsdk_obj_open(object);
	if (!obj)
		return report(w, round, "open: %s", bsdk_strerror(errno));
	if (bsdk_obj_set_global(obj, "target_tid", &w->tid, sizeof(w->tid)) || bsdk_obj_load(obj)) {
		rc = report(w, round, "set target_tid or load: %s", bsdk_strerror(errno));
		goto out;
	}
	my_warnings = 0;
	n = bsdk_obj_attach_all(obj, 0);
	if (n != 1 || my_warnings != 1) {
		rc = report(w, round, "attach_all: %d attached, %d warnings; expected 1 and 1", n,
			    my_warnings);
		goto out;
	}
	rb = bsdk_ringbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "thr_ring")), &ro);
	if (!rb) {
		rc = report(w, round, "ringbuf: %s", bsdk_strerror(errno));
		goto out;
	}
	w->received = w->bad = 0;
	for (int i = 0; i < RECORDS; i++)
		syscall(SYS_getppid);
	end = bsdk_time_now() + 10;
	while (w->received < RECORDS && bsdk_time_now() < end)
		if (bsdk_ringbuf_poll(rb, 100) < 0 && errno != EINTR)
			break;
	seq = bsdk_obj_global_ptr(obj, "thr_seq", NULL);
	if (bsdk_map_lookup_elem(bsdk_obj_map_find(obj, "thr_count"), &key, sizeof(key), &count,
				 sizeof(count), 0))
		rc = report(w, round, "lookup thr_count: %s", bsdk_strerror(errno));
	else if (w->received != RECORDS || w->bad || count != RECORDS || !seq || *seq != RECORDS)
		rc = report(w, round, "%u records (%u wrong), count %llu, seq %llu; expected %d",
			    w->received, w->bad, (unsigned long long)count,
			    seq ? (unsigned long long)*seq : 0ull, RECORDS);
out:
	bsdk_ringbuf_free(rb);
	bsdk_obj_close(obj);
	return rc;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	w->tid = (__u32)syscall(SYS_gettid);
	for (int r = 0; r < rounds; r++)
		if (one_round(w, r))
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker *workers;
	int nthreads = 8;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: threads OBJECT [THREADS [ROUNDS]]\n");
		return 2;
	}
	object = argv[1];
	if (argc > 2)
		nthreads = atoi(argv[2]);
	if (argc > 3)
		rounds = atoi(argv[3]);
	if (nthreads < 1 || rounds < 1) {
		fprintf(stderr, "error: THREADS and ROUNDS are positive numbers\n");
		return 2;
	}
	bsdk_set_log(count_log, NULL);
	workers = calloc((size_t)nthreads, sizeof(*workers));
	if (!workers)
		return 2;
	for (int i = 0; i < nthreads; i++) {
		workers[i].index = i;
		if (pthread_create(&workers[i].thread, NULL, work, &workers[i])) {
			fprintf(stderr, "error: cannot start thread %d\n", i);
			return 2;
		}
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(workers[i].thread, NULL);
	free(workers);
	if (failures)
		return 1;
	printf("ok: %d threads x %d rounds\n", nthreads, rounds);
	return 0;
}
