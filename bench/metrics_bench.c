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
 * `bpfsdk run --metrics` serves them, "big" filled with 100,000 keys {pid,
 * comm} (--metrics-max-series 100000), so that the served text is 7.8 MB.
 * Three contenders alternate, round after round, so that a shared
 * machine's drifts hit them alike:
 *
 *   scrapes-0    nobody scrapes
 *   scrapes-20   a client thread scrapes /metrics 20 times a second, each
 *                a new connection, the whole answer read
 *   clients-32   32 client threads scrape it gzipped once a second each
 *                (32 Prometheus servers at a 1 s interval), at their own
 *                phases: the renders a second say how many they share
 *
 * The scrape: "big" rendered whole with bsdk_metrics_render_text(), wall
 * and CPU time; then GET /metrics of the served set: once the render's
 * lifetime is past (a new render), at once again (the render cached),
 * gzipped (compressed then) and once more (cached); five times each, the
 * median, the range and the size.
 *
 * The storm (-s SEC, 60 by default, 0: none): 32 gzip scrapers back to
 * back and 32 slow readers of the plain text against the reader: the
 * records lost, the renders a second, the process's RSS before and after.
 *
 *   metrics_bench -o build/bpf/metrics_bench.bpf.o [-d SEC] [-r ROUNDS] [-s SEC]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
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

/* contender: 0 nobody scrapes, 1 scraper(), 2 STORM_CLIENTS second_client()s, 3 (the storm)
 * STORM_CLIENTS storm_client()s and as many slow_client()s */
#define STORM_CLIENTS 32

static atomic_bool producing, scraping;
static atomic_ullong produced, scrapes_done, scrape_bytes;
static unsigned long long received;
static int port;
static struct bsdk_metrics_server *srv;

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
static long scrape(bool gz)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static const char plain[] = "GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n";
	static const char gzip[] = "GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
				   "Accept-Encoding: gzip\r\n\r\n";
	const char *req = gz ? gzip : plain;
	size_t reqlen = gz ? sizeof(gzip) - 1 : sizeof(plain) - 1;
	char buf[65536];
	long total = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, req, reqlen, 0) != (ssize_t)reqlen) {
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
		long n = scrape(false);

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

/* A gzipped scrape a second, as a Prometheus with a 1 s interval asks, each client at its
 * own phase, until scraping is cleared. */
static void *second_client(void *arg)
{
	double next = now() + (double)(uintptr_t)arg / STORM_CLIENTS;

	while (atomic_load(&scraping)) {
		while (atomic_load(&scraping) && now() < next)
			usleep(2000);
		if (scrape(true) > 0)
			atomic_fetch_add(&scrapes_done, 1);
		next += 1;
	}
	return NULL;
}

/* Back-to-back gzipped scrapes, until scraping is cleared. */
static void *storm_client(void *arg)
{
	while (atomic_load(&scraping)) {
		long n = scrape(true);

		if (n > 0) {
			atomic_fetch_add(&scrapes_done, 1);
			atomic_fetch_add(&scrape_bytes, (unsigned long long)n);
		} else {
			usleep(10000);
		}
	}
	return NULL;
}

/* A slow reader: the plain text, 16 KiB every 50 ms, a new connection when it ends. */
static void *slow_client(void *arg)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: bench\r\n\r\n";
	char buf[16384];
	int rcv = 4096;

	while (atomic_load(&scraping)) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		/* a small receive buffer: the answer waits in the server, as for a slow link */
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv)) ||
		    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    send(fd, req, sizeof(req) - 1, 0) != (ssize_t)sizeof(req) - 1) {
			if (fd >= 0)
				close(fd);
			usleep(10000);
			continue;
		}
		while (atomic_load(&scraping) && recv(fd, buf, sizeof(buf), 0) > 0)
			usleep(50000);
		close(fd);
	}
	return NULL;
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	received++;
}

struct result {
	double recv_rate, prod_rate, scrapes, renders;
	unsigned long long lost, received, produced;
};


