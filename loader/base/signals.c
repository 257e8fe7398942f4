// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * signals.c - the one flag SIGINT and SIGTERM set (bsdk_signals_catch()),
 * low in the library so that every layer can look at it: the poll loop
 * stops on it, and loading checks it between two bpf() calls, since the
 * verifier's answer to a signal is not always EAGAIN (a log it truncated
 * turns it into ENOSPC).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "base/base.h"

/* The signal that asked to stop, 0 before one came. sig_atomic_t: the
 * handler's store and the loop's load are each one access. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	bsdk_signals_note(sig);
}

int bsdk_signals_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART as signal() gives: reads and writes resume, while
	 * epoll_wait() and sleeps still return EINTR (signal(7)), so the loop
	 * sees the flag at once. */
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_stop_signal;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return log_fail(errno, "cannot catch SIGINT and SIGTERM: %s", bsdk_strerror(errno));
	/* A write to a closed pipe then fails with EPIPE, which the loop
	 * sees at its next fflush(), instead of killing the process. */
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return log_fail(errno, "cannot ignore SIGPIPE: %s", bsdk_strerror(errno));
	return 0;
}

int bsdk_signals_caught(void)
{
	return stop_signal;
}

void bsdk_signals_note(int sig)
{
	stop_signal = sig;
}

int bsdk_signals_exit_status(int status)
{
	return status && stop_signal ? 128 + stop_signal : status;
}
