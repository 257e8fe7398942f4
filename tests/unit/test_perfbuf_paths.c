// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_perfbuf_paths.c - perf buffer options no other test reached, on the
 * running kernel with tests/bpf/perf_overflow.bpf.o (one record per
 * write(2) of a child process, which writes once each time it is told:
 * this test's own output must not count): a negative max_latency_ms turns
 * periodic drains off, so one record waits for the watermark and no
 * wakeup ends the poll for it; wakeup_events = 1 wakes the poll for each
 * record; and where the locked-memory limit refuses the default ring size
 * (a process without CAP_IPC_LOCK, with a small RLIMIT_MEMLOCK), the size
 * is halved until the kernel takes it.
 *
 * Skipped where bpf() is not permitted.
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "test_obj_craft.h"

struct counter {
	int n;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)cpu, (void)data, (void)size;
	((struct counter *)ctx)->n++;
}

static int kick_fd = -1;

static int online_cpus(void)
{
	int n = 0;

	for (int cpu = 0; cpu < bsdk_cpu_possible_count(); cpu++)
		n += bsdk_cpu_is_online(cpu);
	return n;
}

/* A child that writes one byte to /dev/null for each byte it reads. */
static pid_t start_writer(void)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		abort();
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		char b;

		close(p[1]);
		while (read(p[0], &b, 1) == 1)
			if (write(devnull, "x", 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(p[0]);
	kick_fd = p[1];
	return pid;
}

/* One record, from the child. */
static int kick(void)
{
	return (int)write(kick_fd, "k", 1);
}

/* perf_overflow loaded and attached for the child's writes; NULL when not. */
static struct bsdk_obj *load(struct bsdk_link **link, pid_t writer)
{
	struct img im = img_read("perf_overflow");
	struct bsdk_obj *obj = bsdk_obj_open_mem(im.buf, im.size, "perf_overflow");
	uint32_t tgid = (uint32_t)writer;
	struct bsdk_prog *ring_prog;

	free(im.buf);
	ring_prog = obj ? bsdk_obj_prog_find(obj, "on_write_ring") : NULL;
	if (!ring_prog || bsdk_prog_set_autoload(ring_prog, false) ||
	    bsdk_obj_set_global(obj, "target_tgid", &tgid, sizeof(tgid)) ||
	    bsdk_obj_load(obj) ||
	    !(*link = bsdk_prog_attach(bsdk_obj_prog_find(obj, "on_write")))) {
		bsdk_obj_close(obj);
		return NULL;
	}
	return obj;
}

static struct bsdk_perfbuf *open_pb(struct bsdk_obj *obj, struct counter *c,
				    int max_latency_ms, unsigned int wakeup_events)
{
	struct bsdk_perfbuf_opts opts = {
		.sz = sizeof(opts), .pages = 8, .on_sample = on_sample, .ctx = c,
		.max_latency_ms = max_latency_ms, .wakeup_events = wakeup_events,
	};

	return bsdk_perfbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "events")), &opts);
}

/* In a child without CAP_IPC_LOCK and with 512 KiB of RLIMIT_MEMLOCK: a
 * perf buffer of the default size. Its pages per ring, or -errno.
 *
 * The kernel charges perf rings to the user's perf_event_mlock_kb (per
 * CPU), shared with every other process of the user, and what does not
 * fit there to the process's RLIMIT_MEMLOCK: 512 KiB cannot take two rings
 * of 256 pages whatever the others use, and takes two of 32 even when they
 * use it all. */
