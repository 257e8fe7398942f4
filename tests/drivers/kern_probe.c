// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kern_probe - the driver of tests/kernel/: makes the kernel show how
 * bpf_perf_event_output() and PERF_COUNT_SW_BPF_OUTPUT events behave, and
 * prints what it saw, one observation per line ("key=value ...").
 *
 * It does not judge: the BATS tests hold the expectations (the padding
 * formula, the error codes), so the test file reads as the contract and the
 * log shows the kernel's answer next to it. The driver only fails when it
 * could not observe at all (no record arrived, the program did not run).
 *
 * It loads tests/bpf/kern_output.bpf.o with the loader library, but opens
 * the perf events and reads their rings itself with raw system calls: the
 * point is to see exact header sizes and padding bytes, which a reader
 * library hides. The "perfbuf" command is the exception: it checks the
 * same stream through the library's reader.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "bpfsdk.h"
#include "../bpf/kern_output.h"

static const char usage[] =
"usage: kern_probe [options] COMMAND\n"
"\n"
"Show how the running kernel's bpf_perf_event_output() and\n"
"PERF_COUNT_SW_BPF_OUTPUT events behave, one observation per line.\n"
"\n"
"commands:\n"
"  records    open a BPF output event on every online CPU, store each in\n"
"             the PERF_EVENT_ARRAY, trigger the program once on each CPU\n"
"             and show the record every ring got\n"
"  sizes      send each payload size --from..--to into one fresh ring and\n"
"             show each record's header size, raw size and padding bytes\n"
"  wrap       fill a one-page ring until it wraps, then do as 'sizes' and\n"
"             also show the bytes each padding landed on\n"
"  errors     the helper's return value for an index out of range, an\n"
"             empty slot, an event that is not a BPF output event, another\n"
"             CPU's event, unknown flag bits, and a correct call\n"
"  perfbuf    --count records per CPU through the library's perf buffer\n"
"  load OBJ   load a BPF object; show whether the verifier accepts it and\n"
"             its log when it does not\n"
"\n"
"options:\n"
"  -o, --object PATH  the BPF object (default: ../bpf/tests/kern_output.bpf.o\n"
"                     next to this program)\n"
"  -H, --hook KIND    what runs the program: tracepoint (default; the\n"
"                     syscalls/sys_enter_getppid tracepoint), kprobe (on\n"
"                     __x64_sys_getppid, __arm64_sys_getppid on arm64) or\n"
"                     uprobe (on this program's kern_trigger())\n"
"  -c, --cpu N        the CPU to run on (sizes, wrap, errors; default 0)\n"
"      --from N       smallest payload size (default 1)\n"
"      --to N         largest payload size (default 64)\n"
"  -n, --count N      perfbuf: records per CPU (default 1000)\n"
"  -v, --verbose      the loader's messages\n"
"  -h, --help         this text\n"
"\n"
"exit status: 0 observed, 1 could not observe, 2 usage error, 77 the\n"
"kernel cannot attach that kind of hook (e.g. no kprobes). Needs root.\n";

#define EXIT_UNSUPPORTED 77

struct options {
	const char *object;
	const char *hook;
	int cpu;
	unsigned int from, to;
	unsigned int count;
	int verbose;
};

static struct options opt = {
	.hook = "tracepoint",
	.from = 1,
	.to = KERN_MAX_PAYLOAD,
	.count = 1000,
};

static long page_size;

static void fail_msg(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void fail_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *errno_name(long long ret)
{
	switch (ret) {
	case 0: return "0";
	case -E2BIG: return "-E2BIG";
	case -ENOENT: return "-ENOENT";
	case -EINVAL: return "-EINVAL";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -EBUSY: return "-EBUSY";
	case -ENOSPC: return "-ENOSPC";
	case -EFAULT: return "-EFAULT";
	default: return "other";
	}
}

/* ------------------------------------------------------------ system calls */

static int sys_perf_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static int map_update(int map_fd, const void *key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (__u32)map_fd;
	attr.key = (__u64)(unsigned long)key;
	attr.value = (__u64)(unsigned long)value;
	attr.flags = BPF_ANY;
	return syscall(SYS_bpf, BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)) ? -errno : 0;
}

