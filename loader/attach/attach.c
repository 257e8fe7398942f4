// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach.c - connect a loaded program to the hook its section names.
 *
 * Tracepoints and kprobes are perf events: open the event, then bind the
 * program to it - with a BPF link (BPF_LINK_CREATE, kernel 5.15+) where
 * the kernel has them, else with the older PERF_EVENT_IOC_SET_BPF.
 * kprobes are opened through their PMU ("kprobe" under
 * /sys/bus/event_source/devices), which needs no tracefs writes and
 * vanishes with the fd. Raw tracepoints have their own bpf() command.
 * The other attach points (uprobes, system calls, the BTF-typed ones,
 * USDT) are methods the layers above define, each with its function.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "attach/attach.h"

const char *const tracefs_roots[TRACEFS_ROOTS] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static int read_long(const char *path, long *val)
{
	char buf[64], *end;
	int err = read_file(path, buf, sizeof(buf));

	if (err < 0)
		return err;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int bind_perf_event(struct bsdk_prog *prog, struct bsdk_link *link, int pfd)
{
	union bpf_attr attr;
	int fd;

	link->perf_fd = pfd;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog->fd;
	attr.link_create.target_fd = pfd;
	attr.link_create.attach_type = BPF_PERF_EVENT;
	fd = sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd >= 0) {
		link->link_fd = fd;
	} else if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog->fd) < 0) {
		return log_fail(errno, "program '%s': cannot attach to its perf event: %s", prog->fn.name, bsdk_strerror(errno));
	}
	if (ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return log_fail(errno, "program '%s': cannot enable its perf event: %s", prog->fn.name, bsdk_strerror(errno));
	return 0;
}

/* Set from above: why a tracepoint's id could not be read. */
static tracepoint_explain_fn explain_missing;

void attach_tracepoint_explain_set(tracepoint_explain_fn fn)
{
	explain_missing = fn;
}

static int attach_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link)
{
	struct perf_event_attr attr;
	char path[PATH_MAX];
	long id = -1;
	int pfd, err = -ENOENT;
	size_t i;

	/* "CAT/NAME": both parts, no way out of the events directory. */
	if (!strchr(prog->target, '/') && !strstr(prog->target, "..") && explain_missing &&
	    (pfd = explain_missing(prog, tracefs_roots[0], -ENOENT)))
		return pfd;	/* the category it is in */
	if (!strchr(prog->target, '/') || strstr(prog->target, ".."))
		return log_fail(BSDK_ESECTION, "program '%s': tracepoint '%s' is not of the form CATEGORY/NAME",
				prog->fn.name, prog->target);
	for (i = 0; i < TRACEFS_ROOTS && err == -ENOENT; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/id", tracefs_roots[i], prog->target);
		err = read_long(path, &id);
	}
	if (err && explain_missing && (pfd = explain_missing(prog, tracefs_roots[i - 1], err)))
		return pfd;
	if (err == -ENOENT)
		return log_fail(BSDK_ENOPROBE, "program '%s': tracepoint '%s' does not exist on this kernel (see %s/events)",
				prog->fn.name, prog->target, tracefs_roots[0]);
	if (err)
		return log_fail(-err, "program '%s': tracepoint '%s': cannot read %s: %s%s",
				prog->fn.name, prog->target, path, bsdk_strerror(err),
				err == -EMFILE ? " (" FD_LIMIT_HINT ")" : "");

	attr = (struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr), .config = (uint64_t)id };
	/* One event on CPU 0 is enough: the program runs on every CPU. */
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open tracepoint '%s': %s%s",
				prog->fn.name, prog->target, bsdk_strerror(pfd), perf_open_hint(pfd));
	return bind_perf_event(prog, link, pfd);
}

static int attach_raw_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uint64_t)(uintptr_t)prog->target;
	attr.raw_tracepoint.prog_fd = prog->fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
	if (fd == -ENOENT)
		return log_fail(BSDK_ENOPROBE, "program '%s': raw tracepoint '%s' does not exist on this kernel",
				prog->fn.name, prog->target);
	if (fd < 0)
		return log_fail(-fd, "program '%s': cannot attach to raw tracepoint '%s': %s",
				prog->fn.name, prog->target, bsdk_strerror(fd));
	link->link_fd = fd;
	return 0;
}

