// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_uprobe - the attach calls for programs whose section does not say
 * where they go, for tests/bats/attach_uprobe.bats.
 *
 *   attach_uprobe OBJECT
 *
 * Loads OBJECT (build/bpf/tests/attach_uprobe.bpf.o), attaches all it can
 * by section name (the "uprobe//proc/self/exe:attach_uprobe_abs" program
 * and the sleepable "uprobe.s//proc/self/exe:attach_uprobe_sleepable"),
 * then the target-less "uprobe" and "uretprobe" programs with
 * bsdk_prog_attach_uprobe() to this binary's attach_uprobe_hit(), and the
 * perf_event program to a CPU-clock sampling event on itself with
 * bsdk_prog_attach_perf_event() (and, detached at once, on every CPU's
 * clock with bsdk_prog_attach_sampling()); then calls the functions, burns CPU and
 * prints what the programs sent, one record a line:
 *
 *   pid PID                 first line: this process
 *   attach_all N            programs bsdk_obj_attach_all() attached
 *   check NAME ok|FAILED    the API's answers to bad arguments
 *   record KIND VALUE PID   each record, KIND 1 uprobe (VALUE the
 *                           argument), 2 uretprobe (the return value),
 *                           3 absolute-path uprobe, 4 perf event sample,
 *                           5 sleepable uprobe (VALUE: "12345678" read as
 *                           a little-endian u64)
 *
 * Exit 0 when every call it expects to work worked, 1 otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"

/* The targets: global, not inlined, so the symbol table has them and
 * every call enters them. */
__attribute__((noinline)) uint64_t attach_uprobe_hit(uint64_t x);
__attribute__((noinline)) uint64_t attach_uprobe_hit(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return 2 * x + 1;
}

__attribute__((noinline)) uint64_t attach_uprobe_abs(uint64_t x);
__attribute__((noinline)) uint64_t attach_uprobe_abs(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 7;
}

__attribute__((noinline)) size_t attach_uprobe_sleepable(const char *s);
__attribute__((noinline)) size_t attach_uprobe_sleepable(const char *s)
{
	__asm__ __volatile__("" : "+r"(s));
	return strlen(s);
}

struct event {
	uint32_t pid;
	uint32_t kind;
	uint64_t value;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	const struct event *e = data;

	(void)ctx;
	(void)cpu;
	if (size >= sizeof(*e))
		printf("record %u %llu %u\n", e->kind, (unsigned long long)e->value, e->pid);
}

static int failures;

static void check(const char *name, int ok)
{
	printf("check %s %s\n", name, ok ? "ok" : "FAILED");
	failures += !ok;
}

/* The errno of a call that returns NULL, and the link destroyed when the
 * call unexpectedly worked. */
static int null_errno(struct bsdk_link *link)
{
	if (link) {
		bsdk_link_destroy(link);
		return 0;
	}
	return errno;
}

static struct bsdk_prog *prog(struct bsdk_obj *obj, const char *name)
{
	struct bsdk_prog *p = bsdk_obj_prog_find(obj, name);

	if (!p) {
		fprintf(stderr, "error: no program '%s'\n", name);
		failures++;
	}
	return p;
}

int main(int argc, char **argv)
{
	struct perf_event_attr pa = {
		.size = sizeof(pa), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 200000,
	};
	struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample };
	struct bsdk_prog *entry, *ret, *sample;
	struct bsdk_ringbuf_opts ropts = { .sz = sizeof(ropts), .on_sample = on_sample };
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_ringbuf *rb = NULL;
	static struct bsdk_link *cpu_links[1025];
	struct bsdk_link *sampling;
	struct bsdk_obj *obj;
	struct timespec t0, t;
	volatile uint64_t sink = 0;
	int n, pfd;

	if (argc != 2) {
		fprintf(stderr, "usage: attach_uprobe OBJECT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	bsdk_bump_memlock();
	obj = bsdk_obj_open(argv[1]);
	if (!obj || bsdk_obj_load(obj))
		return 1;
	entry = prog(obj, "on_entry");
	ret = prog(obj, "on_return");
	sample = prog(obj, "on_sample");
	if (failures)
		return 1;

	n = bsdk_obj_attach_all(obj, 0);
	printf("attach_all %d\n", n);

	/* wrong arguments get errors, not links */
	check("null_path", null_errno(bsdk_prog_attach_uprobe(entry, false, -1, NULL, "attach_uprobe_hit", 0)) == EINVAL);
	check("no_such_function", null_errno(bsdk_prog_attach_uprobe(entry, false, -1, "/proc/self/exe", "attach_uprobe_no_such", 0)) == BSDK_ENOPROBE);
	check("not_a_uprobe", null_errno(bsdk_prog_attach_uprobe(sample, false, -1, "/proc/self/exe", "attach_uprobe_hit", 0)) == EINVAL);
	check("bad_perf_fd", null_errno(bsdk_prog_attach_perf_event(sample, -1)) == EBADF);
	check("sampling_not_perf_event", bsdk_prog_attach_sampling(entry, 99, NULL, 0) == -EINVAL);
	check("sampling_zero_hz", bsdk_prog_attach_sampling(sample, 0, NULL, 0) == -EINVAL);
	/* every online CPU's clock, a link each, detached at once: before
	 * the perf buffer exists, so that no other process's sample is read */
	n = bsdk_prog_attach_sampling(sample, 99, cpu_links, 1024);
	check("sampling_every_cpu", n >= 1 && n <= bsdk_cpu_possible_count() && cpu_links[n - 1] &&
	      !cpu_links[n]);
	for (int i = 0; i < n && i < 1024; i++)
		bsdk_link_destroy(cpu_links[i]);

	/* the uprobe for this process only, the uretprobe for all */
	if (!bsdk_prog_attach_uprobe(entry, false, getpid(), "/proc/self/exe", "attach_uprobe_hit", 0) ||
	    !bsdk_prog_attach_uprobe(ret, true, -1, "/proc/self/exe", "attach_uprobe_hit", 0))
		return 1;
	pfd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) {
		fprintf(stderr, "error: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	sampling = bsdk_prog_attach_perf_event(sample, pfd);
	if (!sampling)
		return 1;
	close(pfd);	/* the link holds its own */

	pb = bsdk_perfbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "events")), &opts);
	rb = bsdk_ringbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "slow")), &ropts);
	if (!pb || !rb)
		return 1;
	sink += attach_uprobe_sleepable("12345678");
	for (uint64_t x = 10; x < 15; x++)
		sink += attach_uprobe_hit(x);
	for (uint64_t x = 100; x < 103; x++)
		sink += attach_uprobe_abs(x);
	/* 50 ms of CPU on this thread: samples every 0.2 ms of it */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000000L);
	(void)sink; /* the work's result, read once: clang counts += as no use */
	/* stop sampling, else reading the samples makes more of them */
	bsdk_link_destroy(sampling);
	for (int i = 0; i < 100 && bsdk_perfbuf_poll(pb, 100) > 0; i++)
		;
	bsdk_ringbuf_consume(rb);
	bsdk_ringbuf_free(rb);
	bsdk_perfbuf_free(pb);
	bsdk_obj_close(obj);
	return failures ? 1 : 0;
}
