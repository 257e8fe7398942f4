// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_privs.c - least privilege for a run that serves a network: the web
 * configuration (TLS, basic auth) read before anything is loaded; the
 * socket systemd passes (socket activation, so that a unit binds a port
 * without root); and, once the programs are attached and every reader and
 * the server are set up, --user and the capabilities dropped.
 *
 * What a run does after that - poll the rings it mapped, read and (with
 * --clear) empty maps through the descriptors it holds, detach by closing
 * them - the kernel checks against the descriptors, not the caller's
 * capabilities: a long run keeps none. The measure is in docs/metrics.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "http/bpfsdk_http.h"
#include "run_privs.h"

#define SD_LISTEN_FDS_START 3	/* sd_listen_fds(3): the first passed descriptor */

/* LISTEN_PID names this process and LISTEN_FDS one socket that listens: 0, else EXIT_USAGE
 * after the error line. The variables go, as sd_listen_fds(1) does, so that nothing this
 * process starts takes them for its own. */
static int take_systemd_socket(struct run_args *a)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	int listening = 0, type = 0;
	socklen_t len = sizeof(int);
	char *end;

	if (!pid || !fds)
		return cli_usage_error("run", "--metrics systemd: no socket was passed (LISTEN_PID, LISTEN_FDS are not set): start run from a .socket unit");
	errno = 0;
	if (strtol(pid, &end, 10) != getpid() || *end || errno)
		return cli_usage_error("run", "--metrics systemd: LISTEN_PID=%s is not this process (%d)",
				       pid, (int)getpid());
	if (strcmp(fds, "1"))
		return cli_usage_error("run", "--metrics systemd: LISTEN_FDS=%s: the .socket unit must pass one socket",
				       fds);
	if (getsockopt(SD_LISTEN_FDS_START, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) ||
	    getsockopt(SD_LISTEN_FDS_START, SOL_SOCKET, SO_TYPE, &type, &len) ||
	    !listening || type != SOCK_STREAM)
		return cli_usage_error("run", "--metrics systemd: descriptor 3 is not a listening TCP socket (ListenStream= in the .socket unit)");
	fcntl(SD_LISTEN_FDS_START, F_SETFD, FD_CLOEXEC);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	a->metrics.systemd_fd = SD_LISTEN_FDS_START;
	return 0;
}

/* Whether uid (gid, and groups) may write and search dir by its mode bits alone, as a process
 * without capabilities is judged (ACLs aside). */
static bool dir_writable(const char *dir, uid_t uid, const gid_t *groups, int ngroups)
{
	struct stat st;
	mode_t need;

	if (stat(dir, &st))
		return true;	/* said by the first write, which names the reason */
	need = S_IWOTH | S_IXOTH;
	if (st.st_uid == uid)
		need = S_IWUSR | S_IXUSR;
	else
		for (int i = 0; i < ngroups; i++)
			if (groups[i] == st.st_gid)
				need = S_IWGRP | S_IXGRP;
	return (st.st_mode & need) == need;
}

/* The metrics file is written again and again, after the drop: its directory must be writable
 * by the user run ends up as, without capabilities. 0, or EXIT_USAGE after the error line. */
static int check_metrics_dir(const struct run_args *a)
{
	const char *slash = a->metrics.file ? strrchr(a->metrics.file, '/') : NULL;
	const char *who = a->privs.user ? a->privs.user : "this user";
	gid_t groups[256];
	int n = 256;
	char dir[4096];

	if (!a->metrics.file)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - a->metrics.file + 1) : 1,
		 slash ? a->metrics.file : ".");
	if (a->privs.user) {
		if (getgrouplist(a->privs.user, a->privs.gid, groups, &n) < 0)
			n = 0;
	} else {
		n = getgroups(254, groups);
		n = n < 0 ? 0 : n;
		groups[n++] = getegid();
	}
	if (dir_writable(dir, a->privs.user ? a->privs.uid : geteuid(), groups, n))
		return 0;
	return cli_usage_error("run", "--metrics-file %s: the directory '%s' is not writable by %s without privileges, which run drops once attached: make it writable by %s",
			       a->metrics.file, dir, who, who);
}

int run_privs_args(struct run_args *a)
{
	char err[512];

	if (a->metrics.web_config && !a->metrics.addr)
		return cli_usage_error("run", "--web-config configures the server of --metrics ADDR:PORT: it needs one");
	if (a->metrics.addr && !strcmp(a->metrics.addr, "systemd") && take_systemd_socket(a))
		return EXIT_USAGE;
	if (a->privs.user) {
		struct passwd *pw;

		errno = 0;
		pw = getpwnam(a->privs.user);
		if (!pw)
			return cli_usage_error("run", "--user %s: %s", a->privs.user,
					       errno ? strerror(errno) : "no such user");
		a->privs.uid = pw->pw_uid;
		a->privs.gid = pw->pw_gid;
	}
	if (check_metrics_dir(a))
		return EXIT_USAGE;
	if (!a->metrics.web_config)
		return 0;
	a->metrics.web = bsdk_web_config_load(a->metrics.web_config, err, sizeof(err));
	if (!a->metrics.web) {
		cli_error("--web-config %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The user's uid, gid and groups; while the capabilities to do it are still held. */
static int switch_user(const struct run_args *a)
{
	const char *what = "initgroups";

	if (initgroups(a->privs.user, a->privs.gid) == 0) {
		what = "setgid";
		if (setresgid(a->privs.gid, a->privs.gid, a->privs.gid) == 0) {
			what = "setuid";
			if (setresuid(a->privs.uid, a->privs.uid, a->privs.uid) == 0)
				return 0;
		}
	}
	cli_error("--user %s: %s: %s (switching user takes CAP_SETUID and CAP_SETGID)",
		  a->privs.user, what, strerror(errno));
	return EXIT_RUNTIME;
}

/* Every capability out of the bounding set, when this process may say so (CAP_SETPCAP; a
 * unit's CapabilityBoundingSet= has done it already otherwise); none left to inherit. */
static void drop_bounding_set(void)
{
	for (int cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			break;	/* EPERM: no CAP_SETPCAP */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
}

int run_privs_check_obj(const struct run_args *a, const struct bsdk_obj *obj)
{
	const struct bsdk_map *map = NULL;

	while (a->privs.user && (map = bsdk_obj_map_next(obj, map)))
		if (bsdk_map_pinning(map)) {
			cli_error("--user %s: map '%s' is pinned by name in /sys/fs/bpf, and a pin run makes there as root cannot be removed by %s at the end: run without --user",
				  a->privs.user, bsdk_map_name(map), a->privs.user);
			return EXIT_USAGE;
		}
	return 0;
}

int run_privs_drop(const struct run_args *a)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = { 0 };

	drop_bounding_set();
	if (a->privs.user && switch_user(a))
		return EXIT_RUNTIME;
	if (syscall(SYS_capset, &hdr, none)) {
		cli_error("cannot drop the capabilities: capset: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		cli_error("cannot set no_new_privs: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (cli_verbosity)
		fprintf(stderr, "privileges: every capability dropped%s%s, no_new_privs set\n",
			a->privs.user ? ", now user " : "", a->privs.user ? a->privs.user : "");
	return 0;
}
