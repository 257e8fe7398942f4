// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fault_flow - one whole workflow of the library, for the fault walk
 * (tests/faults/walk): open -> load -> attach -> stream 100 records ->
 * detach -> close, with every result checked.
 *
 *   fault_flow co_re OBJECT  fault_co_re.bpf.o: CO-RE and __kconfig externs,
 *                            a perf buffer
 *   fault_flow ring OBJECT   fault_ring.bpf.o: a ring buffer
 *   fault_flow usdt OBJECT   fault_usdt.bpf.o: this binary's probe
 *                            fault_flow:tick, a ring buffer
 *   fault_flow glob OBJECT   fault_glob.bpf.o: .data/.bss/.rodata set and read,
 *                            a map pinned by name (removed at the end)
 *   fault_flow skel          the same object through its generated skeleton
 *
 * The records are made by 100 getppid() calls (or probe firings) of this
 * process. Exit status:
 *   0  every step done, 100 records 1..100 with the right values, and as
 *      many file descriptors open after close as before open: one line
 *      "ok WORKFLOW: 100 records" on stdout
 *   1  a step failed: exactly one "error:" line on stderr (the library's
 *      message, or this driver's when the library said nothing)
 *   3  a defect: wrong or missing records after every step succeeded, a
 *      file descriptor left open, an error logged by a call that succeeded
 *      or a call that failed twice-told; a "defect:" line says which
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/types.h>

#include "bpfsdk.h"
#include "../bpf/fault_events.h"
#include "tests/fault_glob.skel.h"

#define RECORDS 100
#define DEFECT INT_MIN	/* a workflow's result: a defect was told */
#define PIN_PATH "/sys/fs/bpf/flt_glob_pin"

static int errors_logged;	/* error: lines the library wrote */
static bool after_error;

static void log_line(enum bsdk_log_level level, const char *msg, void *ctx)
{
	bool detail = level == BSDK_LOG_ERROR && after_error && msg[0] == ' ';

	(void)ctx;
	if (level <= BSDK_LOG_WARN)
		after_error = level == BSDK_LOG_ERROR;
	if (level == BSDK_LOG_ERROR && !detail)
		errors_logged++;
	fprintf(stderr, "%s%s\n", detail ? "" : level == BSDK_LOG_ERROR ? "error: " :
		level == BSDK_LOG_WARN ? "warning: " : "", msg);
}

/* A step failed: say so unless the library did, and remember that it failed. */
static int failed(const char *step, int err)
{
	if (err > 0)
		err = -err;
	if (!err)
		err = -EIO;
	if (!errors_logged)
		fprintf(stderr, "error: %s failed: %s\n", step, bsdk_strerror(err));
	return err;
}

static __attribute__((format(printf, 1, 2))) int defect(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "defect: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 3;
}

/* The open file descriptors, by the raw system calls: the fault walk
 * fails libc's open() and allocations, and this count is not under test. */
static int count_fds(void)
{
	char buf[4096];
	long len;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int n = 0;

	if (fd < 0)
		return -1;
	while ((len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < len;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			n += e->d_name[0] != '.';
			off += e->d_reclen;
		}
	}
	syscall(SYS_close, fd);
	return n - 1;	/* not this one */
}

/* What the records said, checked as they come. */
struct tally {
	unsigned int received;
	unsigned int bad;	/* out of order, another pid, wrong value */
	__u64 value;		/* what each record's value must be */
	bool check_value;
};

static void on_sample(void *ctx, int cpu, const void *data, __u32 size)
{
	struct tally *t = ctx;
	struct fault_event e;

	(void)cpu;
	if (size < sizeof(e)) {
		t->bad++;
		return;
	}
	memcpy(&e, data, sizeof(e));
	if (e.pid != (__u32)getpid() || e.seq != t->received + 1 ||
	    (t->check_value && e.value != t->value))
		t->bad++;
	t->received++;
}

__attribute__((noinline)) static void tick(long i)
{
	DTRACE_PROBE1(fault_flow, tick, i);
	__asm__ __volatile__("" ::: "memory");
}

static void produce(bool usdt)
{
	for (long i = 1; i <= RECORDS; i++) {
		if (usdt)
			tick(i);
		else
			syscall(SYS_getppid);
	}
}

/* Poll until RECORDS arrived or 5 s passed; a poll interrupted by a
 * signal is retried, as a caller that does not stop on signals does. */
static int stream(struct bsdk_perfbuf *pb, struct bsdk_ringbuf *rb, struct tally *t)
{
	double end = bsdk_time_now() + 5;

	while (t->received < RECORDS && bsdk_time_now() < end) {
		int n = pb ? bsdk_perfbuf_poll(pb, 100) : bsdk_ringbuf_poll(rb, 100);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return failed(pb ? "bsdk_perfbuf_poll()" : "bsdk_ringbuf_poll()", n);
	}
	return 0;
}

static int check_tally(const char *what, const struct tally *t)
{
	if (t->received != RECORDS || t->bad)
		return defect("%s: %u records, %u of them wrong; expected %d in order",
			      what, t->received, t->bad, RECORDS);
	return 0;
}

/* The steps shared by the workflows on an object file. */
static int flow_obj(const char *what, const char *path)
{
	bool usdt = strcmp(what, "usdt") == 0, glob = strcmp(what, "glob") == 0;
	struct tally t = { .value = 2000, .check_value = glob };
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_ringbuf *rb = NULL;
	struct bsdk_link *link = NULL;
	struct bsdk_prog *prog;
	struct bsdk_map *map;
	struct bsdk_obj *obj;
	__u32 pid = (__u32)getpid();
	__u64 bias = 2000;
	int err = 0, rc = 0;

	obj = bsdk_obj_open(path);
	if (!obj)
		return failed("bsdk_obj_open()", errno);
	if (!usdt && (err = bsdk_obj_set_global(obj, "target_pid", &pid, sizeof(pid)))) {
		err = failed("bsdk_obj_set_global(target_pid)", err);
		goto out;
	}
	if (glob && (err = bsdk_obj_set_global(obj, "flt_glob_bias", &bias, sizeof(bias)))) {
		err = failed("bsdk_obj_set_global(flt_glob_bias)", err);
		goto out;
	}
	err = bsdk_obj_load(obj);
	if (err) {
		err = failed("bsdk_obj_load()", err);
		goto out;
	}
	prog = bsdk_obj_prog_next(obj, NULL);
	if (usdt) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0) {
			err = failed("readlink(/proc/self/exe)", errno);
			goto out;
		}
		self[n] = '\0';
		link = bsdk_prog_attach_usdt(prog, (int)pid, self, "fault_flow", "tick", 7);
	} else {
		link = bsdk_prog_attach(prog);
	}
	if (!link) {
		err = failed("attach", errno);
		goto out;
	}
	map = bsdk_obj_map_find(obj, usdt ? "flt_usdt_ring" : strcmp(what, "ring") == 0 ?
				"flt_ring" : glob ? "flt_glob_ev" : "flt_core_ev");
	if (bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF) {
		struct bsdk_ringbuf_opts o = { .sz = sizeof(o), .on_sample = on_sample, .ctx = &t };

		rb = bsdk_ringbuf_new(bsdk_map_fd(map), &o);
	} else {
		struct bsdk_perfbuf_opts o = { .sz = sizeof(o), .on_sample = on_sample, .ctx = &t,
					       .pages = 16 };

		pb = bsdk_perfbuf_new(bsdk_map_fd(map), &o);
	}
	if (!rb && !pb) {
		err = failed(pb ? "bsdk_perfbuf_new()" : "bsdk_ringbuf_new()", errno);
		goto out;
	}
	produce(usdt);
	err = stream(pb, rb, &t);
	if (err)
		goto out;
	rc = check_tally(what, &t);
	if (!rc && glob) {
		__u32 key = 0;
		__u64 count = 0;
		size_t size = 0;
		volatile __u64 *seq = bsdk_obj_global_ptr(obj, "flt_glob_seq", &size);

		err = bsdk_map_lookup_elem(bsdk_obj_map_find(obj, "flt_glob_pin"), &key, sizeof(key),
					   &count, sizeof(count), 0);
		if (err)
			err = failed("bsdk_map_lookup_elem(flt_glob_pin)", err);
		else if (!seq)
			err = failed("bsdk_obj_global_ptr(flt_glob_seq)", errno);
		else if (count != RECORDS || *seq != RECORDS)
			rc = defect("glob: pinned count %llu, .bss seq %llu; expected %d",
				    (unsigned long long)count, (unsigned long long)*seq, RECORDS);
	}
