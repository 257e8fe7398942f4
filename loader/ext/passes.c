// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * passes.c - the top of the library fills the tables the layers below it
 * leave open: the passes the object's open and load pipeline runs
 * (object/pass.c), in this order; the section table's rows above the
 * core's (hooks/kinds.c, ext/usdt/usdt.c), each naming the method that
 * attaches it, and the explanation of a missing tracepoint; and what the rings layer adds to
 * the perf buffer (channel/perfbuf.c). The core (libbpfsdk-core.a) is
 * built without this file, and so without any extension.
 *
 * It runs when the library is loaded: a constructor, so that no caller
 * has to know; libbpfsdk.a is one object (loader/loader.mk), so linking
 * any of its calls brings it in.
 */
#include "ext/ext.h"
#include "ext/usdt/usdt.h"
#include "hooks/hooks.h"
#include "rings/rings.h"

__attribute__((constructor)) static void ext_install(void)
{
	obj_pass_add(&btf_ext_pass);	/* .BTF.ext read at open first: CO-RE reads it */
	obj_pass_add(&co_re_pass);	/* refuses a load with unresolved CO-RE first */
	obj_pass_add(&extern_pass);	/* fills .kconfig before the maps are created */
	obj_pass_add(&globals_pass);
	obj_pass_add(&pin_pass);	/* pins a map once globals mapped it */
	obj_pass_add(&attach_btf_pass);
	obj_pass_add(&twins_pass);	/* groups the programs that are twins */
	obj_pass_add(&map_hints_pass);
	obj_pass_add(&verifier_hints_pass);
	obj_pass_add(&info_pass);	/* links each program at open, after the others' open */
	obj_pass_add(&btf_pass);	/* last at load: the BTF as the others left it */
	obj_pass_add(&usdt_pass);	/* links freed: only these two */
	obj_pass_add(&policy_pass);
	/* the section table's rows above the core (each with its methods),
	 * in the order the "unknown section name" message lists them */
	attach_kinds_add(&hooks_probe_kinds);
	attach_kinds_add(&usdt_kinds);
	attach_kinds_add(&hooks_btf_kinds);
	attach_tracepoint_explain_set(tracepoint_explain);
	perfbuf_ext_set(&rings_perfbuf_ext);	/* sizing, wakeups, merge: rings/ */
}