static int run_one(struct bsdk_perfbuf *pb, double secs, int contender, struct result *r)
{
	int nthreads = contender == 0 ? 0 : contender == 1 ? 1 : contender == 2 ? STORM_CLIENTS
									  : 2 * STORM_CLIENTS;
	pthread_t prod, scr[2 * STORM_CLIENTS];
	struct bsdk_perfbuf_stats s0, s1;
	uint64_t renders0, renders1, gz;
	double t0, t;

	while (bsdk_perfbuf_consume(pb) > 0)
		;
	bsdk_perfbuf_stats(pb, &s0);
	bsdk_metrics_server_renders(srv, &renders0, &gz);
	received = 0;
	atomic_store(&produced, 0);
	atomic_store(&scrapes_done, 0);
	atomic_store(&producing, true);
	atomic_store(&scraping, nthreads > 0);
	if (pthread_create(&prod, NULL, producer, NULL))
		return -1;
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&scr[i], NULL, contender == 1 ? scraper :
				   contender == 2 ? second_client :
				   i < STORM_CLIENTS ? storm_client : slow_client, (void *)(uintptr_t)i))
			return -1;
	t0 = now();
	while ((t = now()) - t0 < secs)
		if (bsdk_perfbuf_poll(pb, 100) < 0)
			return -1;
	atomic_store(&producing, false);
	atomic_store(&scraping, false);
	pthread_join(prod, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(scr[i], NULL);
	while (bsdk_perfbuf_consume(pb) > 0)
		;
	bsdk_perfbuf_stats(pb, &s1);
	bsdk_metrics_server_renders(srv, &renders1, &gz);
	r->received = received;
	r->produced = atomic_load(&produced);
	r->recv_rate = (double)received / (t - t0);
	r->prod_rate = (double)r->produced / (t - t0);
	r->scrapes = (double)atomic_load(&scrapes_done) / (t - t0);
	r->renders = (double)(renders1 - renders0) / (t - t0);
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

static void print_row(const char *name, double *v, double size)
{
	double m = median(v, 5);	/* sorts: the range is then the ends */

	printf("| %s | %.0f ms | %.0f-%.0f ms | %.2g MB |\n", name, m, v[0], v[4], size / 1e6);
}

#define CONTENDERS 3

static void bench_reader(struct bsdk_perfbuf *pb, double secs, int rounds)
{
	static const char *const names[CONTENDERS] = { "scrapes-0", "scrapes-20", "clients-32" };
	double recv[CONTENDERS][MAX_ROUNDS], prod[CONTENDERS][MAX_ROUNDS];
	double scr[CONTENDERS][MAX_ROUNDS], ren[CONTENDERS][MAX_ROUNDS], med[CONTENDERS];
	unsigned long long lost[CONTENDERS] = { 0 };

	for (int r = 0; r < rounds; r++)
		for (int c = 0; c < CONTENDERS; c++) {
			struct result res;

			if (run_one(pb, secs, c, &res)) {
				fprintf(stderr, "error: a run failed: %s\n", strerror(errno));
				exit(1);
			}
			recv[c][r] = res.recv_rate, prod[c][r] = res.prod_rate;
			scr[c][r] = res.scrapes, lost[c] += res.lost, ren[c][r] = res.renders;
		}
	printf("| contender | received/s median (range) | produced/s median | lost | scrapes/s | renders/s | / scrapes-0 |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|\n");
	for (int c = 0; c < CONTENDERS; c++) {
		double lo, hi, p, s, rr;

		med[c] = median(recv[c], rounds);	/* sorted: the range is the ends */
		lo = recv[c][0], hi = recv[c][rounds - 1];
		p = median(prod[c], rounds);
		s = median(scr[c], rounds);
		rr = median(ren[c], rounds);
		printf("| %s | %.3gM (%.3gM-%.3gM) | %.3gM | %llu | %.1f | %.2f | %.3f |\n", names[c],
		       med[c] / 1e6, lo / 1e6, hi / 1e6, p / 1e6, lost[c], s, rr, med[c] / med[0]);
	}
}

/* VmRSS (or VmHWM, the peak) of this process, in MB. */
static double rss_mb(const char *which)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, which, strlen(which)))
			kb = atof(line + strlen(which) + 1);
	if (f)
		fclose(f);
	return kb / 1024;
}

/* A storm of secs: 32 gzip scrapers back to back and 32 slow readers, against the record
 * reader; what it lost, and the process's memory before and after. */
