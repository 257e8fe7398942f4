/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * ext.h - the passes the extensions hook into the object's open and load
 * pipeline (object/pass.c), each defined in its room, registered in this
 * order by passes.c. Each room's own declarations are in its header.
 * Not installed.
 */
#ifndef BPFSDK_EXT_H
#define BPFSDK_EXT_H

#include "object/object.h"
#include "object/pass.h"

/* ---- the passes the top of the library registers (passes.c) */
extern const struct obj_pass btf_ext_pass;	/* btf/btf_ext_pass.c */
extern const struct obj_pass co_re_pass;		/* co-re/co_re_obj.c */
extern const struct obj_pass extern_pass;	/* externs/extern_pass.c */
extern const struct obj_pass globals_pass;	/* maps/globals.c */
extern const struct obj_pass twins_pass;	/* policy/twins.c */
extern const struct obj_pass pin_pass;		/* maps/pin.c */
extern const struct obj_pass map_hints_pass;	/* hints/map_hints.c */
extern const struct obj_pass verifier_hints_pass;	/* hints/verifier_hints.c */
extern const struct obj_pass info_pass;		/* info/obj_info.c */
extern const struct obj_pass btf_pass;		/* btf/btf_load.c */
extern const struct obj_pass usdt_pass;		/* usdt/usdt.c: a probe's other sites' links */
extern const struct obj_pass policy_pass;	/* policy/attach_all.c: the links it made */

#endif /* BPFSDK_EXT_H */
