// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * payload - show the bytes a process writes: the first --snap bytes of each
 * write(2), as a hex and ASCII dump, with the length the caller asked for.
 *
 * The BPF side (payload.bpf.c) copies the bytes on sys_enter_write and
 * sends a record only as long as what it copied; this side reads the
 * records from the per-CPU perf rings. Records of any size that cross the
 * end of a ring arrive whole (the library copies them together), and the
 * kernel's padding to 8 bytes is never shown as data: the head says how
 * many bytes are real.
 *
 * The story: open -> configure the filters -> load -> open the perf buffer
 * -> attach -> poll and print -> report -> clean up.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpfsdk.h"
#include "gallery.h"	/* samples/gallery.h: what the samples share */
#include "payload.h"
#include "payload.skel.h"	/* generated: bpfsdk gen skeleton payload.bpf.o */

static const char usage[] =
"usage: payload [options]\n"
"\n"
"Show what processes write: for each write(2), who wrote how many bytes to\n"
"which file descriptor, and the first bytes (--snap) as a hex and ASCII\n"
"dump. Each record the BPF side sends is as long as the bytes it carries.\n"
"\n";

/* After the options, which --help lists from own_opts[]. */
static const char usage_end[] =
"\n"
"output, one line per write, then its dump:\n"
"  PID      the process (thread group) that wrote\n"
"  COMM     its command name\n"
"  FD       the file descriptor written to\n"
"  LEN      the bytes the caller asked to write (its true length)\n"
"  SHOWN    the bytes captured and dumped below: LEN or --snap, the smaller\n"
"  SIZE     (-v) the record's size as the ring reports it: head + SHOWN,\n"
"           padded so that size + 4 is a multiple of 8\n"
"  the dump has hexdump -C's layout: offset, 16 bytes in hex, |ASCII|.\n"
"\n"
"--json prints ts_ns, pid, tid, comm, fd, len, shown, size and data (the\n"
"captured bytes in hex) per line.\n"
"\n"
"On exit a line 'received N, shown S, lost L, wrapped W' goes to stderr: L\n"
"records the kernel dropped because a ring was full, W records that crossed\n"
"the end of their ring and were put back together.\n"
"\n"
USAGE_EXIT("tracing", "");

struct options {
	struct bsdk_args_common common;	/* the options the samples share */
	__u32 snap;
	unsigned int pages;
};

struct dump {
	struct bsdk_tally counts;	/* first: bsdk_tally_lost() is on_lost */
	const struct options *opt;
};

/* hexdump -C's rows: "00000010  41 42 ...  43 44 ...  |AB..CD..|". */
static void print_dump(const __u8 *p, size_t len)
{
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		printf("    %08zx  ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i < n)
				printf("%02x ", p[off + i]);
			else
				printf("   ");
			if (i == 7)
				putchar(' ');
		}
		printf(" |");
		for (size_t i = 0; i < n; i++)
			putchar(p[off + i] >= 0x20 && p[off + i] < 0x7f ? p[off + i] : '.');
		printf("|\n");
	}
}

static void print_header(const struct options *o)
{
	if (o->common.verbose)
		printf("%-7s %-7s %-16s %-4s %-8s %-6s %s\n", "PID", "TID", "COMM", "FD",
		       "LEN", "SHOWN", "SIZE");
	else
		printf("%-7s %-16s %-4s %-8s %s\n", "PID", "COMM", "FD", "LEN", "SHOWN");
}

static void print_event(const struct options *o, const struct payload_event *e,
			const char *comm, const __u8 *data, uint32_t size)
{
	if (o->common.json) {
		json_head(e->ts_ns, e->pid, e->tid, comm);
		printf(",\"fd\":%d,\"len\":%llu,\"shown\":%u,\"size\":%u,\"data\":\"",
		       e->fd, (unsigned long long)e->count, e->len, size);
		for (__u32 i = 0; i < e->len; i++)
			printf("%02x", data[i]);
		printf(e->err ? "\",\"err\":%d}\n" : "\"}\n", e->err);
		return;
	}
	if (o->common.verbose)
		printf("%-7u %-7u %-16s %-4d %-8llu %-6u %u\n", e->pid, e->tid, comm, e->fd,
		       (unsigned long long)e->count, e->len, size);
	else
		printf("%-7u %-16s %-4d %-8llu %u\n", e->pid, comm, e->fd,
		       (unsigned long long)e->count, e->len);
	if (e->err)
		printf("    <unreadable: error %d>\n", e->err);
	print_dump(data, e->len);
}

/* Called for every record, data only 4-byte aligned and valid during the
 * call. size is the ring's (padded); e.len is what the BPF side sent. */
static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct dump *d = ctx;
	struct payload_event e;
	char comm[PAYLOAD_COMM_LEN + 1];

	if (!bsdk_tally_check(&d->counts, cpu, size, PAYLOAD_HEAD_SIZE))
		return;
	memcpy(&e, data, PAYLOAD_HEAD_SIZE);
	/* The padding is at most 7 bytes: more, and the record is not ours. */
	if (e.len > PAYLOAD_SNAP_MAX || e.len > size - PAYLOAD_HEAD_SIZE ||
	    size - PAYLOAD_HEAD_SIZE - e.len > 7 || e.len > e.count) {
		bsdk_tally_bad(&d->counts, cpu, "len %u does not fit a %u-byte record", e.len, size);
		return;
	}
	memcpy(comm, e.comm, PAYLOAD_COMM_LEN);
	comm[PAYLOAD_COMM_LEN] = '\0';
	d->counts.shown++;
	print_event(d->opt, &e, comm, (const __u8 *)data + PAYLOAD_HEAD_SIZE, size);
}