out:
	bsdk_perfbuf_free(pb);
	bsdk_ringbuf_free(rb);
	bsdk_link_destroy(link);
	/* the tool that made the pin removes it when it stops, as bpfsdk run does */
	if (glob && bsdk_obj_unpin(obj) && !err)
		err = failed("bsdk_obj_unpin()", -EIO);
	bsdk_obj_close(obj);
	return rc ? DEFECT : err;
}

static int flow_skel(void)
{
	struct tally t = { .value = 2000, .check_value = true };
	struct bsdk_perfbuf *pb = NULL;
	struct fault_glob_bpf *skel;
	int err, rc = 0;

	skel = fault_glob_bpf__open();
	if (!skel)
		return failed("fault_glob_bpf__open()", errno);
	skel->rodata->target_pid = (__u32)getpid();
	skel->data->flt_glob_bias = 2000;
	err = fault_glob_bpf__load(skel);
	if (err) {
		err = failed("fault_glob_bpf__load()", err);
		goto out;
	}
	/* 0, or a negative errno when nothing could be attached (logged) */
	err = fault_glob_bpf__attach(skel);
	if (err) {
		err = failed("fault_glob_bpf__attach()", err);
		goto out;
	}
	{
		struct bsdk_perfbuf_opts o = { .sz = sizeof(o), .on_sample = on_sample, .ctx = &t,
					       .pages = 16 };

		pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.flt_glob_ev), &o);
	}
	if (!pb) {
		err = failed("bsdk_perfbuf_new()", errno);
		goto out;
	}
	produce(false);
	err = stream(pb, NULL, &t);
	if (err)
		goto out;
	rc = check_tally("skel", &t);
	if (!rc && skel->bss && skel->bss->flt_glob_seq != RECORDS)
		rc = defect("skel: .bss seq %llu, expected %d",
			    (unsigned long long)skel->bss->flt_glob_seq, RECORDS);
