// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_bench - what serving metrics costs the record channel, and how
 * long one scrape of 100,000 series takes.
 *
 * The reader: a producer thread pinned to CPU 0 loops on write(2) to
 * /dev/null; metrics_bench.bpf.o sends a 16-byte record per write and
 * updates a count per key and a log2 histogram; the main thread, pinned to
 * CPU 1, reads the records with bsdk_perfbuf_poll(), as `bpfsdk run` does.
 * The maps are served with bsdk_metrics_serve() from its own thread, as
 * `bpfsdk run --metrics` serves them. Two contenders alternate, round after
 * round, so that a shared machine's drifts hit both alike:
 *
 *   scrapes-0    nobody scrapes
 *   scrapes-20   a client thread scrapes /metrics 20 times a second, each
 *                a new connection, the whole answer read
 *
 * The scrape: "big" filled with 100,000 keys {pid, comm}, rendered whole
 * (bsdk_metrics_render(), --metrics-max-series 100000) and fetched over
 * HTTP, five times each; the median, the range and the size.
 *
 *   metrics_bench --obj build/bpf/metrics_bench.bpf.o [-d SEC] [-r ROUNDS]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "bpfsdk_http.h"

#define BIG_KEYS 100000
#define MAX_ROUNDS 20

struct big_key {
	uint32_t pid;
	char comm[16];
};

static atomic_bool producing, scraping;
static atomic_ullong produced, scrapes_done, scrape_bytes;
static unsigned long long received;
static int port;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *producer(void *arg)
{
	int fd = open("/dev/null", O_WRONLY);
	char c = 0;

	pin(0);
	while (atomic_load_explicit(&producing, memory_order_relaxed))
		if (write(fd, &c, 1) == 1)
			atomic_fetch_add_explicit(&produced, 1, memory_order_relaxed);
	close(fd);
	return NULL;
}

/* One GET /metrics on a new connection, the whole answer read: its bytes, or -1. */
static long scrape(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n";
	char buf[65536];
	long total = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, req, sizeof(req) - 1, 0) != (ssize_t)sizeof(req) - 1) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0)
		total += n;
	close(fd);
	return total;
}

static double now(void) { return bsdk_time_now(); }

/* 20 scrapes a second, on a fixed schedule, until scraping is cleared. */
static void *scraper(void *arg)
{
	double next = now();

	while (atomic_load(&scraping)) {
		long n = scrape();

		if (n > 0) {
			atomic_fetch_add(&scrapes_done, 1);
			atomic_fetch_add(&scrape_bytes, (unsigned long long)n);
		}
		next += 0.05;
		while (atomic_load(&scraping) && now() < next)
			usleep(1000);
	}
	return NULL;
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	received++;
}

struct result {
	double recv_rate, prod_rate, scrapes;
	unsigned long long lost;
};

