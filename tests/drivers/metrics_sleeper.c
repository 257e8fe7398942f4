// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_sleeper - the known workload of tests/bats/metrics.bats: wait
 * until GOFILE exists, then sleep COUNT times for USECS microseconds each
 * (clock_nanosleep(), which metrics_count.bpf.o counts and times), and
 * exit. Its pid is known before it starts, so that the test can give it to
 * the program (--set target_tgid=PID) and ask Prometheus about it. With
 * COMM, it takes that name first (any bytes, up to 15): a label value that
 * needs escaping.
 *
 *   metrics_sleeper GOFILE COUNT USECS [COMM]
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <time.h>
#include <sys/select.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec poll = { 0, 20 * 1000 * 1000 }, nap;
	long count, usecs;

	if (argc < 4 || argc > 5 || (count = atol(argv[2])) <= 0 || (usecs = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: metrics_sleeper GOFILE COUNT USECS [COMM]\n");
		return 2;
	}
	if (argc == 5 && prctl(PR_SET_NAME, argv[4])) {
		perror("prctl(PR_SET_NAME)");
		return 1;
	}
	/* the wait uses select(), not clock_nanosleep(): only the COUNT sleeps are counted */
	while (access(argv[1], F_OK)) {
		struct timeval tv = { 0, poll.tv_nsec / 1000 };

		select(0, NULL, NULL, NULL, &tv);
	}
	nap.tv_sec = usecs / 1000000;
	nap.tv_nsec = usecs % 1000000 * 1000;
	for (long i = 0; i < count; i++)
		if (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL)) {
			perror("clock_nanosleep");
			return 1;
		}
	return 0;
}
