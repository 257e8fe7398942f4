// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * faultinject.so - fails the Nth call of one kind with a chosen errno, and
 * counts the calls of every kind a run makes.
 *
 * Preloaded (LD_PRELOAD) into a program by tests/faults/walk, which counts a
 * workflow's calls once and then fails each of them in turn. Environment:
 *
 *   BSDK_FAULT=KIND:N[:ERRNO]   fail the Nth call (from 1) of KIND with ERRNO
 *                               (a name: ENOMEM, EPERM, E2BIG, EINTR, EAGAIN,
 *                               EMFILE, ...; ENOMEM when left out); only that
 *                               one call fails, the next ones go through.
 *                               ERRNO SIGKILL instead kills the process with
 *                               SIGKILL right before the call: a moment to die
 *   BSDK_FAULT_COUNTS=FILE      at exit, write "KIND COUNT" lines to FILE:
 *                               every kind, then bpf.CMD for each bpf() command
 *   BSDK_FAULT_FIRED=FILE       when the fault fires, write "KIND N ERRNO" and
 *                               the call's stack to FILE (so a walk knows the
 *                               point existed in this run, and where it was)
 *   BSDK_FAULT_IDS=FILE         append "prog ID", "map ID", "link ID", "btf ID"
 *                               for every BPF object the process creates, and
 *                               "pin PATH" for every pin, so that a walk can
 *                               ask the kernel afterwards whether any is left
 *
 * KIND is one of
 *   alloc            malloc, calloc, realloc (libc's own strdup, asprintf,
 *                    fopen... allocate through them and count too)
 *   bpf, bpf.CMD     the bpf() system call, any command or only CMD
 *                    (bpf.PROG_LOAD, bpf.MAP_CREATE, bpf.LINK_CREATE, ...)
 *   perf_event_open  the perf_event_open() system call
 *   mmap             mmap
 *   open             open, openat, fopen
 *   epoll            epoll_create1, epoll_ctl, epoll_wait, epoll_pwait
 *   ioctl            ioctl
 *   read             read
 *
 * The counts are the whole process's (libelf and libc allocate too): what a
 * walk needs is that the same run makes the same calls. Only the process
 * the library was preloaded into counts and fails: a forked child does not,
 * and LD_PRELOAD is taken out of the environment so that a program the run
 * starts does not load it either.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum kind { K_ALLOC, K_BPF, K_PERF, K_MMAP, K_OPEN, K_EPOLL, K_IOCTL, K_READ, NKINDS };

static const char *const kind_names[NKINDS] = {
	"alloc", "bpf", "perf_event_open", "mmap", "open", "epoll", "ioctl", "read",
};

/* bpf() commands by number, as the UAPI header numbers them */
static const char *const bpf_cmds[] = {
	"MAP_CREATE", "MAP_LOOKUP_ELEM", "MAP_UPDATE_ELEM", "MAP_DELETE_ELEM",
	"MAP_GET_NEXT_KEY", "PROG_LOAD", "OBJ_PIN", "OBJ_GET", "PROG_ATTACH",
	"PROG_DETACH", "PROG_TEST_RUN", "PROG_GET_NEXT_ID", "MAP_GET_NEXT_ID",
	"PROG_GET_FD_BY_ID", "MAP_GET_FD_BY_ID", "OBJ_GET_INFO_BY_FD", "PROG_QUERY",
	"RAW_TRACEPOINT_OPEN", "BTF_LOAD", "BTF_GET_FD_BY_ID", "TASK_FD_QUERY",
	"MAP_LOOKUP_AND_DELETE_ELEM", "MAP_FREEZE", "BTF_GET_NEXT_ID",
	"MAP_LOOKUP_BATCH", "MAP_LOOKUP_AND_DELETE_BATCH", "MAP_UPDATE_BATCH",
	"MAP_DELETE_BATCH", "LINK_CREATE", "LINK_UPDATE", "LINK_GET_FD_BY_ID",
	"LINK_GET_NEXT_ID", "ENABLE_STATS", "ITER_CREATE", "LINK_DETACH", "PROG_BIND_MAP",
};
#define NCMDS (sizeof(bpf_cmds) / sizeof(bpf_cmds[0]))

