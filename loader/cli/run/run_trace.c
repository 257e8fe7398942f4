// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_trace.c - bpf_printk() is a result too: when a program of the object
 * calls bpf_trace_printk() or bpf_trace_vprintk(), `bpfsdk run` relays the
 * lines of the kernel's trace pipe while it runs, as records beside the
 * others. The pipe is the whole system's: every BPF program's bpf_printk()
 * writes there, and a line read is gone for every other reader. A line
 * the kernel wrote for another event (a trace_marker write, an event
 * someone enabled) is marked as not from bpf_printk(); which BPF program
 * wrote a bpf_trace_printk line the kernel does not say.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "run_state.h"

/* The event the kernel writes bpf_trace_printk() and bpf_trace_vprintk()
 * lines as, after the task, CPU, flags and time stamp. */
#define PRINTK_EVENT ": bpf_trace_printk: "

struct trace_relay {
	int fd;
	const char *path;
	enum record_format format;
	char line[4096];	/* a line not yet ended */
	size_t len;
	uint64_t lines, others;	/* relayed; of them, not from bpf_printk() */
};

int trace_relay_new(const struct bsdk_obj *obj, enum record_format format,
		    struct trace_relay **out)
{
	const struct bsdk_prog *prog = NULL;
	struct trace_relay *t;
	bool prints = false;

	*out = NULL;
	while (!prints && (prog = bsdk_obj_prog_next(obj, prog)))
		prints = bsdk_prog_fd(prog) >= 0 && cli_prog_prints(prog);
	if (!prints)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	t->format = format;
	t->path = cli_trace_pipe_path();
	t->fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd < 0) {
		/* the records still come: say where the lines are, go on */
		fprintf(stderr, "warning: the programs call bpf_printk(), but %s cannot be opened: %s; its lines are not relayed\n",
			t->path, strerror(errno));
		free(t);
		return 0;
	}
	fprintf(stderr, "note: relaying %s, where bpf_printk() writes (--no-trace-pipe leaves it): the whole system shares it, so other BPF programs' lines show too, and another reader of it takes lines from this one\n",
		t->path);
	*out = t;
	return 0;
}

int trace_relay_fd(const struct trace_relay *t)
{
	return t->fd;
}

/* One line of the pipe, its leading blanks dropped, as a record of its own:
 * "trace_pipe: LINE" (with "(not bpf_printk) " before a line of another
 * event), or a JSON object with "@trace_pipe" and "@bpf_printk". */
static void relay_line(struct trace_relay *t, char *s, FILE *f)
{
	bool printk = strstr(s, PRINTK_EVENT) != NULL;
	char *q;

	s += strspn(s, " \t");
	text_clean(s);
	t->lines++;
	t->others += !printk;
	if (t->format != RECORD_JSON) {
		fprintf(f, "trace_pipe: %s%s\n", printk ? "" : "(not bpf_printk) ", s);
		return;
	}
	q = json_quote(s);
	fprintf(f, "{\"@trace_pipe\":%s,\"@bpf_printk\":%s}\n", q ? q : "null",
		printk ? "true" : "false");
	free(q);
}

int trace_relay_read(struct trace_relay *t, FILE *f)
{
	char buf[8192];
	ssize_t got;

	while ((got = read(t->fd, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] != '\n' && t->len + 1 < sizeof(t->line)) {
				t->line[t->len++] = buf[i];
				continue;
			}
			/* a line ends, or one too long is cut where the buffer ends */
			t->line[t->len] = '\0';
			relay_line(t, t->line, f);
			t->len = 0;
			if (buf[i] != '\n')
				t->line[t->len++] = buf[i];
		}
	}
	if (got < 0 && errno != EAGAIN) {
		cli_error("reading %s: %s", t->path, strerror(errno));
		return -1;
	}
	return 0;
}

void trace_relay_free(struct trace_relay *t)
{
	if (!t)
		return;
	if (t->lines)
		fprintf(stderr, "trace_pipe: %llu line%s relayed%s\n", (unsigned long long)t->lines,
			t->lines == 1 ? "" : "s", t->others ? ", some not from bpf_printk()" : "");
	close(t->fd);
	free(t);
}
