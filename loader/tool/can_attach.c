// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * can_attach.c - whether the running kernel can attach a program's kind
 * of probe (bsdk_prog_attach_supported()): asked by a tool that carries
 * a program for each kind of hook and loads the one this kernel takes,
 * and by the attach policy, before anything is loaded.
 */
#include "tool/tool.h"
#include "attach/attach.h"

/* Only a PMU that is not there says "no support": one that cannot be read
 * (no memory, no file descriptor left) is tried, and its error told. */
static bool pmu_exists(const char *pmu)
{
	int type, bit;

	return probe_pmu(pmu, &type, &bit) != -ENOENT;
}

bool bsdk_prog_attach_supported(const struct bsdk_prog *prog)
{
	const struct attach_method *m = prog->kind->method;

	return !m || !m->pmu || pmu_exists(m->pmu);
}