static int map_lookup(int map_fd, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (__u32)map_fd;
	attr.key = (__u64)(unsigned long)key;
	attr.value = (__u64)(unsigned long)value;
	return syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)) ? -errno : 0;
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fail_msg("cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* What the uprobe hook probes, and what every command calls to run the
 * program once: getppid(2) is what the tracepoint and kprobe hooks watch.
 * Not static and not inlined, so the uprobe finds it in the symbol table. */
void kern_trigger(void);
__attribute__((noinline)) void kern_trigger(void)
{
	syscall(SYS_getppid);
	__asm__ volatile("" ::: "memory");
}

/* ------------------------------------------------------------------ rings */

/* One BPF output event and, when mapped, its ring. */
struct ring {
	int fd;
	int cpu;
	void *base;          /* the control page, then the data pages */
	unsigned char *data;
	size_t size;         /* bytes of data, a power of two */
	uint64_t tail;       /* what we consumed; mirrored into data_tail */
};

static int ring_open(struct ring *r, int cpu, uint64_t config, unsigned int pages)
{
	struct perf_event_attr attr;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->cpu = cpu;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	r->fd = sys_perf_open(&attr, cpu);
	if (r->fd < 0) {
		fail_msg("perf_event_open(PERF_TYPE_SOFTWARE, config %llu, cpu %d): %s",
			 (unsigned long long)config, cpu, strerror(errno));
		return -1;
	}
	if (!pages)
		return 0;
	r->size = (size_t)pages * (size_t)page_size;
	r->base = mmap(NULL, r->size + (size_t)page_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		fail_msg("mmap of the ring of CPU %d (%u pages): %s", cpu, pages,
			 strerror(errno));
		return -1;
	}
	r->data = (unsigned char *)r->base + page_size;
	return 0;
}

static void ring_close(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->size + (size_t)page_size);
	if (r->fd >= 0)
		close(r->fd);
	r->base = NULL;
	r->fd = -1;
}

/* Copy len bytes at ring position pos (which may wrap past the end). */
static void ring_copy(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos & (r->size - 1));
	size_t first = len < r->size - off ? len : r->size - off;

	memcpy(dst, r->data + off, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/* Take the next record into rec (up to cap bytes). Returns its size, 0
 * when the ring is empty, -1 on a corrupt header. *pos gets its ring
 * position. */
static int ring_next(struct ring *r, unsigned char *rec, size_t cap, uint64_t *pos)
{
	struct perf_event_mmap_page *meta = r->base;
	struct perf_event_header hdr;
	uint64_t head;

	/* Acquire: the record bytes are read only after data_head says
	 * they are complete. */
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	if (head == r->tail)
		return 0;
	ring_copy(r, r->tail, &hdr, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size > cap || hdr.size > head - r->tail) {
		fail_msg("CPU %d: corrupt record header at %llu (size %u, %llu bytes ready)",
			 r->cpu, (unsigned long long)r->tail, hdr.size,
			 (unsigned long long)(head - r->tail));
		return -1;
	}
	ring_copy(r, r->tail, rec, hdr.size);
	*pos = r->tail;
	r->tail += hdr.size;
	/* Release: the kernel may reuse the bytes once it sees the new
	 * tail, so every read above must be done first. */
	__atomic_store_n(&meta->data_tail, r->tail, __ATOMIC_RELEASE);
	return hdr.size;
}

static int ring_pending(const struct ring *r)
{
	const struct perf_event_mmap_page *meta = r->base;

	return __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE) != r->tail;
}

/* ------------------------------------------------------------- the object */

struct probe {
	struct bsdk_obj *obj;
	struct bsdk_link *link;
	int events_fd, slots_fd, config_fd, result_fd;
	struct kern_config cfg;
};

static const char *default_object(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return "kern_output.bpf.o";
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	if (snprintf(buf, size, "%s/../bpf/tests/kern_output.bpf.o", exe) >= (int)size)
		return "kern_output.bpf.o";
	return buf;
}

static int map_fd_of(struct bsdk_obj *obj, const char *name)
{
	struct bsdk_map *map = bsdk_obj_map_find(obj, name);

	if (!map) {
		fail_msg("object '%s' has no map '%s'", bsdk_obj_name(obj), name);
		return -1;
	}
	return bsdk_map_fd(map);
}

/* Open and load the object with only the program of opt.hook, and attach
 * it. Returns 0, -1 on failure, EXIT_UNSUPPORTED when the kernel cannot
 * attach that kind of hook. */
