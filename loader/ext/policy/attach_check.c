// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_check.c - whether a program can attach here, told before it is
 * tried (bsdk_prog_attach_check()), and the one line that says a program
 * was left out or could not attach. The attach policy (attach_all.c) and
 * the twins (twins.c) both ask.
 *
 * What the kernel answers for one program it answers for the rest of the
 * object: the kprobe PMU is there or not, /proc/kallsyms lists what it
 * lists, a kernel that refuses fentry with EPERM refuses every fentry. So
 * an object's checks share one cache (kept with the object): the PMUs
 * looked up once, a kprobe's function found in kernel BTF or by the
 * kernel itself (kallsyms read once into a sorted table only when neither
 * can tell), a kind the kernel refused as a kind (EPERM, EACCES, ENOTSUPP,
 * EOPNOTSUPP) not tried again, and each program's verdict kept - refusing N
 * programs of a kind costs one refusal and N lookups, where it cost N
 * scans of kallsyms or N program loads, which in an emulated guest are
 * most of a run's start.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/btf.h>
#include <linux/perf_event.h>

#include "ext/policy/policy.h"
#include "co-re/kbtf.h"
#include "hooks/hooks.h"
#include "ext/usdt/usdt.h"

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

/* ---- the object's cache */

struct refused_kind {
	const struct attach_kind *kind;
	int err;
};

struct check_cache {
	int pmu[2];		/* kprobe, uprobe: 0 not asked, 1 there, -1 not */
	int kprobe_type;	/* the kprobe PMU's type: 0 not asked, -1 none */
	char *ksyms;		/* kallsyms' names, each NUL-terminated */
	const char **sorted;	/* pointers into ksyms, sorted */
	size_t nsorted;
	bool ksyms_read;	/* tried: a kallsyms that cannot be read decides nothing */
	struct refused_kind refused[16];
	size_t nrefused;
	struct verdict *verdicts;	/* per program */
	size_t nprogs;
};

/* A program's answer, for the target it was asked for (bsdk_prog_set_attach_target() may
 * change it): err 0 not asked, 1 passes, else the negative errno; why, target malloc'ed. */
struct verdict {
	int err;
	char *why;
	char *target;
};

static const char check_key;

static void check_cache_free(void *p)
{
	struct check_cache *c = p;

	free(c->ksyms);
	free(c->sorted);
	for (size_t i = 0; c->verdicts && i < c->nprogs; i++) {
		free(c->verdicts[i].why);
		free(c->verdicts[i].target);
	}
	free(c->verdicts);
	free(c);
}

/* The object's cache; NULL without memory (every check then asks the kernel). */
static struct check_cache *cache_of(struct bsdk_obj *obj)
{
	struct check_cache *c = obj_state_find(obj, &check_key);

	if (c)
		return c;
	c = obj_state(obj, &check_key, sizeof(*c), check_cache_free);
	if (!c)
		return NULL;
	c->verdicts = calloc(obj->nprogs + 1, sizeof(*c->verdicts));
	c->nprogs = c->verdicts ? obj->nprogs : 0;
	return c;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* kallsyms' names, read once: "ADDRESS TYPE NAME[\t[MODULE]]" per line. */
static void ksyms_read(struct check_cache *c)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256];
	size_t len = 0, cap = 0, n = 0;
	char *buf = NULL;

	c->ksyms_read = true;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (sscanf(line, "%*s %*s %255s", name) != 1)
			continue;
		l = strlen(name) + 1;
		if (len + l > cap) {
			char *grown = realloc(buf, cap = (cap + l) * 2);

			if (!grown) {
				free(buf);
				fclose(f);
				return;		/* decides nothing: attach says what is wrong */
			}
			buf = grown;
		}
		memcpy(buf + len, name, l);
		len += l;
		n++;
	}
	fclose(f);
	c->sorted = malloc((n + 1) * sizeof(*c->sorted));
	if (!c->sorted) {
		free(buf);
		return;
	}
	for (size_t off = 0, i = 0; i < n; off += strlen(buf + off) + 1)
		c->sorted[i++] = buf + off;
	qsort(c->sorted, n, sizeof(*c->sorted), name_cmp);
	c->ksyms = buf;
	c->nsorted = n;
}

/* Whether func is a function in the running kernel's BTF (read once per process, for CO-RE
 * and the BTF-typed kinds anyway): then it exists. Not asked of a BTF file given instead
 * (--btf), which may be another kernel's. */
static bool ksym_in_btf(const struct bsdk_prog *prog, const char *func)
{
	char swallowed[256];
	int err;

	if (prog->obj->btf_path)
		return false;
	log_capture_begin(swallowed, sizeof(swallowed));
	err = kbtf_find(NULL, func, BTF_KIND_FUNC, NULL, NULL, NULL);
	log_capture_end();
	return err == 0;
}

/* The kernel's own answer: a kprobe perf event opened on func, disabled, and closed again.
 * The kernel looks the name up in its symbol table and answers ENOENT at once when it has
 * none; 0 when it exists (and a probe could be placed), another -errno when it cannot tell
 * here (a refused perf event, a function it will not probe). */