static int pages_without_ipc_lock(int map_fd)
{
	int p[2], pages = 0;
	pid_t pid;

	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		struct rlimit rl = { 512 << 10, 512 << 10 };
		struct counter c = { 0 };
		struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample, .ctx = &c };
		struct bsdk_perfbuf_stats st;
		struct bsdk_perfbuf *pb;
		int r;

		if (syscall(SYS_capget, &h, d) || setrlimit(RLIMIT_MEMLOCK, &rl)) {
			r = -errno;
		} else {
			d[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
			d[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
			r = syscall(SYS_capset, &h, d) ? -errno : 0;
		}
		pb = r ? NULL : bsdk_perfbuf_new(map_fd, &opts);
		if (pb) {
			bsdk_perfbuf_stats(pb, &st);
			r = (int)st.pages;
		} else if (!r) {
			r = -errno;
		}
		bsdk_perfbuf_free(pb);
		if (write(p[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &pages, sizeof(pages)) != sizeof(pages))
		pages = -EIO;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return pages;
}

int main(void)
{
	struct bsdk_link *link = NULL;
	struct bsdk_perfbuf_stats st;
	struct bsdk_perfbuf *pb;
	struct bsdk_obj *obj;
	struct counter c = { 0 };
	pid_t writer;
	int n;

	if (!craft_bpf_usable()) {
		printf("# skipped: bpf() not permitted\n");
		return check_done();
	}
	writer = start_writer();
	obj = load(&link, writer);
	if (!check(obj != NULL, "perf_overflow loads and attaches"))
		return check_done();

	/* max_latency_ms < 0: no periodic drain, the watermark only */
	pb = open_pb(obj, &c, -1, 0);
	if (check(pb != NULL, "a perf buffer with max_latency_ms -1")) {
		check_i64(bsdk_perfbuf_timeout_ms(pb), -1, "no periodic drain is due, ever");
		check_i64(kick(), 1, "one write, one record");
		n = bsdk_perfbuf_poll(pb, 300);
		bsdk_perfbuf_stats(pb, &st);
		check_u64(st.wakeups, 0, "one small record is below the watermark: no wakeup");
		/* on a busy machine the child may write only now */
		for (int i = 0; i < 300 && n < 1; i++) {
			usleep(10000);
			n += bsdk_perfbuf_consume(pb);
		}
		check_i64(n, 1, "the record was there, for a consume");
		bsdk_perfbuf_free(pb);
	}

	/* and -1000: any negative value */
	pb = open_pb(obj, &c, -1000, 0);
	if (check(pb != NULL, "a perf buffer with max_latency_ms -1000"))
		check_i64(bsdk_perfbuf_timeout_ms(pb), -1, "no periodic drain either");
	bsdk_perfbuf_free(pb);

	/* wakeup_events = 1: the kernel wakes the poll for every record */
	c.n = 0;
	pb = open_pb(obj, &c, -1, 1);
	if (check(pb != NULL, "a perf buffer with wakeup_events 1")) {
		check_i64(kick(), 1, "one write, one record");
		n = bsdk_perfbuf_poll(pb, 10000);
		bsdk_perfbuf_stats(pb, &st);
		check_i64(n, 1, "the poll hands out that record");
		check(st.wakeups >= 1, "woken by the kernel for it (%llu wakeups)",
		      (unsigned long long)st.wakeups);
		check_i64(c.n, 1, "handed to on_sample");

		/* a rescan with no CPU come online opens nothing twice */
		check_i64(bsdk_perfbuf_rescan(pb), 0, "a rescan with the same CPUs online");
		bsdk_perfbuf_stats(pb, &st);
		check_i64(st.cpus, online_cpus(), "one ring per online CPU still");
		check_i64(kick(), 1, "another record");
		check_i64(bsdk_perfbuf_poll(pb, 10000), 1, "delivered once, not once per ring opened");
		bsdk_perfbuf_free(pb);
	}
	/* the default size refused by the locked-memory limit: halved until it fits */
	{
		struct bsdk_perfbuf_opts opts = { .sz = sizeof(opts), .on_sample = on_sample, .ctx = &c };
		unsigned int def = 0;

		pb = bsdk_perfbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "events")), &opts);
		if (pb) {
			bsdk_perfbuf_stats(pb, &st);
			def = st.pages;
		}
		bsdk_perfbuf_free(pb);
		n = pages_without_ipc_lock(bsdk_map_fd(bsdk_obj_map_find(obj, "events")));
		check(n >= 8 && (unsigned int)n < def,
		      "without CAP_IPC_LOCK the default rings (%u pages) are halved until they fit (%d pages)",
		      def, n);
	}
	bsdk_link_destroy(link);
	bsdk_obj_close(obj);
	close(kick_fd);
	waitpid(writer, NULL, 0);
	return check_done();
}