static int probe_open(struct probe *p)
{
	static const char *const progs[][2] = {
		{ "tracepoint", "kern_tracepoint" },
		{ "kprobe", "kern_kprobe" },
		{ "uprobe", "kern_uprobe" },
	};
	char buf[PATH_MAX];
	const char *path = opt.object ? opt.object : default_object(buf, sizeof(buf));
	struct bsdk_prog *prog = NULL;
	const char *want = NULL;
	size_t i;
	int err;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (strcmp(opt.hook, progs[i][0]) == 0)
			want = progs[i][1];
	p->obj = bsdk_obj_open(path);
	if (!p->obj) {
		fail_msg("cannot open '%s': %s", path, bsdk_strerror(errno));
		return -1;
	}
	while ((prog = bsdk_obj_prog_next(p->obj, prog)))
		bsdk_prog_set_autoload(prog, strcmp(bsdk_prog_name(prog), want) == 0);
	prog = bsdk_obj_prog_find(p->obj, want);
	if (!prog) {
		fail_msg("object '%s' has no program '%s'", path, want);
		return -1;
	}
	if (!bsdk_prog_attach_supported(prog)) {
		printf("unsupported: this kernel cannot attach %s programs ('%s')\n",
		       opt.hook, bsdk_prog_section(prog));
		return EXIT_UNSUPPORTED;
	}
	err = bsdk_obj_load(p->obj);
	if (err) {
		fail_msg("cannot load '%s': %s", path, bsdk_strerror(err));
		return -1;
	}
	p->events_fd = map_fd_of(p->obj, "events");
	p->slots_fd = map_fd_of(p->obj, "slots");
	p->config_fd = map_fd_of(p->obj, "config");
	p->result_fd = map_fd_of(p->obj, "result");
	if (p->events_fd < 0 || p->slots_fd < 0 || p->config_fd < 0 || p->result_fd < 0)
		return -1;
	p->link = bsdk_prog_attach(prog);
	if (!p->link) {
		err = -errno;
		fail_msg("cannot attach '%s': %s", bsdk_prog_section(prog), bsdk_strerror(err));
		return err == -BSDK_ENOTSUPP ? EXIT_UNSUPPORTED : -1;
	}
	p->cfg.tgid = (__u32)getpid();
	printf("hook=%s section=%s object=%s\n", opt.hook, bsdk_prog_section(prog), path);
	return 0;
}

static void probe_close(struct probe *p)
{
	bsdk_link_destroy(p->link);
	bsdk_obj_close(p->obj);
}

/* Run the program once with the payload of size bytes and the given flags.
 * Returns 0 with the helper's return value in *ret, -1 when the program
 * did not run. */
static int probe_fire(struct probe *p, unsigned int size, uint64_t flags,
		      enum kern_target target, long long *ret)
{
	struct kern_result before, after;
	__u32 zero = 0;
	int err;

	p->cfg.size = size;
	p->cfg.flags = flags;
	p->cfg.target = target;
	if ((err = map_update(p->config_fd, &zero, &p->cfg)) ||
	    (err = map_lookup(p->result_fd, &zero, &before))) {
		fail_msg("config/result map: %s", strerror(-err));
		return -1;
	}
	kern_trigger();
	if ((err = map_lookup(p->result_fd, &zero, &after))) {
		fail_msg("result map: %s", strerror(-err));
		return -1;
	}
	if (after.calls != before.calls + 1) {
		fail_msg("the program ran %llu times for one trigger, expected 1",
			 (unsigned long long)(after.calls - before.calls));
		return -1;
	}
	*ret = after.ret;
	return 0;
}

/* A payload whose every byte is non-zero and depends on the size, so that
 * padding (zero or stale) and misplaced bytes show. */
static void fill_payload(struct probe *p, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < KERN_MAX_PAYLOAD; i++)
		p->cfg.payload[i] = (unsigned char)(0x80 | ((size * 5 + i) & 0x7f));
}

