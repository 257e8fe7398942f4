// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * metrics_listen.c - the socket a metrics server listens on: the address a
 * user gives (loopback unless one is named), bound and listening, with a
 * message that says what is wrong when it cannot be. The server itself
 * (loader/http/) only takes the socket, so that the library keeps every
 * message and libmicrohttpd stays out of it.
 */
#include <netdb.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/base.h"

/* ADDR:PORT, [ADDR6]:PORT, or :PORT and PORT for the loopback address. */
static int parse_addr(const char *spec, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV }, *res;
	char host[256], *end;
	const char *colon = strrchr(spec, ':'), *port;
	unsigned long p;
	int err;

	if (!colon) {
		snprintf(host, sizeof(host), "127.0.0.1");
		port = spec;
	} else if (colon == spec) {
		snprintf(host, sizeof(host), "127.0.0.1");
		port = colon + 1;
	} else if (spec[0] == '[' && colon[-1] == ']' && (size_t)(colon - spec) - 2 < sizeof(host)) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec) - 2, spec + 1);
		port = colon + 1;
	} else if ((size_t)(colon - spec) < sizeof(host) && !memchr(spec, ':', (size_t)(colon - spec))) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
		port = colon + 1;
	} else {
		return log_fail(EINVAL, "metrics address '%s' is not ADDR:PORT ([ADDR]:PORT for IPv6)",
				spec);
	}
	errno = 0;
	p = strtoul(port, &end, 10);
	if (!*port || *end || errno || p > 65535)
		return log_fail(EINVAL, "metrics address '%s': '%s' is not a port (0 to 65535; 0: any free one)",
				spec, port);
	err = getaddrinfo(host, port, &hints, &res);
	if (err)
		return log_fail(EINVAL, "metrics address '%s': cannot resolve '%s': %s", spec, host,
				gai_strerror(err));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

#define METRICS_LISTEN_BACKLOG 1024

int bsdk_metrics_listen(const char *addr)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1, err;

	if (!addr)
		return fail(EINVAL);
	err = parse_addr(addr, &ss, &len);
	if (err)
		return err;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return log_fail(errno, "metrics address '%s': socket: %s", addr, strerror(errno));
	/* a restarted exporter takes its port back at once, past TIME_WAIT */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* a backlog that holds a flood of connects: a scraper's SYN dropped from a full queue
	 * waits 1 s for the kernel to send it again (the kernel caps it at somaxconn) */
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, METRICS_LISTEN_BACKLOG)) {
		err = errno;
		close(fd);
		return log_fail(err, "metrics address '%s': cannot listen: %s%s", addr, strerror(err),
				err == EADDRINUSE ? " (another program has the port: choose another)" :
				err == EADDRNOTAVAIL ? " (no interface of this machine has that address)" : "");
	}
	return fd;
}
