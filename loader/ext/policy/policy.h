/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * policy.h - the attach policy: what attach_all.c (attach every program
 * that can be), attach_check.c (whether one can, told before) and twins.c
 * (one hook per event) share. Not installed.
 */
#ifndef BPFSDK_EXT_POLICY_H
#define BPFSDK_EXT_POLICY_H

#include "object/object.h"

/* attach_check.c: say that prog is left out: a warning, or with require_all
 * an error (errno set from nothing: the caller returns its own) */
void attach_left_out(const struct bsdk_prog *prog, bool require_all, const char *why);
/* twins.c: whether prog has a twin among the programs to load; choose in
 * its group the programs to load (done[i] set for each member), the others
 * spares, returning how many load or a negative errno (require_all); let
 * the spares of its group stand in for failed, returning how many do. */
bool twins_grouped(const struct bsdk_prog *prog);
int twins_choose(struct bsdk_prog *prog, bool require_all, bool *done);
int twins_stand_in(struct bsdk_prog *failed);
/* twins.c: no program is a spare (the attach policy starts again). */
void twins_reset(struct bsdk_obj *obj);

#endif /* BPFSDK_EXT_POLICY_H */