out:
	bsdk_perfbuf_free(pb);
	if (bsdk_obj_unpin(skel->obj) && !err && !rc)
		err = failed("bsdk_obj_unpin()", -EIO);
	fault_glob_bpf__destroy(skel);
	return rc ? DEFECT : err;
}

int main(int argc, char **argv)
{
	int before, after, err;

	if (argc < 2 || (strcmp(argv[1], "skel") != 0 && argc != 3)) {
		fprintf(stderr, "usage: fault_flow co_re|ring|usdt|glob OBJECT | fault_flow skel\n");
		return 2;
	}
	if (access(PIN_PATH, F_OK) == 0) {
		fprintf(stderr, "error: '%s' is left from an earlier run: remove it\n", PIN_PATH);
		return 2;
	}
	/* Every record from one CPU, into one ring: the tally checks that they come in the
	 * order they were made, which a perf buffer keeps within a CPU's ring only. */
	{
		cpu_set_t set;
		int cpu = sched_getcpu();

		CPU_ZERO(&set);
		CPU_SET(cpu < 0 ? 0 : cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	bsdk_set_log(log_line, NULL);
	before = count_fds();
	err = strcmp(argv[1], "skel") == 0 ? flow_skel() : flow_obj(argv[1], argv[2]);
	after = count_fds();
	if (err == DEFECT)
		return 3;
	if (err && errors_logged > 1)
		return defect("%d error lines", errors_logged);
	if (!err && errors_logged)
		return defect("%d errors logged, yet every step succeeded", errors_logged);
	if (before < 0 || after != before)
		return defect("%d file descriptors open after close, %d before open", after, before);
	if (access(PIN_PATH, F_OK) == 0)
		return defect("'%s' left after close", PIN_PATH);
	if (err)
		return 1;
	printf("ok %s: %d records\n", argv[1], RECORDS);
	return 0;
}