/* What a PMU's two files said, read once per process and PMU: every kprobe, uprobe and
 * attach check asks, and the answer does not change while the kernel runs. A PMU not
 * there (or unreadable) is read again at the next question. */
static struct pmu_known {
	const char *name;
	int type, ret_bit;
	int known;		/* set last, with release: type and ret_bit are then read */
} pmus_known[] = { { "kprobe", 0, 0, 0 }, { "uprobe", 0, 0, 0 } };

static int pmu_read(const char *pmu, int *type, int *ret_bit)
{
	char path[128], buf[64];
	long val;
	int err;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	err = read_long(path, &val);
	if (err)
		return err;
	*type = (int)val;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/retprobe", pmu);
	err = read_file(path, buf, sizeof(buf));
	if (err < 0)
		return err;
	if (sscanf(buf, "config:%d", ret_bit) != 1 || *ret_bit < 0 || *ret_bit > 63)
		return -EINVAL;
	return 0;
}

int probe_pmu(const char *pmu, int *type, int *ret_bit)
{
	struct pmu_known *k = NULL;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(pmus_known) && !k; i++)
		if (strcmp(pmus_known[i].name, pmu) == 0)
			k = &pmus_known[i];
	if (k && __atomic_load_n(&k->known, __ATOMIC_ACQUIRE)) {
		*type = k->type;
		*ret_bit = k->ret_bit;
		return 0;
	}
	err = pmu_read(pmu, type, ret_bit);
	if (!err && k) {
		/* two threads may both read: they write the same values */
		k->type = *type;
		k->ret_bit = *ret_bit;
		__atomic_store_n(&k->known, 1, __ATOMIC_RELEASE);
	}
	return err;
}

int open_probe(struct bsdk_prog *prog, const char *pmu, bool retprobe, int pid,
	       const char *name, uint64_t config2, const char *what)
{
	struct perf_event_attr attr;
	int type, ret_bit, pfd, err;

	err = probe_pmu(pmu, &type, &ret_bit);
	if (err == -ENOENT)
		return log_fail(BSDK_ENOTSUPP, "program '%s': this kernel has no %s support (no '%s' PMU in /sys/bus/event_source/devices): cannot attach '%s'",
				prog->fn.name, pmu, pmu, prog->section);
	if (err)
		return log_fail(-err, "program '%s': cannot read the '%s' PMU in /sys/bus/event_source/devices: %s",
				prog->fn.name, pmu, bsdk_strerror(err));
	attr = (struct perf_event_attr){ .size = sizeof(attr),
		.type = (uint32_t)type,
		.config = retprobe ? 1ull << ret_bit : 0,
		.config1 = (uint64_t)(uintptr_t)name, .config2 = config2 };
	/* A probe of one process follows it on any CPU; of all, on CPU 0 is
	 * enough: the program runs on every CPU. */
	pfd = sys_perf_event_open(&attr, pid, pid >= 0 ? -1 : 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd == -ENOENT || pfd == -EINVAL || pfd == -ENXIO)
		return log_fail(BSDK_ENOPROBE, "program '%s': %s target '%s' not found%s",
				prog->fn.name, pmu, what,
				strcmp(pmu, "kprobe") == 0 ?
				" (is it in /proc/kallsyms, and not inlined or blacklisted?)" : "");
	if (pfd == -ESRCH)
		return log_fail(ESRCH, "program '%s': %s '%s': no process %d",
				prog->fn.name, pmu, what, pid);
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open %s '%s': %s%s",
				prog->fn.name, pmu, what, bsdk_strerror(pfd), perf_open_hint(pfd));
	return pfd;
}

