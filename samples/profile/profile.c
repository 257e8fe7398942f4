// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * profile - a sampling CPU profiler: what was on the CPU, HZ times a second
 * on every CPU, with its user and kernel stacks, printed as folded stacks
 * (the input of flame graph tools).
 *
 * The BPF side (profile.bpf.c) runs on a CPU-clock perf event per CPU and
 * counts samples by (process, user stack, kernel stack) in the kernel; this
 * side attaches it to those events (bsdk_prog_attach_sampling()), waits,
 * then reads the counts and the stacks and names every address.
 *
 * The story: open -> configure -> load -> attach to a sampling event on
 * every CPU -> wait -> read the maps and symbolize -> clean up.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "profile.h"
#include "profile.skel.h"	/* generated: bpfsdk gen skeleton profile.bpf.o */

static const char usage[] =
"usage: profile [options]\n"
"\n"
"Sample what runs on every CPU, HZ times a second, and print each distinct\n"
"stack once with the number of samples that hit it, as folded stacks:\n"
"\n"
"  COMM;user_frame_outermost;...;user_frame;kernel_frame_[k];... COUNT\n"
"\n"
"the format flame graph tools (flamegraph.pl, speedscope, inferno) read.\n"
"Kernel frames end in _[k]. Most counted first.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"User frames are named from the symbol tables of the process's mapped files\n"
"or their separate debug info (read while it still runs), as\n"
"'function (file.c:LINE)' where there is DWARF (built with -g), a function\n"
"inlined there as a frame of its own; kernel frames from /proc/kallsyms.\n"
"[FILE] is a frame in FILE without a symbol, [unknown] one nowhere known.\n"
"User stacks are walked by frame pointers: code built without them shows\n"
"short stacks. --json prints pid, comm, count, ustack and kstack\n"
"(innermost frame first).\n"
"\n"
"On exit a line 'samples N, stacks S, missing M' goes to stderr: M samples\n"
"whose stack could not be stored (the stacks map was full).\n"
"\n"
USAGE_EXIT("sampling", "");

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	unsigned int freq;
	bool user_only, kernel_only, idle;
};

struct entry {
	struct profile_key key;
	__u64 count;
};

static int by_count(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* The frames of stack id (innermost first) into ips; their number. */
static int stack_get(const struct bsdk_map *stacks, __s32 id, __u64 *ips)
{
	int n = 0;

	if (id < 0 || bsdk_map_lookup_elem(stacks, &id, sizeof(id), ips,
					   PROFILE_STACK_DEPTH * sizeof(__u64), 0))
		return 0;
	while (n < PROFILE_STACK_DEPTH && ips[n])
		n++;
	return n;
}

#define MAX_INLINED 8	/* functions shown at one address */

/* The functions at frame i of a stack, innermost first, into names; how
 * many. Where the process's file has DWARF (built with -g, or its debug
 * info installed): "function (file.c:LINE)", one for each function inlined
 * there and one for the function it is in; else the bare name. A frame
 * above the innermost is a return address: its call is the byte before. */
static int frame_names(struct bsdk_syms *syms, int pid, __u64 ip, int i,
		       char names[MAX_INLINED][256])
{
	const char *name = bsdk_syms_lookup(syms, pid, ip, NULL);
	struct bsdk_sym_frame f[MAX_INLINED];
	int n;

	snprintf(names[0], sizeof(names[0]), "%s", name ? name : "[unknown]");
	if (pid == 0 || !name || name[0] == '[')
		return 1;
	n = bsdk_syms_inlined(syms, pid, i ? ip - 1 : ip, f, MAX_INLINED);
	for (int j = 0; j < n; j++) {
		const char *base = f[j].file ? strrchr(f[j].file, '/') : NULL;

		/* the outermost by its symbol, as without DWARF */
		if (j == n - 1 || !f[j].name)
			f[j].name = name;
		if (f[j].file)
			snprintf(names[j], sizeof(names[j]), "%s (%s:%d)", f[j].name,
				 base ? base + 1 : f[j].file, f[j].line);
		else
			snprintf(names[j], sizeof(names[j]), "%s", f[j].name);
	}
	return n > 0 ? n : 1;
}

/* A stack as JSON, innermost frame first. */
static void print_json(struct bsdk_syms *syms, const struct entry *e, const char *comm,
		       const __u64 *uips, int nu, const __u64 *kips, int nk)
{
	char names[MAX_INLINED][256];

	printf("{\"pid\":%u,\"comm\":", e->key.pid);
	bsdk_json_string(stdout, comm, strlen(comm));
	printf(",\"count\":%llu,\"ustack\":[", (unsigned long long)e->count);
	for (int i = 0; i < nu; i++) {
		int n = frame_names(syms, (int)e->key.pid, uips[i], i, names);

		for (int j = 0; j < n; j++) {
			printf("%s", i || j ? "," : "");
			bsdk_json_string(stdout, names[j], strlen(names[j]));
		}
	}
	printf("],\"kstack\":[");
	for (int i = 0; i < nk; i++) {
		frame_names(syms, 0, kips[i], i, names);
		printf("%s", i ? "," : "");
		bsdk_json_string(stdout, names[0], strlen(names[0]));
	}
	printf("]}\n");
}

/* A stack folded, root first: "comm;outer;...;inner" (malloc'ed). A
 * semicolon would break the format (C symbols have none; a comm's are
 * replaced, its spaces too); the count is read after the last space, so
 * the space in "function (file.c:LINE)" is safe. */
static char *fold(struct bsdk_syms *syms, const struct entry *e, char *comm,
		  const __u64 *uips, int nu, const __u64 *kips, int nk)
{
	char *line = NULL, names[MAX_INLINED][256];
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	for (char *p = comm; *p; p++)
		if (*p == ' ' || *p == ';')
			*p = '_';
	fputs(comm, f);
	for (int i = nu - 1; i >= 0; i--)
		for (int j = frame_names(syms, (int)e->key.pid, uips[i], i, names) - 1; j >= 0; j--)
			fprintf(f, ";%s", names[j]);
	for (int i = nk - 1; i >= 0; i--) {
		frame_names(syms, 0, kips[i], i, names);
		fprintf(f, ";%s_[k]", names[0]);
	}
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}

struct folded {
	char *line;
	__u64 count;
};

static int by_line(const void *a, const void *b)
{
	return strcmp(((const struct folded *)a)->line, ((const struct folded *)b)->line);
}

static int by_folded_count(const void *a, const void *b)
{
	const struct folded *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->line, y->line);
}