static int ksym_kernel_answer(struct check_cache *c, const char *func)
{
	struct perf_event_attr attr;
	int ret_bit, fd;

	if (!c->kprobe_type && probe_pmu("kprobe", &c->kprobe_type, &ret_bit))
		c->kprobe_type = -1;
	if (c->kprobe_type < 0)
		return -ENOTSUP;
	attr = (struct perf_event_attr){ .size = sizeof(attr), .type = (uint32_t)c->kprobe_type,
		.config1 = (uint64_t)(uintptr_t)func, .disabled = 1 };
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

/* Whether the kernel has no symbol func for a kprobe, asked the cheapest way that knows:
 * its BTF lists the function; the kprobe PMU, opened on the name as attach will, finds no
 * such symbol; and only when neither tells, /proc/kallsyms, read once into a sorted table
 * and only then - in an emulated guest reading it is a second of a run. Missing only when
 * the kernel or kallsyms says so. */
static bool ksym_missing(struct check_cache *c, const struct bsdk_prog *prog, const char *func)
{
	int err;

	if (ksym_in_btf(prog, func))
		return false;
	err = ksym_kernel_answer(c, func);
	if (err == 0 || err == -ENOENT)
		return err == -ENOENT;
	if (!c->ksyms_read)
		ksyms_read(c);
	if (!c->ksyms)
		return false;	/* attach says what is wrong */
	return !bsearch(&func, c->sorted, c->nsorted, sizeof(*c->sorted), name_cmp);
}

/* Whether prog's kind needs a PMU (kprobe, uprobe) the kernel does not have. */
static bool pmu_missing(struct check_cache *c, const struct bsdk_prog *prog)
{
	const struct attach_method *m = prog->kind->method;
	int *known;

	if (!m || !m->pmu)
		return false;
	known = &c->pmu[strcmp(m->pmu, "uprobe") == 0];
	if (!*known)
		*known = bsdk_prog_attach_supported(prog) ? 1 : -1;
	return *known < 0;
}

/* A BTF-typed kind the kernel refused as a kind: its errno, or 0. */
static int kind_refused(const struct check_cache *c, const struct attach_kind *k)
{
	for (size_t i = 0; i < c->nrefused; i++)
		if (c->refused[i].kind == k)
			return c->refused[i].err;
	return 0;
}

/* The empty program of prog's kind loaded at its target (attach_btf_probe_load()), unless
 * the kernel refused the kind already; a refusal that is the kind's is remembered. */
static int btf_probe(struct check_cache *c, struct bsdk_prog *prog, char *why, size_t size)
{
	int err = kind_refused(c, prog->kind);

	if (err) {
		snprintf(why, size, "this kernel refuses %s%s programs at '%s': %s",
			 prog->kind->type_name, prog->kind->sleepable ? " (sleepable)" : "",
			 prog->target, bsdk_strerror(err));
		return fail(-err);
	}
	err = attach_btf_probe_load(prog, why, size);
	if ((err == -EPERM || err == -EACCES || err == -BSDK_ENOTSUPP || err == -EOPNOTSUPP) &&
	    c->nrefused < ARRAY_SIZE(c->refused)) {
		c->refused[c->nrefused++] = (struct refused_kind){ prog->kind, err };
		log_info("'%s': this kernel refuses %s programs (%s): the object's others are not tried",
			  prog->obj->name, prog->kind->type_name, bsdk_strerror(err));
	}
	return err;
}

static int check(struct check_cache *c, struct bsdk_prog *prog, char *why, size_t size)
{
	const struct attach_kind *k = prog->kind;
	char func[256];

	if (!k->method) {
		snprintf(why, size, "%s programs have no attach point of their own: %s",
			 k->type_name, k->manual);
		return fail(EOPNOTSUPP);
	}
	if (k->method == &attach_by_uprobe && !uprobe_target_complete(prog->target)) {
		snprintf(why, size, "the section names no binary (uprobe/PATH:FUNCTION[+OFFSET]): attach it with bsdk_prog_attach_uprobe()");
		return fail(EOPNOTSUPP);
	}
	if (k->method == &attach_by_usdt && !*prog->target) {
		snprintf(why, size, "the section names no binary (usdt/PATH:PROVIDER:NAME): attach it with bsdk_prog_attach_usdt()");
		return fail(EOPNOTSUPP);
	}
	if (pmu_missing(c, prog)) {
		snprintf(why, size, "this kernel cannot attach %s programs (no %s PMU)",
			 k->type_name, k->method->pmu);
		return fail(BSDK_ENOTSUPP);
	}
	if ((k->method == &attach_by_kprobe || k->method == &attach_by_ksyscall) &&
	    kprobe_symbol(prog, func, sizeof(func)) == 0 && ksym_missing(c, prog, func)) {
		snprintf(why, size, "kernel function '%s' does not exist on this kernel (not in /proc/kallsyms)",
			 func);
		return fail(BSDK_ENOPROBE);
	}
	if (k->method == &attach_by_tracepoint && tracepoint_missing(prog->target)) {
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

		return err ? err : btf_probe(c, prog, why, size);
	}
	if (size)
		why[0] = '\0';
	return 0;
}

int bsdk_prog_attach_check(struct bsdk_prog *prog, char *why, size_t size)
{
	struct check_cache *c = cache_of(prog->obj);
	struct check_cache none = { 0 };
	size_t i = (size_t)(prog - prog->obj->progs);
	struct verdict *v = c && i < c->nprogs ? &c->verdicts[i] : NULL;
	const char *target = prog->target ? prog->target : "";
	int err;

	if (v && v->err && v->why && strcmp(v->target, target) == 0) {	/* the same answer */
		if (size)
			snprintf(why, size, "%s", v->why);
		return v->err > 0 ? 0 : fail(-v->err);
	}
	err = check(c ? c : &none, prog, why, size);
	free(none.ksyms);
	free(none.sorted);
	if (v) {
		free(v->why);
		free(v->target);
		v->why = strdup(size ? why : "");
		v->target = strdup(target);
		v->err = v->why && v->target ? (err ? err : 1) : 0;
	}
	return err;
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