static const struct { const char *name; int value; } errnos[] = {
	{ "ENOMEM", ENOMEM }, { "EPERM", EPERM }, { "E2BIG", E2BIG }, { "EINTR", EINTR },
	{ "EAGAIN", EAGAIN }, { "EMFILE", EMFILE }, { "ENFILE", ENFILE }, { "EACCES", EACCES },
	{ "EINVAL", EINVAL }, { "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EBUSY", EBUSY },
	{ "ENOENT", ENOENT }, { "EFAULT", EFAULT }, { "SIGKILL", -SIGKILL },
};

static pid_t owner;			/* the only process that counts and fails */
static bool armed;			/* BSDK_FAULT was given and understood */
static enum kind fault_kind;
static int fault_cmd = -1;		/* bpf.CMD: only that command */
static unsigned long fault_nth;
static int fault_errno = ENOMEM;
static const char *counts_path, *fired_path, *ids_path;

static unsigned long counts[NKINDS];
static unsigned long cmd_counts[NCMDS + 1];	/* the last: commands past the table */
static unsigned long fault_seen;		/* calls that matched kind (and cmd) */
static __thread int busy __attribute__((tls_model("initial-exec")));			/* inside the shim: pass through */

/* The real functions. Allocations go to the next malloc in the lookup
 * order (libc's, or a sanitizer's); until dlsym() has found it, which may
 * allocate itself, small requests come from a static arena. */
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static long (*real_syscall)(long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static int (*real_epoll_create1)(int);
static int (*real_epoll_ctl)(int, int, int, struct epoll_event *);
static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
static int (*real_epoll_pwait)(int, struct epoll_event *, int, int, const sigset_t *);
static int (*real_ioctl)(int, unsigned long, ...);
static ssize_t (*real_read)(int, void *, size_t);

static _Alignas(16) char arena[16384];
static size_t arena_used;
static int resolving;

static void *arena_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (arena_used + size > sizeof(arena))
		return NULL;
	arena_used += size;
	return arena + arena_used - size;
}

static bool in_arena(const void *p)
{
	return (const char *)p >= arena && (const char *)p < arena + sizeof(arena);
}

#define RESOLVE(fn) (real_##fn = (__typeof__(real_##fn))dlsym(RTLD_NEXT, #fn))

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	RESOLVE(calloc);
	RESOLVE(realloc);
	RESOLVE(free);
	RESOLVE(syscall);
	RESOLVE(mmap);
	RESOLVE(open);
	RESOLVE(openat);
	RESOLVE(fopen);
	RESOLVE(epoll_create1);
	RESOLVE(epoll_ctl);
	RESOLVE(epoll_wait);
	RESOLVE(epoll_pwait);
	RESOLVE(ioctl);
	RESOLVE(read);
	RESOLVE(malloc);	/* last: its being set says all are */
	resolving = 0;
}