/* Read every count and print it, most counted first. */
/* Every (stack, comm) count of the map into *entries (*n of them), with the
 * samples they add up to and those whose stack could not be stored. 0 or
 * -ENOMEM; *entries is the caller's to free either way. */
static int entries_read(const struct bsdk_map *counts, struct entry **entries, size_t *n,
			__u64 *samples, __u64 *missing)
{
	struct profile_key key, next, *cur = NULL;
	size_t cap = 0;

	while (bsdk_map_get_next_key(counts, cur, &next, sizeof(next)) == 0) {
		struct entry *e;

		key = next;
		cur = &key;
		if (*n == cap) {
			struct entry *bigger = realloc(*entries, (cap = cap ? 2 * cap : 256) *
						       sizeof(**entries));

			if (!bigger)
				return -ENOMEM;
			*entries = bigger;
		}
		e = &(*entries)[*n];
		e->key = key;
		if (bsdk_map_lookup_elem(counts, &key, sizeof(key), &e->count, sizeof(e->count), 0))
			continue;	/* deleted meanwhile: nothing does */
		*samples += e->count;
		/* -EFAULT: no stack of that kind (a kernel thread has no
		 * user stack); anything else: it could not be stored. */
		if ((key.user_stack < 0 && key.user_stack != -EFAULT) ||
		    (key.kernel_stack < 0 && key.kernel_stack != -EFAULT))
			*missing += e->count;
		(*n)++;
	}
	return 0;
}

static int report(const struct options *o, const struct bsdk_map *counts,
		  const struct bsdk_map *stacks)
{
	__u64 uips[PROFILE_STACK_DEPTH], kips[PROFILE_STACK_DEPTH];
	struct entry *entries = NULL;
	struct folded *folded = NULL;
	size_t n = 0, nfolded = 0;
	__u64 samples = 0, missing = 0;
	struct bsdk_syms *syms;
	int err = 0;

	syms = bsdk_syms_new();
	if (!syms)
		return -ENOMEM;
	err = entries_read(counts, &entries, &n, &samples, &missing);
	if (err)
		goto out;
	qsort(entries, n, sizeof(*entries), by_count);
	folded = calloc(n ? n : 1, sizeof(*folded));
	if (!folded) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int nu = o->kernel_only ? 0 : stack_get(stacks, entries[i].key.user_stack, uips);
		int nk = o->user_only ? 0 : stack_get(stacks, entries[i].key.kernel_stack, kips);
		char comm[PROFILE_COMM_LEN + 1];

		memcpy(comm, entries[i].key.comm, PROFILE_COMM_LEN);
		comm[PROFILE_COMM_LEN] = '\0';
		if (o->common.json) {
			print_json(syms, &entries[i], comm, uips, nu, kips, nk);
			continue;
		}
		folded[nfolded].line = fold(syms, &entries[i], comm, uips, nu, kips, nk);
		if (!folded[nfolded].line) {
			err = -ENOMEM;
			goto out;
		}
		folded[nfolded++].count = entries[i].count;
	}
	/* Different addresses in the same functions are different stacks
	 * to the kernel and one line to a reader: add them up. */
	qsort(folded, nfolded, sizeof(*folded), by_line);
	for (size_t i = 0, j; i < nfolded; i = j) {
		for (j = i + 1; j < nfolded && strcmp(folded[i].line, folded[j].line) == 0; j++) {
			folded[i].count += folded[j].count;
			folded[j].count = 0;
		}
	}
	qsort(folded, nfolded, sizeof(*folded), by_folded_count);
	for (size_t i = 0; i < nfolded && folded[i].count; i++)
		printf("%s %llu\n", folded[i].line, (unsigned long long)folded[i].count);
	if (fflush(stdout) && errno != EPIPE)
		err = -errno;
	fprintf(stderr, "samples %llu, stacks %zu, missing %llu\n", (unsigned long long)samples, n,
		(unsigned long long)missing);