static int run_one(struct bsdk_perfbuf *pb, double secs, bool scrapes, struct result *r)
{
	pthread_t prod, scr;
	struct bsdk_perfbuf_stats s0, s1;
	double t0, t;

	while (bsdk_perfbuf_consume(pb) > 0)
		;
	bsdk_perfbuf_stats(pb, &s0);
	received = 0;
	atomic_store(&produced, 0);
	atomic_store(&scrapes_done, 0);
	atomic_store(&producing, true);
	atomic_store(&scraping, scrapes);
	if (pthread_create(&prod, NULL, producer, NULL) ||
	    (scrapes && pthread_create(&scr, NULL, scraper, NULL)))
		return -1;
	t0 = now();
	while ((t = now()) - t0 < secs)
		if (bsdk_perfbuf_poll(pb, 100) < 0)
			return -1;
	atomic_store(&producing, false);
	atomic_store(&scraping, false);
	pthread_join(prod, NULL);
	if (scrapes)
		pthread_join(scr, NULL);
	while (bsdk_perfbuf_consume(pb) > 0)
		;
	bsdk_perfbuf_stats(pb, &s1);
	r->recv_rate = (double)received / (t - t0);
	r->prod_rate = (double)atomic_load(&produced) / (t - t0);
	r->scrapes = (double)atomic_load(&scrapes_done) / (t - t0);
	r->lost = s1.lost - s0.lost;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench_reader(struct bsdk_perfbuf *pb, double secs, int rounds)
{
	static const char *const names[2] = { "scrapes-0", "scrapes-20" };
	double recv[2][MAX_ROUNDS], prod[2][MAX_ROUNDS], scr[2][MAX_ROUNDS], med[2];
	unsigned long long lost[2] = { 0, 0 };

	for (int r = 0; r < rounds; r++)
		for (int c = 0; c < 2; c++) {
			struct result res;

			if (run_one(pb, secs, c == 1, &res)) {
				fprintf(stderr, "error: a run failed: %s\n", strerror(errno));
				exit(1);
			}
			recv[c][r] = res.recv_rate, prod[c][r] = res.prod_rate;
			scr[c][r] = res.scrapes, lost[c] += res.lost;
		}
	printf("| contender | received/s median (range) | produced/s median | lost | scrapes/s | / scrapes-0 |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (int c = 0; c < 2; c++) {
		double lo, hi, p, s;

		med[c] = median(recv[c], rounds);	/* sorted: the range is the ends */
		lo = recv[c][0], hi = recv[c][rounds - 1];
		p = median(prod[c], rounds);
		s = median(scr[c], rounds);
		printf("| %s | %.3gM (%.3gM-%.3gM) | %.3gM | %llu | %.1f | %.3f |\n", names[c],
		       med[c] / 1e6, lo / 1e6, hi / 1e6, p / 1e6, lost[c], s, med[c] / med[0]);
	}
}

static void bench_big(struct bsdk_obj *obj, struct bsdk_metrics *all)
{
	struct bsdk_map *big = bsdk_obj_map_find(obj, "big");
	struct bsdk_metrics_opts o = { .sz = sizeof(o), .max_series = BIG_KEYS };
	struct bsdk_metrics *m = bsdk_metrics_new(&o);
	double render[5], http[5], mr, mh;
	size_t len = 0;
	long bytes = 0;

	for (uint32_t i = 0; i < BIG_KEYS; i++) {
		struct big_key k = { .pid = i + 1 };
		uint64_t v = i * 7ull;

		snprintf(k.comm, sizeof(k.comm), "worker-%u", i % 977);
		if (bsdk_map_update_elem(big, &k, sizeof(k), &v, sizeof(v), BPF_ANY)) {
			fprintf(stderr, "error: filling 'big': %s\n", strerror(errno));
			exit(1);
		}
	}
	if (!m || bsdk_metrics_add_map(m, big, bsdk_obj_btf(obj), bsdk_obj_name(obj))) {
		fprintf(stderr, "error: a metrics set of 'big'\n");
		exit(1);
	}
	for (int i = 0; i < 5; i++) {
		char *text = NULL;
		FILE *f = open_memstream(&text, &len);
		double t0 = now();

		if (!f || bsdk_metrics_render(m, 0, f)) {
			fprintf(stderr, "error: rendering 'big'\n");
			exit(1);
		}
		render[i] = (now() - t0) * 1e3;
		fclose(f);
		free(text);
	}
	/* the same keys over HTTP, through the served set (all three maps) */
	for (int i = 0; i < 5; i++) {
		double t0 = now();

		bytes = scrape();
		http[i] = (now() - t0) * 1e3;
	}
	/* median() sorts: the range is then the ends */
	mr = median(render, 5);
	mh = median(http, 5);
	printf("\n| 100,000 keys of {pid, comm} | median | range | size |\n|---|---:|---:|---:|\n");
	printf("| bsdk_metrics_render() | %.0f ms | %.0f-%.0f ms | %.1f MB |\n", mr, render[0],
	       render[4], (double)len / 1e6);
	printf("| GET /metrics, the set served | %.0f ms | %.0f-%.0f ms | %.1f MB |\n", mh, http[0],
	       http[4], (double)bytes / 1e6);
	bsdk_metrics_free(m);
	(void)all;
}

int main(int argc, char **argv)
{
	struct bsdk_metrics_opts mo = { .sz = sizeof(mo), .max_series = BIG_KEYS };
	const char *path = NULL;
	double secs = 3;
	int rounds = 5, c, fd;
	uint32_t self = (uint32_t)getpid();
	struct bsdk_obj *obj;
	struct bsdk_perfbuf *pb;
	struct bsdk_metrics *m;
	struct bsdk_metrics_server *srv;

	while ((c = getopt(argc, argv, "o:d:r:h")) != -1) {
		switch (c) {
		case 'o': path = optarg; break;
		case 'd': secs = atof(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: metrics_bench -o OBJECT [-d SEC] [-r ROUNDS]\n");
			return 2;
		}
	}
	if (!path || secs <= 0 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: metrics_bench -o OBJECT [-d SEC] [-r ROUNDS (1-%d)]\n", MAX_ROUNDS);
		return 2;
	}
	pin(1);
	obj = bsdk_obj_open(path);
	if (!obj || bsdk_obj_set_global(obj, "target_tgid", &self, sizeof(self)) ||
	    bsdk_obj_load(obj) || bsdk_obj_attach_all(obj, 0) <= 0)
		return 1;
	pb = bsdk_perfbuf_new(bsdk_map_fd(bsdk_obj_map_find(obj, "events")),
			      &(struct bsdk_perfbuf_opts){ .sz = sizeof(struct bsdk_perfbuf_opts),
							   .on_sample = on_sample });
	m = bsdk_metrics_new(&mo);
	if (!pb || !m || bsdk_metrics_add_obj(m, obj) != 3 || (fd = bsdk_metrics_listen(":0")) < 0 ||
	    !(srv = bsdk_metrics_serve(m, fd)))
		return 1;
	port = bsdk_metrics_server_port(srv);
	printf("metrics_bench: %d rounds of %.1f s per contender; the machine's other load is not ours\n\n",
	       rounds, secs);
	bench_reader(pb, secs, rounds);
	fflush(stdout);
	bench_big(obj, m);
	bsdk_metrics_server_stop(srv);
	bsdk_metrics_free(m);
	bsdk_perfbuf_free(pb);
	bsdk_obj_close(obj);
	return 0;
}