static void hex(char *out, const unsigned char *b, size_t n)
{
	size_t i;

	if (!n) {
		strcpy(out, "-");
		return;
	}
	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* The fields of a PERF_RECORD_SAMPLE with only PERF_SAMPLE_RAW: header,
 * u32 size, the data (padded). */
struct sample_view {
	unsigned int type, misc, header_size, raw_size;
	const unsigned char *raw;
};

static int view_sample(const unsigned char *rec, int len, struct sample_view *v)
{
	const struct perf_event_header *h = (const void *)rec;

	v->type = h->type;
	v->misc = h->misc;
	v->header_size = h->size;
	v->raw_size = 0;
	v->raw = NULL;
	if (h->type != PERF_RECORD_SAMPLE || len < 12)
		return -1;
	memcpy(&v->raw_size, rec + 8, 4);
	if (12 + (long)v->raw_size > len) {
		fail_msg("raw size %u does not fit the record of %d bytes", v->raw_size, len);
		return -1;
	}
	v->raw = rec + 12;
	return 0;
}

/* --------------------------------------------------------------- commands */

static int online_cpus(int *cpus, int max)
{
	int n = 0, possible = bsdk_cpu_possible_count(), c;

	for (c = 0; c < possible && n < max; c++)
		if (bsdk_cpu_is_online(c))
			cpus[n++] = c;
	return n;
}

static int cmd_records(struct probe *p)
{
	enum { MAX_CPUS = 256 };
	static struct ring rings[MAX_CPUS];
	int cpus[MAX_CPUS], n, i, j, err, rc = 1;
	unsigned char rec[512];
	long long ret;
	uint64_t pos;

	n = online_cpus(cpus, MAX_CPUS);
	printf("online_cpus=%d possible_cpus=%d\n", n, bsdk_cpu_possible_count());
	for (i = 0; i < n; i++) {
		if (ring_open(&rings[i], cpus[i], PERF_COUNT_SW_BPF_OUTPUT, 1))
			goto out;
		err = map_update(p->events_fd, &cpus[i], &rings[i].fd);
		printf("cpu=%d open=PERF_TYPE_SOFTWARE/PERF_COUNT_SW_BPF_OUTPUT type=%u config=%u sample_type=PERF_SAMPLE_RAW fd=%d stored_in_slot=%d store=%s\n",
		       cpus[i], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT,
		       rings[i].fd, cpus[i], err ? strerror(-err) : "ok");
		if (err)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct sample_view v = { 0 };
		int len, got = 0, elsewhere = 0;
		char payload_ok[16] = "none";

		if (pin_cpu(cpus[i]))
			goto out;
		fill_payload(p, 8);
		memcpy(p->cfg.payload, &cpus[i], sizeof(int));
		if (probe_fire(p, 8, BPF_F_CURRENT_CPU, KERN_TO_EVENTS, &ret))
			goto out;
		while ((len = ring_next(&rings[i], rec, sizeof(rec), &pos)) > 0) {
			got++;
			if (view_sample(rec, len, &v) == 0)
				strcpy(payload_ok, memcmp(v.raw, p->cfg.payload, 8) ? "mismatch" : "ok");
		}
		if (len < 0)
			goto out;
		for (j = 0; j < n; j++) {
			if (j == i)
				continue;
			while ((len = ring_next(&rings[j], rec, sizeof(rec), &pos)) > 0)
				elsewhere++;
		}
		printf("trigger_cpu=%d ret=%lld records_in_own_ring=%d records_elsewhere=%d record_type=%u%s header_size=%u raw_size=%u payload=%s\n",
		       cpus[i], ret, got, elsewhere, v.type,
		       v.type == PERF_RECORD_SAMPLE ? "(PERF_RECORD_SAMPLE)" : "",
		       got ? v.header_size : 0, got ? v.raw_size : 0, payload_ok);
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		ring_close(&rings[i]);
	return rc;
}

/* sizes and wrap: one ring on opt.cpu. wrap first fills it past its end
 * with records of 0xee bytes, so every padding byte lands on old data. */
static int cmd_sizes(struct probe *p, bool wrap)
{
	struct ring r;
	unsigned char rec[512], *before = NULL;
	unsigned int size;
	long long ret;
	uint64_t pos;
	int len, rc = 1;

	if (pin_cpu(opt.cpu) || ring_open(&r, opt.cpu, PERF_COUNT_SW_BPF_OUTPUT, wrap ? 1 : 2))
		return 1;
	if ((len = map_update(p->events_fd, &opt.cpu, &r.fd))) {
		fail_msg("storing the event in slot %d: %s", opt.cpu, strerror(-len));
		goto out;
	}
	printf("cpu=%d ring_bytes=%zu\n", opt.cpu, r.size);
	if (wrap) {
		unsigned int filler = 60, sent = 0;

		before = malloc(r.size);
		if (!before)
			goto out;
		memset(p->cfg.payload, 0xee, sizeof(p->cfg.payload));
		/* 60 bytes need no padding: 8 + 4 + 60 = 72 bytes a record;
		 * one and a half rings' worth overwrites every byte. */
		while (r.tail < r.size + r.size / 2) {
			if (probe_fire(p, filler, BPF_F_CURRENT_CPU, KERN_TO_EVENTS, &ret) || ret) {
				fail_msg("filling the ring: the helper returned %lld", ret);
				goto out;
			}
			sent++;
			while ((len = ring_next(&r, rec, sizeof(rec), &pos)) > 0)
				;
			if (len < 0)
				goto out;
		}
		printf("filled=%u records of %u bytes of 0xee wrapped=%s position=%llu\n",
		       sent, filler, r.tail > r.size ? "yes" : "no",
		       (unsigned long long)r.tail);
	}
	for (size = opt.from; size <= opt.to; size++) {
		struct sample_view v;
		char pad[2 * 16 + 1], old[2 * 16 + 1];
		unsigned char oldb[16];
		int records = 0;
		unsigned int npad;

		fill_payload(p, size);
		if (wrap)
			memcpy(before, r.data, r.size);
		if (probe_fire(p, size, BPF_F_CURRENT_CPU, KERN_TO_EVENTS, &ret))
			goto out;
		len = ring_next(&r, rec, sizeof(rec), &pos);
		if (len <= 0) {
			fail_msg("size %u: no record arrived (the helper returned %lld %s)",
				 size, ret, errno_name(ret));
			goto out;
		}
		while (ring_pending(&r) && ring_next(&r, rec + 256, sizeof(rec) - 256, &pos) > 0)
			records++;
		if (view_sample(rec, len, &v)) {
			printf("size=%u ret=%lld record_type=%u header_size=%u (not a sample)\n",
			       size, ret, v.type, v.header_size);
			continue;
		}
		npad = v.raw_size > size ? v.raw_size - size : 0;
		if (npad > 16)
			npad = 16;
		hex(pad, v.raw + size, npad);
		printf("size=%u ret=%lld record_type=%u header_size=%u raw_size=%u payload=%s padding=%s",
		       size, ret, v.type, v.header_size, v.raw_size,
		       v.raw_size >= size && !memcmp(v.raw, p->cfg.payload, size) ? "ok" : "mismatch",
		       pad);
		if (wrap) {
			/* The bytes the padding landed on, from the copy
			 * taken before the trigger: the record started at
			 * pos; its raw data 12 bytes later. */
			unsigned int i;

			for (i = 0; i < npad; i++)
				oldb[i] = before[(pos + 12 + size + i) & (r.size - 1)];
			hex(old, oldb, npad);
			printf(" before=%s", old);
		}
		printf(" extra_records=%d\n", records);
	}
	rc = 0;
out:
	free(before);
	ring_close(&r);
	return rc;
}

static int cmd_errors(struct probe *p)
{
	struct ring own, other, dummy;
	int cpus[8], n, other_cpu = -1, i, err, rc = 1;
	unsigned char rec[512];
	uint64_t pos;
	long long ret;
	struct {
		const char *name;
		uint64_t flags;
		const char *meaning;
		bool needs_other;
	} cases[] = {
		{ "ok", 0, "slot 0: a BPF output event of this CPU", false },
		{ "index_out_of_range", KERN_SLOTS, "index = max_entries", false },
		{ "index_far_out_of_range", 0xfffffffeULL, "index 0xfffffffe", false },
		{ "empty_slot", 3, "slot 3: nothing stored", false },
		{ "not_bpf_output", 2, "slot 2: a PERF_COUNT_SW_DUMMY event", false },
		{ "other_cpu", 1, "slot 1: a BPF output event of another CPU", true },
		{ "unknown_flags", 1ULL << 32, "index 0 with bit 32 set", false },
		{ "unknown_flags_high", (1ULL << 63) | BPF_F_CURRENT_CPU, "BPF_F_CURRENT_CPU with bit 63 set", false },
	};

	own.fd = other.fd = dummy.fd = -1;
	own.base = other.base = dummy.base = NULL;
	n = online_cpus(cpus, 8);
	for (i = 0; i < n; i++)
		if (cpus[i] != opt.cpu) {
			other_cpu = cpus[i];
			break;
		}
	if (pin_cpu(opt.cpu))
		return 1;
	if (ring_open(&own, opt.cpu, PERF_COUNT_SW_BPF_OUTPUT, 1) ||
	    ring_open(&dummy, opt.cpu, PERF_COUNT_SW_DUMMY, 0))
		goto out;
	if (other_cpu >= 0 && ring_open(&other, other_cpu, PERF_COUNT_SW_BPF_OUTPUT, 0))
		goto out;
	for (i = 0; i < 3; i++) {
		int fd = i == 0 ? own.fd : i == 1 ? other.fd : dummy.fd;

		if (fd < 0)
			continue;
		err = map_update(p->slots_fd, &i, &fd);
		printf("slot=%d holds=%s store=%s\n", i,
		       i == 0 ? "BPF_OUTPUT(this cpu)" : i == 1 ? "BPF_OUTPUT(other cpu)" : "SW_DUMMY(this cpu)",
		       err ? strerror(-err) : "ok");
		if (err)
			goto out;
	}
	printf("cpu=%d other_cpu=%d max_entries=%d\n", opt.cpu, other_cpu, KERN_SLOTS);
	for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		int records = 0;

		if (cases[i].needs_other && other_cpu < 0) {
			printf("case=%s skipped=only-one-online-cpu\n", cases[i].name);
			continue;
		}
		fill_payload(p, 8);
		if (probe_fire(p, 8, cases[i].flags, KERN_TO_SLOTS, &ret))
			goto out;
		while (ring_next(&own, rec, sizeof(rec), &pos) > 0)
			records++;
		printf("case=%s flags=0x%llx ret=%lld errno=%s records=%d what=\"%s\"\n",
		       cases[i].name, (unsigned long long)cases[i].flags, ret,
		       errno_name(ret), records, cases[i].meaning);
	}
	rc = 0;
out:
	ring_close(&own);
	ring_close(&other);
	ring_close(&dummy);
	return rc;
}

struct pb_check {
	uint64_t received, bad;
	uint64_t per_cpu[256];
};

static void pb_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct pb_check *c = ctx;
	const unsigned char *b = data;
	unsigned int sent = b[0], i;

	c->received++;
	if (cpu >= 0 && cpu < 256)
		c->per_cpu[cpu]++;
	/* Byte 0 says how many bytes were sent; the reader reports the
	 * padded size. */
	if (sent < 1 || sent > KERN_MAX_PAYLOAD ||
	    size != ((sent + 4 + 7) & ~7u) - 4) {
		c->bad++;
		return;
	}
	for (i = 1; i < sent; i++)
		if (b[i] != (unsigned char)(0x80 | ((sent * 5 + i) & 0x7f))) {
			c->bad++;
			return;
		}
}