out:
	for (size_t i = 0; i < nfolded; i++)
		free(folded[i].line);
	free(folded);
	free(entries);
	bsdk_syms_free(syms);
	return err;
}

static struct options opt = { .freq = 49 };

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ "frequency", 'F', BSDK_OPT_UINT, .dest = &opt.freq, .min = 1, .max = 10000,
	  .what = "a number from 1 to 10000",
	  .arg = "HZ",
	  .help = "samples a second on each CPU, 1 to 10000 (default 49)" },
	{ .name = "pid", .type = BSDK_OPT_COMMON,
	  .help = "only process PID (filtered in the kernel)" },
	{ .name = "duration", .type = BSDK_OPT_COMMON,
	  .help = "sample for SEC seconds (default: until Ctrl-C)" },
	{ "user", 'U', BSDK_OPT_FLAG, .dest = &opt.user_only,
	  .help = "user stacks only" },
	{ "kernel", 'K', BSDK_OPT_FLAG, .dest = &opt.kernel_only,
	  .help = "kernel stacks only" },
	{ "idle", 'I', BSDK_OPT_FLAG, .dest = &opt.idle,
	  .help = "count the idle task (pid 0) too" },
	{ .name = "json", .type = BSDK_OPT_COMMON,
	  .help = "one JSON object per stack instead" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "profile", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER,
};

int main(int argc, char **argv)
{
	struct profile_bpf *skel = NULL;
	struct bsdk_link **links = NULL;
	int ret = 1, err, ncpus;
	double start;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	if (opt.user_only && opt.kernel_only) {
		fprintf(stderr, "error: --user and --kernel together leave nothing to show\n");
		return 2;
	}
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.common.object ? profile_bpf__open_file(opt.common.object) : profile_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure, then load. */
	skel->rodata->target_tgid = opt.common.pid;
	skel->rodata->include_idle = opt.idle;
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || profile_bpf__load(skel))
		goto cleanup;

	/* Attach: a CPU-clock event on every online CPU, sampling freq times
	 * a second; the program runs on each sample, on that CPU. A link per
	 * CPU, kept to detach before reading. */
	ncpus = bsdk_cpu_possible_count();
	links = ncpus > 0 ? calloc((size_t)ncpus, sizeof(*links)) : NULL;
	if (!links || bsdk_prog_attach_sampling(skel->progs.do_sample, opt.freq, links, ncpus) < 0)
		goto cleanup;
	fprintf(stderr, "profile: sampling %s at %u Hz, Ctrl-C to stop\n",
		opt.common.pid ? "one process" : "all CPUs", opt.freq);

	/* Wait: the kernel counts while we sleep. */
	start = bsdk_time_now();
	while (!bsdk_signals_caught() && (!opt.common.duration || bsdk_time_now() - start < opt.common.duration))
		usleep(50000);

	/* Detach, then read the counts and name the frames. */
	for (int i = 0; i < ncpus && links[i]; i++)
		bsdk_link_destroy(links[i]);
	free(links);
	links = NULL;
	err = report(&opt, skel->maps.counts, skel->maps.stacks);
	if (err) {
		fprintf(stderr, "error: reading the counts: %s\n", bsdk_strerror(err));
		goto cleanup;
	}
	ret = 0;

cleanup:
	/* Clean up: one place, in reverse order; each call accepts NULL. */
	free(links);	/* the links, if any, go with the object */
	profile_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
