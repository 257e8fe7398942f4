/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * run_privs.h - `bpfsdk run`'s options for a run that serves a network
 * (run_privs.c): --web-config (TLS, basic auth), --user, the socket systemd
 * passes, and the privileges dropped once the programs are attached.
 */
#ifndef BPFSDK_CLI_RUN_PRIVS_H
#define BPFSDK_CLI_RUN_PRIVS_H

#include "run_state.h"

/* The help text of these options, in run_usage's OPTIONS. */
#define RUN_USAGE_PRIVS \
"    --web-config FILE, --web.config.file FILE\n" \
"        Serve --metrics under a web configuration file, the YAML of\n" \
"        Prometheus exporters (node_exporter's --web.config.file):\n" \
"        tls_server_config (cert_file, key_file, client_ca_file,\n" \
"        client_auth_type, min_version, max_version) for HTTPS, and\n" \
"        basic_auth_users (USER: bcrypt hash) for basic auth. The file and\n" \
"        every certificate and key it names are read and checked before\n" \
"        the object is opened: a fault is one error line (exit 2).\n" \
"\n" \
"    --user NAME\n" \
"        Once the programs are attached and the readers are set up, switch\n" \
"        to user NAME (its uid, gid and groups). Either way, run then drops\n" \
"        every capability and sets no_new_privs: reading maps and rings\n" \
"        through the descriptors it holds needs none (docs/metrics.md).\n" \
"\n" \
"    --metrics systemd\n" \
"        Serve on the socket systemd passes (LISTEN_FDS, LISTEN_PID: a\n" \
"        .socket unit), so that a unit binds a port without privileges.\n" \
"\n"

/* After the options are parsed: --web-config read and checked, --user looked up,
 * --metrics systemd's socket found; 0, or EXIT_USAGE after one error line. */
int run_privs_args(struct run_args *a);
/* After open: --user with an object that pins maps by name is refused (the pins would outlive
 * the run). 0, or EXIT_USAGE after one error line. */
int run_privs_check_obj(const struct run_args *a, const struct bsdk_obj *obj);
/* Once attached, with every reader and the server set up: --user, then every capability
 * dropped and no_new_privs set. 0, or EXIT_RUNTIME after one error line. */
int run_privs_drop(const struct run_args *a);

#endif /* BPFSDK_CLI_RUN_PRIVS_H */
