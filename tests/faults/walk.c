// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * walk - fail every call a command makes, one at a time, and check that it
 * survives each (make test-faults; a sample of the points in make test).
 *
 *   walk [--stride N] [--kind KIND] [--same-stdout] [--name NAME] PRELOAD -- COMMAND [ARG]...
 *
 * First runs COMMAND once with PRELOAD (faultinject.so) counting its calls;
 * that run must succeed. Then, for each kind of call (tests/preload/
 * faultinject.c: alloc, bpf.CMD for each bpf() command, perf_event_open,
 * mmap, open, epoll, ioctl, read) and each N from 1 to the count, runs it
 * again with the Nth call failing: allocations with ENOMEM, system calls
 * with each errno the kernel really returns for them (EPERM, ENOMEM,
 * E2BIG, EINTR, EAGAIN for bpf(), ...). Each run must:
 *   - end by itself (60 s) and not by a signal, with no sanitizer report
 *     and no "double free"/"corrupted" message from libc on stderr;
 *   - exit 0, or 1 with exactly one line starting "error:" on stderr;
 *     with --same-stdout, a run that exits 0 prints what the first did,
 *     or output that names the failure (the errno's text), or the call
 *     failed with ENOENT (which says the thing is absent);
 *   - leave nothing in the kernel: every program, map, link and BTF it
 *     created (faultinject.so writes their ids) is gone once it ended,
 *     and every pin it made is removed;
 *   - leave no child running (walk is the children's subreaper).
 * A run whose fault never fired (its Nth call did not come) must exit 0.
 * A point whose failing call was made inside libdw (elfutils reads DWARF
 * for the record types, and does not check all of its own allocations)
 * and that fails these rules is printed as LIBDW and counted apart.
 *
 * --kind KIND walks only the calls of KIND (alloc, bpf.PROG_LOAD, ...).
 * With --stride N only every Nth point of each kind is run, the first and
 * the last always, with the errnos taken in turn: what make test runs.
 * {PID} in an argument of COMMAND becomes the pid COMMAND runs as.
 *
 * --kill M kills COMMAND with SIGKILL at M moments instead, spread over the
 * calls of its phases: allocations (open), bpf() (load), perf_event_open and
 * ioctl (attach), epoll (streaming). After each: nothing it made is left in
 * the kernel, no pin but the --pin PATH ones (those its object pins by
 * name), no child; then a run without a kill must succeed, reusing a --pin
 * pin that was there rather than pinning anew. Prints "kill NAME: M
 * moments (alloc A, bpf B, ...), F failed, U not reached".
 *
 * Prints one line per failing point, with the fault's stack and the run's
 * stderr, then "walk NAME: P points (alloc A, bpf B, ...), F failed, U not
 * reached"; exits 1 when any failed, 2 for bad usage or a first run that
 * failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MAX_KINDS 64

struct kind {
	char name[48];		/* as faultinject.so names it: alloc, bpf.PROG_LOAD, ... */
	unsigned long count;
};

static const char *const alloc_errnos[] = { "ENOMEM", NULL };
static const char *const bpf_errnos[] = { "EPERM", "ENOMEM", "E2BIG", "EINTR", "EAGAIN", NULL };
static const char *const perf_errnos[] = { "EMFILE", "EPERM", "ENOMEM", "E2BIG", NULL };
static const char *const mmap_errnos[] = { "ENOMEM", "EPERM", "EAGAIN", NULL };
static const char *const open_errnos[] = { "EMFILE", "EACCES", "ENOENT", "EINTR", NULL };
static const char *const epoll_errnos[] = { "EINTR", "ENOMEM", "ENOSPC", NULL };
static const char *const ioctl_errnos[] = { "EINVAL", "ENOMEM", "EINTR", NULL };
static const char *const read_errnos[] = { "EINTR", "EAGAIN", "EIO", NULL };

static const char *const *errnos_of(const char *kind)
{
	/* "bpf" is the sum of the bpf.CMD lines, walked command by command */
	if (strcmp(kind, "alloc") == 0)
		return alloc_errnos;
	if (strncmp(kind, "bpf.", 4) == 0)
		return bpf_errnos;
	if (strcmp(kind, "perf_event_open") == 0)
		return perf_errnos;
	if (strcmp(kind, "mmap") == 0)
		return mmap_errnos;
	if (strcmp(kind, "open") == 0)
		return open_errnos;
	if (strcmp(kind, "epoll") == 0)
		return epoll_errnos;
	if (strcmp(kind, "ioctl") == 0)
		return ioctl_errnos;
	if (strcmp(kind, "read") == 0)
		return read_errnos;
	return NULL;
}

static int errno_value(const char *name)
{
	for (int e = 1; e < 134; e++)
		if (strerrorname_np(e) && strcmp(strerrorname_np(e), name) == 0)
			return e;
	return 0;
}

static char dir[4096];
static char path_counts[4200], path_fired[4200], path_ids[4200], path_out[4200], path_err[4200];
static const char *preload;
static char **command;
static char *first_stdout;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &size, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* Run the command once with BSDK_FAULT=fault (NULL: none); its status. */
static int run_once(const char *fault, bool *timed_out)
{
	double end;
	pid_t pid;
	int status;

	unlink(path_counts);
	unlink(path_fired);
	unlink(path_ids);
	*timed_out = false;
	pid = fork();
	if (pid < 0) {
		perror("walk: fork");
		exit(2);
	}
	if (pid == 0) {
		char pidstr[16];
		int out = open(path_out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int err = open(path_err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		setpgid(0, 0);
		snprintf(pidstr, sizeof(pidstr), "%d", (int)getpid());
		for (char **a = command; *a; a++) {
			char *at = strstr(*a, "{PID}"), *arg;

			if (at && asprintf(&arg, "%.*s%s%s", (int)(at - *a), *a, pidstr, at + 5) > 0)
				*a = arg;
		}
		setenv("LD_PRELOAD", preload, 1);
		setenv("BSDK_FAULT_COUNTS", path_counts, 1);
		setenv("BSDK_FAULT_FIRED", path_fired, 1);
		setenv("BSDK_FAULT_IDS", path_ids, 1);
		if (fault)
			setenv("BSDK_FAULT", fault, 1);
		else
			unsetenv("BSDK_FAULT");
		execvp(command[0], command);
		_exit(127);
	}
	end = (double)time(NULL) + 60;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		struct timespec tick = { .tv_nsec = 2000000 };

		if (w == pid)
			break;
		if (time(NULL) > end) {
			*timed_out = true;
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		nanosleep(&tick, NULL);
	}
	return status;
}

/* Whether the kernel still has the object: its fd by id, closed at once. */
static bool kernel_has(const char *what, unsigned int id)
{
	union bpf_attr attr;
	int cmd, fd;

	if (strcmp(what, "prog") == 0)
		cmd = BPF_PROG_GET_FD_BY_ID;
	else if (strcmp(what, "map") == 0)
		cmd = BPF_MAP_GET_FD_BY_ID;
	else if (strcmp(what, "link") == 0)
		cmd = BPF_LINK_GET_FD_BY_ID;
	else
		cmd = BPF_BTF_GET_FD_BY_ID;
	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;	/* the first field of each of the four */
	fd = (int)syscall(__NR_bpf, cmd, &attr, sizeof(attr));
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno != ENOENT;
}

/* Objects held by a pin that is meant to stay: left out of leftovers(). */
static unsigned int kept_map_ids[16], kept_btf_ids[16];
static int nkept;

/* The map pinned at path and the BTF it holds, kept alive by the pin. */
static void keep_pinned(const char *path)
{
	struct bpf_map_info info;
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(uintptr_t)path;
	fd = (int)syscall(__NR_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0 || nkept >= 16)
		return;
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (__u32)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(uintptr_t)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) == 0) {
		kept_map_ids[nkept] = info.id;
		kept_btf_ids[nkept++] = info.btf_id;
	}
	close(fd);
}

static bool kept(const char *what, unsigned int id)
{
	for (int i = 0; i < nkept; i++)
		if ((strcmp(what, "map") == 0 && id == kept_map_ids[i]) ||
		    (strcmp(what, "btf") == 0 && id == kept_btf_ids[i]))
			return true;
	return false;
}

/* What the run left in the kernel, in why (empty: nothing). The kernel
 * frees objects after an RCU grace period, so wait up to 3 s for them. */
static void leftovers(char *why, size_t size)
{
	FILE *f = fopen(path_ids, "r");
	char line[4200], what[8], arg[4096];

	why[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned int id;
		bool left = false;

		if (sscanf(line, "pin %4095s", arg) == 1) {
			left = access(arg, F_OK) == 0;
			if (left)
				unlink(arg);	/* so that the next point starts clean */
		} else if (sscanf(line, "%7s %u", what, &id) == 2 && !kept(what, id)) {
			for (int i = 0; i < 300 && (left = kernel_has(what, id)); i++)
				usleep(10000);
		}
		if (left && strlen(why) + strlen(line) + 2 < size) {
			line[strcspn(line, "\n")] = '\0';
			strcat(why, why[0] ? ", " : "");
			strcat(why, line);
		}
	}
	fclose(f);
}

/* Children of the run still alive once it ended (reparented to us). */
static int children_left(void)
{
	int left = 0;

	for (int i = 0; i < 100; i++) {
		pid_t w = waitpid(-1, NULL, WNOHANG);

		if (w < 0)
			return left;	/* ECHILD: none */
		if (w == 0)
			usleep(10000);	/* still running: give it 1 s to go */
	}
	left = waitpid(-1, NULL, WNOHANG) == 0;
	if (left) {
		/* kill them, so that the next point starts clean */
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "pkill -KILL -P %d", (int)getpid());
		if (system(cmd) != -1)
			while (waitpid(-1, NULL, 0) > 0)
				;
	}
	return left;
}

static int count_error_lines(const char *err)
{
	int n = 0;

	for (const char *p = err; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		n += strncmp(p, "error:", 6) == 0;
	return n;
}

static const char *const bad_words[] = {
	"AddressSanitizer", "LeakSanitizer", "ThreadSanitizer", "runtime error:",
	"double free", "corrupted", "free(): ", "malloc(): ", "realloc(): ", "defect:", NULL,
};

/* Check one run; the reason it failed, or NULL. */
static const char *judge(int status, bool timed_out, bool fired, bool same_stdout, int errnum,
			 char *why, size_t size)
{
	char *err = slurp(path_err), *out = NULL;
	const char *verdict = NULL;
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

	if (timed_out) {
		verdict = "did not end within 60 s";
	} else if (WIFSIGNALED(status)) {
		snprintf(why, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		verdict = why;
	} else if (rc != 0 && rc != 1) {
		snprintf(why, size, "exit status %d", rc);
		verdict = why;
	}
	for (int i = 0; !verdict && bad_words[i]; i++)
		if (err && strstr(err, bad_words[i])) {
			snprintf(why, size, "'%s' on stderr", bad_words[i]);
			verdict = why;
		}
	if (!verdict && rc == 1 && count_error_lines(err) != 1) {
		snprintf(why, size, "exit 1 with %d error: lines, expected 1", count_error_lines(err));
		verdict = why;
	}
	if (!verdict && rc == 0 && count_error_lines(err)) {
		snprintf(why, size, "exit 0 with %d error: lines", count_error_lines(err));
		verdict = why;
	}
	if (!verdict && rc == 1 && !fired)
		verdict = "exit 1 though the fault never fired";
	if (!verdict && rc == 0 && same_stdout && first_stdout && fired) {
		/* Different output is right when it says what failed (the errno's
		 * text), or when the call said ENOENT: then the thing is absent. */
		out = slurp(path_out);
		if (!out || (strcmp(out, first_stdout) != 0 && errnum != ENOENT &&
			     !strstr(out, strerror(errnum))))
			verdict = "exit 0 but stdout differs from the run without a fault, without saying why";
	}
	if (!verdict) {
		char left[4096];

		leftovers(left, sizeof(left));
		if (left[0]) {
			snprintf(why, size, "left behind: %s", left);
			verdict = why;
		}
	}
	if (!verdict && children_left())
		verdict = "a child process left running";
	free(err);
	free(out);
	return verdict;
}

/* Whether the call that failed was made inside libdw (elfutils), whose
 * own allocations are not all checked: its crashes are told apart. */
static bool fault_in_libdw(void)
{
	char *fired = slurp(path_fired), *line, *save = NULL;
	bool in = false;

	for (line = fired ? strtok_r(fired, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* the shim's frames, the "KIND N ERRNO" line, and libc's own (its
		 * tsearch or strdup called by whoever is below) */
		if (strstr(line, "faultinject") || !strchr(line, '[') || strstr(line, "/libc.so"))
			continue;
		in = strstr(line, "libdw") != NULL;
		break;
	}
	free(fired);
	return in;
}

static void show_failure(const char *fault, const char *verdict)
{
	char *fired = slurp(path_fired), *err = slurp(path_err);

	printf("FAIL %s: %s\n", fault, verdict);
	if (fired)
		printf("  fault at:\n%s", fired);
	if (err && *err) {
		printf("  stderr:\n");
		for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n"))
			printf("    %s\n", line);
	}
	fflush(stdout);
	free(fired);
	free(err);
}

static size_t read_counts(struct kind *kinds)
{
	FILE *f = fopen(path_counts, "r");
	size_t n = 0;

	if (!f)
		return 0;
	while (n < MAX_KINDS && fscanf(f, "%47s %lu", kinds[n].name, &kinds[n].count) == 2)
		n += kinds[n].count != 0;
	fclose(f);
	return n;
}

/* How many of the moments to die fall on kinds[k] (0 when it is not one
 * of the phases): 20 over the calls of open (allocations), load (bpf()),
 * attach (perf_event_open, ioctl) and streaming (epoll). */
static const char *const kill_kinds[] = { "alloc", "bpf", "perf_event_open", "ioctl", "epoll" };

static unsigned long kill_share(const struct kind *kinds, size_t nkinds, size_t k, unsigned long total)
{
	size_t present = 0, rank = 0;
	bool mine = false;

	for (size_t i = 0; i < nkinds; i++)
		for (size_t j = 0; j < sizeof(kill_kinds) / sizeof(*kill_kinds); j++)
			if (strcmp(kinds[i].name, kill_kinds[j]) == 0) {
				if (i == k)
					mine = true, rank = present;
				present++;
			}
	if (!mine)
		return 0;
	return total / present + (rank < total % present);
}

/* The pin path is one the command's object asks for by name. */
static bool pin_expected(const char *line, char **keep, int nkeep)
{
	for (int i = 0; i < nkeep; i++)
		if (strncmp(line, "pin ", 4) == 0 && strncmp(line + 4, keep[i], strlen(keep[i])) == 0 &&
		    (line[4 + strlen(keep[i])] == '\n' || !line[4 + strlen(keep[i])]))
			return true;
	return false;
}

/* Kill the command with SIGKILL at `moments` moments, and after each ask
 * the kernel for what it had made, then run it again whole. */
static int kill_walk(const char *name, struct kind *kinds, size_t nkinds, unsigned long moments,
		     char **keep, int nkeep)
{
	unsigned long points = 0, failed = 0, unreached = 0;
	char why[8192], spread[512] = "";

	for (size_t k = 0; k < nkinds; k++) {
		unsigned long share = kill_share(kinds, nkinds, k, moments);

		if (share)
			snprintf(spread + strlen(spread), sizeof(spread) - strlen(spread), "%s%.47s %lu",
				 spread[0] ? ", " : "", kinds[k].name, share);
		for (unsigned long j = 0; j < share; j++) {
			/* within the first 4/5 of the calls: the last ones of a stream vary
			 * from run to run */
			unsigned long n = 1 + (kinds[k].count * 4 / 5 * (2 * j + 1)) / (2 * share);
			char fault[sizeof(kinds[0].name) + 48], left[4096] = "", line[4200];
			const char *verdict = NULL;
			bool timed_out, fired;
			int status;
			FILE *f;

			snprintf(fault, sizeof(fault), "%.47s:%lu:SIGKILL", kinds[k].name, n);
			status = run_once(fault, &timed_out);
			fired = access(path_fired, F_OK) == 0;
			points++;
			if (!fired) {
				unreached++;
				continue;
			}
			if (timed_out || !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
				verdict = "did not die of the SIGKILL";
			/* pins the object asked for by name stay: take them out of the check */
			f = fopen(path_ids, "r");
			if (f && !verdict) {
				FILE *rest = fopen(path_counts, "w");	/* reused as scratch */

				while (rest && fgets(line, sizeof(line), f))
					if (!pin_expected(line, keep, nkeep))
						fputs(line, rest);
				if (rest)
					fclose(rest);
				rename(path_counts, path_ids);
			}
			if (f)
				fclose(f);
			nkept = 0;
			for (int i = 0; i < nkeep; i++)
				keep_pinned(keep[i]);
			if (!verdict) {
				leftovers(left, sizeof(left));
				if (left[0]) {
					snprintf(why, sizeof(why), "left behind after SIGKILL: %s", left);
					verdict = why;
				}
			}
			if (!verdict && children_left())
				verdict = "a child process left running after SIGKILL";
			if (!verdict) {
				/* a second run starts clean, reusing a pin left by name */
				bool had_pin[16] = { false };

				for (int i = 0; i < nkeep && i < 16; i++)
					had_pin[i] = access(keep[i], F_OK) == 0;
				status = run_once(NULL, &timed_out);
				nkept = 0;	/* the second run reused what the pin holds */
				for (int i = 0; i < nkeep; i++)
					keep_pinned(keep[i]);
				verdict = judge(status, timed_out, false, false, 0, why, sizeof(why));
				if (!verdict && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
					verdict = "the run after the SIGKILL failed";
				f = verdict ? NULL : fopen(path_ids, "r");
				while (f && !verdict && fgets(line, sizeof(line), f))
					for (int i = 0; i < nkeep && i < 16; i++)
						if (had_pin[i] && pin_expected(line, keep + i, 1))
							verdict = "the run after the SIGKILL pinned anew what was pinned";
				if (f)
					fclose(f);
				for (int i = 0; !verdict && i < nkeep && i < 16; i++)
					if (had_pin[i] && access(keep[i], F_OK) != 0)
						verdict = "the run after the SIGKILL removed the pin it reused";
			}
			if (verdict) {
				failed++;
				show_failure(fault, verdict);
			}
			for (int i = 0; i < nkeep; i++)
				unlink(keep[i]);	/* each moment starts without the pin */
		}
	}
	printf("kill %s: %lu moments (%s), %lu failed, %lu not reached\n", name, points, spread, failed,
	       unreached);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct kind kinds[MAX_KINDS];
	const char *name = NULL, *only = NULL;
	unsigned long kill_moments = 0;
	char *keep[16];
	int nkeep = 0;
	unsigned long stride = 1, points = 0, failed = 0, unreached = 0, turn = 0, in_libdw = 0;
	bool same_stdout = false, timed_out;
	char summary[MAX_KINDS * 64] = "", why[8192];
	size_t nkinds;
	int i, status;

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2]; i++) {
		if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc)
			stride = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--kill") == 0 && i + 1 < argc)
			kill_moments = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--pin") == 0 && i + 1 < argc && nkeep < 16)
			keep[nkeep++] = argv[++i];
		else if (strcmp(argv[i], "--same-stdout") == 0)
			same_stdout = true;
		else
			break;
	}
	if (i + 2 >= argc || strcmp(argv[i + 1], "--") != 0 || stride == 0) {
		fprintf(stderr, "usage: walk [--stride N] [--kind KIND] [--kill M [--pin PATH]...] [--same-stdout] [--name NAME] PRELOAD -- COMMAND [ARG]...\n");
		return 2;
	}
	preload = argv[i];
	command = argv + i + 2;
	if (!name)
		name = command[0];
	snprintf(dir, sizeof(dir), "%s/bsdk-walk-XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(dir)) {
		perror("walk: mkdtemp");
		return 2;
	}
	snprintf(path_counts, sizeof(path_counts), "%s/counts", dir);
	snprintf(path_fired, sizeof(path_fired), "%s/fired", dir);
	snprintf(path_ids, sizeof(path_ids), "%s/ids", dir);
	snprintf(path_out, sizeof(path_out), "%s/stdout", dir);
	snprintf(path_err, sizeof(path_err), "%s/stderr", dir);
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	/* The command line is rewritten in the child only ({PID}), so each run
	 * sees the original. */
	status = run_once(NULL, &timed_out);
	nkinds = read_counts(kinds);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !nkinds) {
		show_failure("no fault", judge(status, timed_out, false, false, 0, why, sizeof(why)) ?:
			     "exit 0 but no counts written (is PRELOAD faultinject.so?)");
		return 2;
	}
	first_stdout = slurp(path_out);
	if (judge(status, timed_out, false, false, 0, why, sizeof(why))) {
		show_failure("no fault", why);
		return 2;
	}
	if (kill_moments)
		return kill_walk(name, kinds, nkinds, kill_moments, keep, nkeep);

	for (size_t k = 0; k < nkinds; k++) {
		const char *const *errs = errnos_of(kinds[k].name);
		unsigned long walked = 0;

		if (!errs || (only && strcmp(only, kinds[k].name) != 0))
			continue;
		for (unsigned long n = 1; n <= kinds[k].count; n++) {
			if (stride > 1 && (n - 1) % stride && n != kinds[k].count)
				continue;
			for (int e = 0; errs[e]; e++) {
				char fault[sizeof(kinds[0].name) + 48];
				const char *verdict;
				bool fired;

				/* sampled: one errno per point, in turn */
				if (stride > 1) {
					int ne = 0;

					while (errs[ne])
						ne++;
					if (e != (int)(turn % (unsigned long)ne))
						continue;
				}
				snprintf(fault, sizeof(fault), "%.47s:%lu:%s", kinds[k].name, n, errs[e]);
				status = run_once(fault, &timed_out);
				fired = access(path_fired, F_OK) == 0;
				verdict = judge(status, timed_out, fired, same_stdout, errno_value(errs[e]),
						why, sizeof(why));
				points++;
				walked++;
				if (verdict && fault_in_libdw()) {
					in_libdw++;
					printf("LIBDW %s: %s (an allocation of libdw's own)\n", fault, verdict);
				} else if (verdict) {
					failed++;
					show_failure(fault, verdict);
				} else if (!fired) {
					unreached++;
				}
			}
			turn++;
		}
		snprintf(summary + strlen(summary), sizeof(summary) - strlen(summary), "%s%.47s %lu",
			 summary[0] ? ", " : "", kinds[k].name, walked);
	}
	printf("walk %s: %lu points (%s), %lu failed, %lu not reached", name, points, summary,
	       failed, unreached);
	if (in_libdw)
		printf(", %lu failed inside libdw's own allocations (not counted)", in_libdw);
	putchar('\n');
	unlink(path_counts);
	unlink(path_fired);
	unlink(path_ids);
	unlink(path_out);
	unlink(path_err);
	rmdir(dir);
	return failed ? 1 : 0;
}