static void parse_fault(const char *spec)
{
	char kind[64];
	const char *colon = strchr(spec, ':'), *dot;
	size_t n;

	if (!colon || (size_t)(colon - spec) >= sizeof(kind))
		goto bad;
	memcpy(kind, spec, colon - spec);
	kind[colon - spec] = '\0';
	dot = strchr(kind, '.');
	if (dot && strncmp(kind, "bpf.", 4) == 0) {
		for (n = 0; n < NCMDS; n++)
			if (strcmp(dot + 1, bpf_cmds[n]) == 0)
				fault_cmd = (int)n;
		if (fault_cmd < 0)
			goto bad;
		kind[3] = '\0';
	}
	for (n = 0; n < NKINDS && strcmp(kind, kind_names[n]) != 0; n++)
		;
	if (n == NKINDS)
		goto bad;
	fault_kind = (enum kind)n;
	fault_nth = strtoul(colon + 1, (char **)&colon, 10);
	if (fault_nth == 0)
		goto bad;
	if (*colon == ':') {
		for (n = 0; n < sizeof(errnos) / sizeof(errnos[0]); n++)
			if (strcmp(colon + 1, errnos[n].name) == 0)
				break;
		if (n == sizeof(errnos) / sizeof(errnos[0]))
			goto bad;
		fault_errno = errnos[n].value;
	} else if (*colon) {
		goto bad;
	}
	armed = true;
	return;
bad:
	/* a walk that asks for a fault nobody can fire must not pass as clean */
	dprintf(2, "faultinject: cannot read BSDK_FAULT='%s' (KIND:N[:ERRNO])\n", spec);
	_exit(125);
}

static void write_counts(void)
{
	FILE *f;

	if (!counts_path || getpid() != owner)
		return;
	busy++;
	f = fopen(counts_path, "w");
	if (f) {
		for (int k = 0; k < NKINDS; k++)
			fprintf(f, "%s %lu\n", kind_names[k], counts[k]);
		for (size_t c = 0; c <= NCMDS; c++)
			if (cmd_counts[c])
				fprintf(f, "bpf.%s %lu\n", c < NCMDS ? bpf_cmds[c] : "OTHER",
					cmd_counts[c]);
		fclose(f);
	}
	busy--;
}

__attribute__((constructor)) static void faultinject_init(void)
{
	const char *spec;

	resolve();
	busy++;
	owner = getpid();
	spec = getenv("BSDK_FAULT");
	counts_path = getenv("BSDK_FAULT_COUNTS");
	fired_path = getenv("BSDK_FAULT_FIRED");
	ids_path = getenv("BSDK_FAULT_IDS");
	if (spec && *spec)
		parse_fault(spec);
	unsetenv("LD_PRELOAD");
	atexit(write_counts);
	busy--;
}

