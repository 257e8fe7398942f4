// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_check.c - whether a program can attach here, told before it is
 * tried (bsdk_prog_attach_check()), and the one line that says a program
 * was left out or could not attach. The attach policy (attach_all.c) and
 * the twins (twins.c) both ask.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "ext/policy/policy.h"
#include "hooks/hooks.h"

/* Whether tracepoint CAT/NAME is missing: only when tracefs says so. */
static bool tracepoint_missing(const char *target)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	char path[PATH_MAX];

	if (!strchr(target, '/') || strstr(target, ".."))
		return false;	/* attach says what is wrong with it */
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		if (access(roots[i], F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", roots[i], target);
		return access(path, F_OK) != 0;
	}
	return false;	/* tracefs not mounted: attach says so */
}

/* Whether the kernel has no symbol func for a kprobe: only when
 * /proc/kallsyms can be read and lists none of that name. */
static bool ksym_missing(const char *func)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256];
	bool found = false;

	if (!f)
		return false;	/* attach says what is wrong */
	/* "ADDRESS TYPE NAME[\t[MODULE]]" */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", name) == 1 && strcmp(name, func) == 0;
	fclose(f);
	return !found;
}

int bsdk_prog_attach_check(struct bsdk_prog *prog, char *why, size_t size)
{
	const struct attach_kind *k = prog->kind;
	char func[256];

	if (k->method == ATTACH_NONE) {
		snprintf(why, size, "%s programs have no attach point of their own: %s",
			 k->type_name, k->manual);
		return fail(EOPNOTSUPP);
	}
	if (k->method == ATTACH_UPROBE && !uprobe_target_complete(prog->target)) {
		snprintf(why, size, "the section names no binary (uprobe/PATH:FUNCTION[+OFFSET]): attach it with bsdk_prog_attach_uprobe()");
		return fail(EOPNOTSUPP);
	}
	if (k->method == ATTACH_USDT && !*prog->target) {
		snprintf(why, size, "the section names no binary (usdt/PATH:PROVIDER:NAME): attach it with bsdk_prog_attach_usdt()");
		return fail(EOPNOTSUPP);
	}
	if (!bsdk_prog_attach_supported(prog)) {
		snprintf(why, size, "this kernel cannot attach %s programs (no %s PMU)",
			 k->type_name, k->method == ATTACH_UPROBE || k->method == ATTACH_USDT ? "uprobe" : "kprobe");
		return fail(BSDK_ENOTSUPP);
	}
	if ((k->method == ATTACH_KPROBE || k->method == ATTACH_KSYSCALL) &&
	    kprobe_symbol(prog, func, sizeof(func)) == 0 && ksym_missing(func)) {
		snprintf(why, size, "kernel function '%s' does not exist on this kernel (not in /proc/kallsyms)",
			 func);
		return fail(BSDK_ENOPROBE);
	}
	if (k->method == ATTACH_TRACEPOINT && tracepoint_missing(prog->target)) {
		char near[512];

		if (tracepoint_suggest(prog->target, near, sizeof(near)) == 0)
			snprintf(why, size, "tracepoint '%s' does not exist on this kernel; did you mean '%s'?",
				 prog->target, near);
		else
			snprintf(why, size, "tracepoint '%s' does not exist on this kernel", prog->target);
		return fail(BSDK_ENOPROBE);
	}
	if (k->btf_prefix) {
		int err = attach_btf_resolve(prog, why, size);

		return err ? err : attach_btf_probe_load(prog, why, size);
	}
	if (size)
		why[0] = '\0';
	return 0;
}

void attach_left_out(const struct bsdk_prog *prog, bool require_all, const char *why)
{
	char own[300];
	size_t n;

	/* the attach functions' messages begin with the program: say it once */
	n = (size_t)snprintf(own, sizeof(own), "program '%s': ", prog->fn.name);
	if (n < sizeof(own) && strncmp(why, own, n) == 0)
		why += n;
	if (require_all)
		log_error("'%s': program '%s' (section '%s'): cannot attach: %s",
			  prog->obj->name, prog->fn.name, prog->section, why);
	else
		log_warn("'%s': program '%s' (section '%s'): left out: %s",
			 prog->obj->name, prog->fn.name, prog->section, why);
}
