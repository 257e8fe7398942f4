// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * writer.c - the writer, dd, and the check of its records (writer.h).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_output.h"
#include "writer.h"

/* dd, pinned to cpu, killed with us if we die first. */
pid_t start_writer(int cpu)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		cpu_set_t set;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* we may have died before prctl(): then nothing kills dd */
		if (getppid() != parent)
			_exit(127);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			fprintf(stderr, "error: cannot pin dd to CPU %d: %s\n",
				cpu, strerror(errno));
			_exit(127);
		}
		execlp("dd", "dd", "if=/dev/zero", "of=/dev/null", "bs=1",
		       "status=none", (char *)NULL);
		fprintf(stderr, "error: cannot run dd: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "error: fork: %s\n", strerror(errno));
	return pid;
}

void stop_writer(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Called for every record, on the consumer's thread. The kernel pads the
 * raw sample, so size is at least - not exactly - the struct's size. */
void stream_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct stream *s = ctx;
	struct trace_output_event e;

	if (size < sizeof(e)) {
		s->bad++;
		return;
	}
	memcpy(&e, data, sizeof(e));	/* data is only 4-byte aligned */
	if (e.cookie != TRACE_OUTPUT_COOKIE || e.pid != s->writer_pid) {
		if (s->bad++ < 5)
			fprintf(stderr, "bad record on cpu %d: pid %llu cookie %#llx size %u\n",
				cpu, (unsigned long long)e.pid,
				(unsigned long long)e.cookie, size);
		return;
	}
	if (s->verbose && s->received < 5)
		printf("record: cpu %d pid %llu cookie %#llx size %u\n", cpu,
		       (unsigned long long)e.pid, (unsigned long long)e.cookie,
		       size);
	s->received++;
}

void stream_lost(void *ctx, int cpu, uint64_t count)
{
	struct stream *s = ctx;

	/* The ring was full: the kernel counted what it could not write
	 * and tells us with the next record that fits. */
	s->lost += count;
	if (s->verbose)
		printf("lost: cpu %d dropped %llu records\n", cpu,
		       (unsigned long long)count);
}