int split_name_offset(const struct bsdk_prog *prog, const char *s,
		      char *name, size_t size, unsigned long long *off)
{
	const char *plus = strchr(s, '+');
	size_t len = plus ? (size_t)(plus - s) : strlen(s);
	char *end;

	if (len == 0 || len >= size)
		return log_fail(BSDK_ESECTION, "program '%s': %s target '%s': the name is empty or too long",
				prog->fn.name, prog->kind->type_name, prog->target);
	memcpy(name, s, len);
	name[len] = '\0';
	errno = 0;
	*off = plus ? strtoull(plus + 1, &end, 0) : 0;
	/* strtoull takes "", blanks and a sign: "f+" is no offset 0 */
	if (plus && (*end || errno || !(plus[1] >= '0' && plus[1] <= '9')))
		return log_fail(BSDK_ESECTION, "program '%s': %s offset '%s' is not a number",
				prog->fn.name, prog->kind->type_name, plus + 1);
	return 0;
}

/* "FUNC" or "FUNC+OFFSET" */
static int attach_kprobe(struct bsdk_prog *prog, struct bsdk_link *link)
{
	char func[256];
	unsigned long long off;
	int pfd = split_name_offset(prog, prog->target, func, sizeof(func), &off);

	if (pfd)
		return pfd;
	pfd = open_probe(prog, "kprobe", prog->kind->retprobe, -1, func, off, prog->target);
	return pfd < 0 ? pfd : bind_perf_event(prog, link, pfd);
}

struct bsdk_link *bsdk_prog_attach_perf_event(struct bsdk_prog *prog, int perf_fd)
{
	struct bsdk_link *link;
	int err, fd;

	if (prog->kind->prog_type != BPF_PROG_TYPE_PERF_EVENT &&
	    prog->kind->prog_type != BPF_PROG_TYPE_KPROBE &&
	    prog->kind->prog_type != BPF_PROG_TYPE_TRACEPOINT) {
		log_error("program '%s': a %s program cannot attach to a perf event",
			  prog->fn.name, prog->kind->type_name);
		return fail_ptr(EINVAL);
	}
	if (perf_fd < 0) {
		log_error("program '%s': perf event fd %d is not valid", prog->fn.name, perf_fd);
		return fail_ptr(EBADF);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	/* The link owns what it holds: keep the caller's fd theirs. */
	fd = fcntl(perf_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		err = log_fail(errno, "program '%s': perf event fd %d: %s", prog->fn.name,
			       perf_fd, bsdk_strerror(errno));
		link_free(link);
		return fail_ptr(-err);
	}
	err = bind_perf_event(prog, link, fd);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	log_info("program '%s': attached to perf event fd %d", prog->fn.name, perf_fd);
	link_add(prog, link);
	return link;
}

/* ---- the methods of the section table (object/prog.c) */

/* The function of prog's method: the core's are this file's; a method of a
 * layer above brings its own. */
static attach_fn method_fn(const struct attach_method *m)
{
	if (m == &attach_by_tracepoint)
		return attach_tracepoint;
	if (m == &attach_by_raw_tracepoint)
		return attach_raw_tracepoint;
	if (m == &attach_by_kprobe)
		return attach_kprobe;
	return m->attach;
}

struct bsdk_link *bsdk_prog_attach(struct bsdk_prog *prog)
{
	struct bsdk_link *link;
	attach_fn fn;
	int err;

	if (prog->fd >= 0 && !prog->kind->method) {
		log_error("program '%s': section '%s' has no attach point of its own: %s",
			  prog->fn.name, prog->section, prog->kind->manual);
		return fail_ptr(EOPNOTSUPP);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	fn = prog->kind->method ? method_fn(prog->kind->method) : NULL;
	if (!fn) {
		link_free(link);
		log_error("program '%s': attaching %s programs is not in this build of the library",
			  prog->fn.name, prog->kind->type_name);
		return fail_ptr(EOPNOTSUPP);
	}
	err = fn(prog, link);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	log_info("program '%s': attached to %s '%s'", prog->fn.name,
		 prog->kind->type_name, prog->target);
	link_add(prog, link);
	return link;
}

int bsdk_progs_attach(struct bsdk_prog *const *progs, size_t n, struct bsdk_link **links)
{
	if (n && (!progs || !links))
		return fail(EINVAL);
	for (size_t i = 0; i < n; i++) {
		if (!progs[i])
			return fail(EINVAL);
		/* In the caller's order: it knows which program must see events first. */
		links[i] = bsdk_prog_attach(progs[i]);
		if (!links[i])
			return -errno;	/* said by bsdk_prog_attach() */
	}
	return 0;
}