static void bench_storm(struct bsdk_perfbuf *pb, double secs)
{
	double before = rss_mb("VmRSS:");
	struct result res;

	if (run_one(pb, secs, 3, &res)) {
		fprintf(stderr, "error: the storm failed: %s\n", strerror(errno));
		exit(1);
	}
	printf("\n| %.0f s storm: 32 gzip scrapers, 32 slow readers | value |\n|---|---:|\n", secs);
	printf("| records produced | %llu |\n| records received | %llu |\n| records lost | %llu |\n",
	       res.produced, res.received, res.lost);
	printf("| scrapes/s | %.1f |\n| renders/s | %.2f |\n", res.scrapes, res.renders);
	printf("| RSS before, after, peak | %.1f, %.1f, %.1f MB |\n", before, rss_mb("VmRSS:"),
	       rss_mb("VmHWM:"));
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill_big(struct bsdk_obj *obj)
{
	struct bsdk_map *big = bsdk_obj_map_find(obj, "big");

	for (uint32_t i = 0; i < BIG_KEYS; i++) {
		struct big_key k = { .pid = i + 1 };
		uint64_t v = i * 7ull;

		snprintf(k.comm, sizeof(k.comm), "worker-%u", i % 977);
		if (bsdk_map_update_elem(big, &k, sizeof(k), &v, sizeof(v), BPF_ANY)) {
			fprintf(stderr, "error: filling 'big': %s\n", strerror(errno));
			exit(1);
		}
	}
}

/* The render of "big" alone, then GET /metrics of the served set (all three maps): a new
 * render (the window past), a cached one, and gzipped. */
static void bench_big(struct bsdk_obj *obj)
{
	struct bsdk_metrics_opts o = { .sz = sizeof(o), .max_series = BIG_KEYS };
	struct bsdk_metrics *m = bsdk_metrics_new(&o);
	double wall[5], cpu[5], fresh[5], cached[5], gz[5], gzc[5];
	size_t len = 0;
	long bytes = 0, gzbytes = 0;

	if (!m || bsdk_metrics_add_map(m, bsdk_obj_map_find(obj, "big"), bsdk_obj_btf(obj),
				       bsdk_obj_name(obj))) {
		fprintf(stderr, "error: a metrics set of 'big'\n");
		exit(1);
	}
	for (int i = 0; i < 5; i++) {
		char *text = NULL;
		double t0 = now(), c0 = cpu_now();

		if (bsdk_metrics_render_text(m, 0, &text, &len)) {
			fprintf(stderr, "error: rendering 'big'\n");
			exit(1);
		}
		cpu[i] = (cpu_now() - c0) * 1e3;
		wall[i] = (now() - t0) * 1e3;
		free(text);
	}
	for (int i = 0; i < 5; i++) {
		double t0;

		usleep(1100 * 1000);	/* past the render's lifetime: this scrape renders */
		t0 = now();
		bytes = scrape(false);
		fresh[i] = (now() - t0) * 1e3;
		t0 = now();
		scrape(false);
		cached[i] = (now() - t0) * 1e3;
		t0 = now();
		gzbytes = scrape(true);
		gz[i] = (now() - t0) * 1e3;
		t0 = now();
		scrape(true);
		gzc[i] = (now() - t0) * 1e3;
	}
	printf("\n| 100,000 keys of {pid, comm} | median | range | size |\n|---|---:|---:|---:|\n");
	print_row("bsdk_metrics_render_text(), wall", wall, (double)len);
	print_row("bsdk_metrics_render_text(), CPU", cpu, (double)len);
	print_row("GET /metrics, a new render", fresh, (double)bytes);
	print_row("GET /metrics, the render cached", cached, (double)bytes);
	print_row("GET /metrics gzip, compressed then", gz, (double)gzbytes);
	print_row("GET /metrics gzip, cached", gzc, (double)gzbytes);
	bsdk_metrics_free(m);
}

int main(int argc, char **argv)
{
	struct bsdk_metrics_opts mo = { .sz = sizeof(mo), .max_series = BIG_KEYS };
	const char *path = NULL;
	double secs = 3, storm = 60;
	int rounds = 5, c, fd;
	uint32_t self = (uint32_t)getpid();
	struct bsdk_obj *obj;
	struct bsdk_perfbuf *pb;
	struct bsdk_metrics *m;

	while ((c = getopt(argc, argv, "o:d:r:s:h")) != -1) {
		switch (c) {
		case 'o': path = optarg; break;
		case 'd': secs = atof(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 's': storm = atof(optarg); break;
		default:
			fprintf(stderr, "usage: metrics_bench -o OBJECT [-d SEC] [-r ROUNDS] [-s STORM_SEC]\n");
			return 2;
		}
	}
	if (!path || secs <= 0 || rounds < 1 || rounds > MAX_ROUNDS || storm < 0) {
		fprintf(stderr, "usage: metrics_bench -o OBJECT [-d SEC] [-r ROUNDS (1-%d)] [-s STORM_SEC (0: none)]\n",
			MAX_ROUNDS);
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
	printf("metrics_bench: %d rounds of %.1f s per contender, the served set holding 100,000 series; the machine's other load is not ours\n\n",
	       rounds, secs);
	fill_big(obj);
	bench_reader(pb, secs, rounds);
	fflush(stdout);
	bench_big(obj);
	fflush(stdout);
	if (storm > 0)
		bench_storm(pb, storm);
	bsdk_metrics_server_stop(srv);
	bsdk_metrics_free(m);
	bsdk_perfbuf_free(pb);
	bsdk_obj_close(obj);
	return 0;
}