static int cmd_perfbuf(struct probe *p)
{
	struct pb_check check;
	struct bsdk_perfbuf_opts o;
	struct bsdk_perfbuf_stats st;
	struct bsdk_perfbuf *pb;
	int cpus[256], n, i, rc = 1;
	uint64_t sent = 0;
	unsigned int k;
	long long ret;
	struct timespec t0, t1;

	memset(&check, 0, sizeof(check));
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.on_sample = pb_sample;
	o.ctx = &check;
	pb = bsdk_perfbuf_new(p->events_fd, &o);
	if (!pb) {
		fail_msg("bsdk_perfbuf_new: %s", bsdk_strerror(errno));
		return 1;
	}
	n = online_cpus(cpus, 256);
	for (i = 0; i < n; i++) {
		if (pin_cpu(cpus[i]))
			goto out;
		for (k = 0; k < opt.count; k++) {
			unsigned int size = 1 + k % KERN_MAX_PAYLOAD;

			fill_payload(p, size);
			p->cfg.payload[0] = (unsigned char)size;
			if (probe_fire(p, size, BPF_F_CURRENT_CPU, KERN_TO_EVENTS, &ret))
				goto out;
			if (ret == 0)
				sent++;
			/* Keep the rings from filling up. */
			if (k % 64 == 63 && bsdk_perfbuf_consume(pb) < 0)
				goto out;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (check.received < sent) {
		if (bsdk_perfbuf_poll(pb, 100) < 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 5)
			break;
	}
	bsdk_perfbuf_stats(pb, &st);
	printf("cpus=%d sent=%llu received=%llu bad=%llu lost=%llu",
	       n, (unsigned long long)sent, (unsigned long long)check.received,
	       (unsigned long long)check.bad, (unsigned long long)st.lost);
	for (i = 0; i < n; i++)
		printf(" cpu%d=%llu", cpus[i], (unsigned long long)check.per_cpu[cpus[i] & 255]);
	printf("\n");
	rc = 0;
out:
	bsdk_perfbuf_free(pb);
	return rc;
}

/* The verifier's log arrives through the loader's log hook; show it. */
static void print_log(enum bsdk_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	printf("log(%s): %s\n", level == BSDK_LOG_ERROR ? "error" :
	       level == BSDK_LOG_WARN ? "warn" : "info", msg);
}

static int cmd_load(const char *path)
{
	struct bsdk_obj *obj;
	int err;

	bsdk_set_log(print_log, NULL);
	obj = bsdk_obj_open(path);
	if (!obj) {
		fail_msg("cannot open '%s': %s", path, bsdk_strerror(errno));
		return 1;
	}
	printf("object=%s license=\"%s\"\n", path, bsdk_obj_license(obj));
	err = bsdk_obj_load(obj);
	if (err == 0)
		printf("verdict=accepted\n");
	else if (err == -BSDK_EVERIFIER)
		printf("verdict=rejected\n");
	else
		printf("verdict=error (%s)\n", bsdk_strerror(err));
	bsdk_obj_close(obj);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "object", required_argument, NULL, 'o' },
		{ "hook", required_argument, NULL, 'H' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "count", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct probe p;
	const char *cmd;
	char *end;
	long v;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:H:c:n:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			opt.object = optarg;
			break;
		case 'H':
			if (strcmp(optarg, "tracepoint") && strcmp(optarg, "kprobe") &&
			    strcmp(optarg, "uprobe")) {
				fprintf(stderr, "error: hook '%s' is not tracepoint, kprobe or uprobe\n", optarg);
				return 2;
			}
			opt.hook = optarg;
			break;
		case 'c': case 'F': case 'T': case 'n':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 0 || v > 1000000) {
				fprintf(stderr, "error: '%s' is not a number from 0 to 1000000\n", optarg);
				return 2;
			}
			if (c == 'c')
				opt.cpu = (int)v;
			else if (c == 'F')
				opt.from = (unsigned int)v;
			else if (c == 'T')
				opt.to = (unsigned int)v;
			else
				opt.count = (unsigned int)v;
			break;
		case 'v':
			opt.verbose++;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs("try 'kern_probe --help'\n", stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fputs("error: no command given (try --help)\n", stderr);
		return 2;
	}
	if (opt.from < 1 || opt.to > KERN_MAX_PAYLOAD || opt.from > opt.to) {
		fprintf(stderr, "error: sizes --from %u --to %u are not within 1..%d\n",
			opt.from, opt.to, KERN_MAX_PAYLOAD);
		return 2;
	}
	cmd = argv[optind];
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (opt.verbose)
		bsdk_set_log_level(opt.verbose > 1 ? BSDK_LOG_DEBUG : BSDK_LOG_INFO);
	bsdk_bump_memlock();

	if (strcmp(cmd, "load") == 0) {
		if (optind + 2 != argc) {
			fputs("error: 'load' takes one object path\n", stderr);
			return 2;
		}
		return cmd_load(argv[optind + 1]);
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "error: unexpected argument '%s'\n", argv[optind + 1]);
		return 2;
	}
	if (strcmp(cmd, "records") && strcmp(cmd, "sizes") && strcmp(cmd, "wrap") &&
	    strcmp(cmd, "errors") && strcmp(cmd, "perfbuf")) {
		fprintf(stderr, "error: unknown command '%s' (try --help)\n", cmd);
		return 2;
	}

	rc = probe_open(&p);
	if (rc == 0) {
		if (strcmp(cmd, "records") == 0)
			rc = cmd_records(&p);
		else if (strcmp(cmd, "sizes") == 0)
			rc = cmd_sizes(&p, false);
		else if (strcmp(cmd, "wrap") == 0)
			rc = cmd_sizes(&p, true);
		else if (strcmp(cmd, "errors") == 0)
			rc = cmd_errors(&p);
		else
			rc = cmd_perfbuf(&p);
	} else if (rc < 0) {
		rc = 1;
	}
	probe_close(&p);
	return rc;
}