static struct options opt = { .snap = 256 };

/* The command line: this sample's options and the ones the samples share,
 * from the library (BSDK_OPT_COMMON), in the order --help lists them. */
static const struct bsdk_opt own_opts[] = {
	{ .name = "pid", .type = BSDK_OPT_COMMON },
	{ .name = "comm", .type = BSDK_OPT_COMMON,
	  .help =
	"only processes whose command name is COMM, as in\n"
	"/proc/PID/comm (filtered in the kernel)" },
	{ "snap", 's', BSDK_OPT_UINT, .dest = &opt.snap, .min = 0, .max = PAYLOAD_SNAP_MAX,
	  .what = "a number of bytes from 0 to 4096",
	  .arg = "N",
	  .help = "bytes to keep of each write, 0 to 4096 (default 256)" },
	{ "pages", 'P', BSDK_OPT_POW2, .dest = &opt.pages, .min = 1, .max = 65536,
	  .what = "a power of two up to 65536",
	  .arg = "N",
	  .help =
	"ring pages per CPU, a power of two (default: the\n"
	"library's choice); small rings make records wrap" },
	{ .name = "duration", .type = BSDK_OPT_COMMON },
	{ .name = "json", .type = BSDK_OPT_COMMON,
	  .help = "one JSON object per line instead of the dump" },
	{ .name = "object", .type = BSDK_OPT_COMMON },
	{ .name = "verbose", .type = BSDK_OPT_COMMON,
	  .help =
	"more columns (TID, SIZE) and what the loader does;\n"
	"twice for debug messages" },
	{ 0 },
};

static const struct bsdk_args args = {
	.tool = "payload", .usage = usage, .opts = own_opts, .common = &opt.common,
	.usage_end = usage_end,
	.common_opts = BSDK_ARGS_TRACER | BSDK_ARGS_COMM,
};

int main(int argc, char **argv)
{
	struct dump dump = { .opt = &opt };
	struct bsdk_perfbuf_stats stats;
	struct bsdk_perfbuf *pb = NULL;
	struct bsdk_link *link = NULL;
	struct payload_bpf *skel = NULL;
	int ret = 1, err;

	err = bsdk_args_parse(&args, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;	/* --help, or a usage error said */
	bsdk_signals_catch();	/* Ctrl-C and SIGTERM stop; a closed pipe too */
	bsdk_mount_fs();

	/* Open: the object built into the program (its skeleton), or
	 * --object's; nothing reaches the kernel yet. */
	skel = opt.common.object ? payload_bpf__open_file(opt.common.object) : payload_bpf__open();
	if (!skel)
		goto cleanup;

	/* Configure: filters and the snap length are constants of the
	 * program, set in its .rodata before load. */
	skel->rodata->target_tgid = opt.common.pid;
	if (opt.common.comm)
		strncpy(skel->rodata->target_comm, opt.common.comm, PAYLOAD_COMM_LEN - 1);
	skel->rodata->snap_len = opt.snap;

	/* Load: maps created, the program verified. */
	/* A signal stops a slow verifier run at once (load fails with EINTR). */
	if (bsdk_signals_caught() || payload_bpf__load(skel))
		goto cleanup;

	/* Read: one ring per CPU, merged by the timestamp at the head of each
	 * record so a process that moves between CPUs is shown in order. */
	struct bsdk_perfbuf_opts pb_opts = { .sz = sizeof(pb_opts), .pages = opt.pages,
		.on_sample = on_sample, .on_lost = bsdk_tally_lost, .ctx = &dump, .merge_by_ts = true,
		.ts_offset = __builtin_offsetof(struct payload_event, ts_ns) };
	pb = bsdk_perfbuf_new(bsdk_map_fd(skel->maps.events), &pb_opts);
	if (!pb)
		goto cleanup;

	/* Attach: from here on every write of the target is sent. */
	link = bsdk_prog_attach(skel->progs.write_enter);
	if (!link)
		goto cleanup;

	if (!opt.common.json)
		print_header(&opt);
	fflush(stdout);
	fprintf(stderr, "payload: tracing write(2)%s, %u bytes each, Ctrl-C to stop\n",
		opt.common.pid || opt.common.comm ? " of the chosen processes" : "", opt.snap);

	/* Poll: print as records come, until Ctrl-C or --duration; stop when
	 * the reader of a pipe has gone (fflush fails with EPIPE). Then detach,
	 * and take what is still in the rings. */
	struct bsdk_run_opts run = { .sz = sizeof(run), .duration = opt.common.duration, .out = stdout };
	if (bsdk_perfbuf_run_detach(pb, &run, &link, 1) < 0)
		goto cleanup;

	/* Report: everything received is accounted for. */
	bsdk_perfbuf_stats(pb, &stats);
	fprintf(stderr, "received %llu, shown %llu, lost %llu, wrapped %llu\n",
		(unsigned long long)dump.counts.received, (unsigned long long)dump.counts.shown,
		(unsigned long long)dump.counts.lost, (unsigned long long)stats.copied);
	if (dump.counts.bad)
		fprintf(stderr, "error: %llu malformed records\n", (unsigned long long)dump.counts.bad);
	else
		ret = 0;

cleanup:
	/* Clean up: one place, each call accepts NULL. The skeleton's destroy
	 * also destroys the links a failure left attached, the last first. */
	bsdk_perfbuf_free(pb);
	payload_bpf__destroy(skel);
	return bsdk_signals_exit_status(ret);	/* 130/143: a signal before tracing began */
}