static void report_fired(void)
{
	void *frames[32];
	int fd, n;

	if (!fired_path)
		return;
	fd = real_open(fired_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	dprintf(fd, "%s%s%s %lu %s\n", kind_names[fault_kind], fault_cmd >= 0 ? "." : "",
		fault_cmd >= 0 ? bpf_cmds[fault_cmd] : "", fault_nth,
		fault_errno < 0 ? "SIGKILL" : strerrorname_np(fault_errno));
	n = backtrace(frames, 32);
	backtrace_symbols_fd(frames, n, fd);
	close(fd);
}

/* Count a call of KIND (bpf command CMD, or -1); true when it is the one
 * to fail, with errno set. */
static bool fail_here(enum kind kind, long cmd)
{
	bool fire;

	if (busy || !owner || getpid() != owner)
		return false;
	busy++;
	__atomic_add_fetch(&counts[kind], 1, __ATOMIC_RELAXED);
	if (kind == K_BPF)
		__atomic_add_fetch(&cmd_counts[cmd >= 0 && cmd < (long)NCMDS ? cmd : (long)NCMDS],
				   1, __ATOMIC_RELAXED);
	fire = armed && kind == fault_kind && (fault_cmd < 0 || fault_cmd == cmd) &&
	       __atomic_add_fetch(&fault_seen, 1, __ATOMIC_RELAXED) == fault_nth;
	if (fire)
		report_fired();
	if (fire && fault_errno == -SIGKILL)
		raise(SIGKILL);
	busy--;
	if (fire)
		errno = fault_errno;
	return fire;
}

void *malloc(size_t size)
{
	if (!real_malloc) {
		resolve();
		if (!real_malloc)
			return arena_alloc(size);
	}
	return fail_here(K_ALLOC, -1) ? NULL : real_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (!real_malloc) {
		resolve();
		if (!real_malloc) {
			/* the arena is zeroed and never reused */
			if (size && n > SIZE_MAX / size)
				return NULL;
			return arena_alloc(n * size);
		}
	}
	return fail_here(K_ALLOC, -1) ? NULL : real_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (!real_malloc)
		resolve();
	if (in_arena(p)) {
		void *q = malloc(size);

		if (q)
			memcpy(q, p, size < (size_t)(arena + sizeof(arena) - (char *)p) ?
				     size : (size_t)(arena + sizeof(arena) - (char *)p));
		return q;
	}
	return fail_here(K_ALLOC, -1) ? NULL : real_realloc(p, size);
}

void free(void *p)
{
	if (!p || in_arena(p))
		return;
	if (!real_free)
		resolve();
	real_free(p);
}

/* Append what bpf(cmd) just created (fd ret) to BSDK_FAULT_IDS. The info
 * structs of progs, maps and links start with type and id; a BTF's with
 * its data pointer, size and id. */
static void record_id(long cmd, long ret, const union bpf_attr *in)
{
	static const char *const what[] = {
		[BPF_PROG_LOAD] = "prog", [BPF_MAP_CREATE] = "map", [BPF_BTF_LOAD] = "btf",
		[BPF_LINK_CREATE] = "link", [BPF_RAW_TRACEPOINT_OPEN] = "link",
	};
	__u32 info[16] = { 0 };
	union bpf_attr attr;
	const char *w;
	int fd;

	if (!ids_path || busy || getpid() != owner || ret < 0)
		return;
	if (cmd == BPF_OBJ_PIN) {
		w = "pin";
	} else if (cmd >= 0 && cmd < (long)(sizeof(what) / sizeof(what[0])) && what[cmd]) {
		w = what[cmd];
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = (__u32)ret;
		attr.info.info_len = sizeof(info);
		attr.info.info = (__u64)(uintptr_t)info;
		if (real_syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) < 0)
			return;
	} else {
		return;
	}
	busy++;
	fd = real_open(ids_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (cmd == BPF_OBJ_PIN)
			dprintf(fd, "pin %s\n", (const char *)(uintptr_t)in->pathname);
		else
			dprintf(fd, "%s %u\n", w, cmd == BPF_BTF_LOAD ? info[3] : info[1]);
		close(fd);
	}
	busy--;
}

long syscall(long nr, ...)
{
	va_list ap;
	long a[6], ret;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_bpf && fail_here(K_BPF, a[0]))
		return -1;
	if (nr == __NR_perf_event_open && fail_here(K_PERF, -1))
		return -1;
	ret = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == __NR_bpf && ret >= 0) {
		int saved = errno;

		record_id(a[0], ret, (const union bpf_attr *)a[1]);
		errno = saved;
	}
	return ret;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fail_here(K_MMAP, -1))
		return MAP_FAILED;
	return real_mmap(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	if (fail_here(K_OPEN, -1))
		return -1;
	return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	if (fail_here(K_OPEN, -1))
		return -1;
	return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

FILE *fopen(const char *path, const char *mode)
{
	return fail_here(K_OPEN, -1) ? NULL : real_fopen(path, mode);
}

FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));

int epoll_create1(int flags)
{
	return fail_here(K_EPOLL, -1) ? -1 : real_epoll_create1(flags);
}

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	return fail_here(K_EPOLL, -1) ? -1 : real_epoll_ctl(epfd, op, fd, ev);
}

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
	return fail_here(K_EPOLL, -1) ? -1 : real_epoll_wait(epfd, ev, max, timeout);
}

int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
	return fail_here(K_EPOLL, -1) ? -1 : real_epoll_pwait(epfd, ev, max, timeout, mask);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fail_here(K_IOCTL, -1) ? -1 : real_ioctl(fd, req, arg);
}

ssize_t read(int fd, void *buf, size_t size)
{
	return fail_here(K_READ, -1) ? -1 : real_read(fd, buf, size);
}
