/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * run_privs.h - `bpfsdk run`'s options for a run that serves a network
 * (run_privs.c): --web-config (TLS, basic auth), --user, the socket systemd
 * passes, and the privileges dropped once the programs are attached.
 */
#ifndef BPFSDK_CLI_RUN_PRIVS_H
#define BPFSDK_CLI_RUN_PRIVS_H

#include "run_state.h"

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
