// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * twins.c - one probe, one count: programs of an object that see the same
 * event through different kinds of hook, and the one of them the attach
 * policy attaches.
 *
 * Tools written for many kernels carry two or three versions of a probe:
 * fentry/FUNC and kprobe/FUNC, fexit/FUNC and kretprobe/FUNC, tp_btf/NAME
 * and raw_tp/NAME, a system call through ksyscall/NAME and
 * kprobe/__x64_sys_NAME. Their user space loads one of them, the best the
 * kernel supports (bpf_program__set_autoload(prog, false) on the others);
 * attaching all of them counts every event two or three times. So before
 * loading, each group of twins keeps the programs of its best kind that
 * bsdk_prog_attach_check() passes; the others wait as spares, with one
 * debug line each, and one of them stands in when the chosen kind is
 * rejected by the verifier (bsdk_obj_attach_load()) or cannot be attached
 * after all (bsdk_obj_attach_all()). Programs of the same kind on the same
 * hook are not twins: a tool that puts two programs there wants both.
 */
#include <stdio.h>

#include "ext/ext.h"

/* The three events twins share, and each kind's place in its group: lower
 * goes first. fentry and fmod_ret both run through the trampoline at the
 * function's entry; a kprobe is the older way to the same place. */
enum twin_event { TWIN_NONE, TWIN_ENTRY, TWIN_EXIT, TWIN_TRACEPOINT };

static const struct twin_kind {
	const char *prefix;	/* the attach table's row */
	enum twin_event event;
	int rank;
} twin_kinds[] = {
	{ "fentry", TWIN_ENTRY, 0 },      { "fentry.s", TWIN_ENTRY, 0 },
	{ "fmod_ret", TWIN_ENTRY, 0 },    { "fmod_ret.s", TWIN_ENTRY, 0 },
	{ "ksyscall", TWIN_ENTRY, 1 },    { "kprobe", TWIN_ENTRY, 2 },
	{ "fexit", TWIN_EXIT, 0 },        { "fexit.s", TWIN_EXIT, 0 },
	{ "kretsyscall", TWIN_EXIT, 1 },  { "kretprobe", TWIN_EXIT, 2 },
	{ "tp_btf", TWIN_TRACEPOINT, 0 },
	{ "raw_tp", TWIN_TRACEPOINT, 1 }, { "raw_tracepoint", TWIN_TRACEPOINT, 1 },
	{ "tp", TWIN_TRACEPOINT, 2 },     { "tracepoint", TWIN_TRACEPOINT, 2 },
};

/* The prefixes of the symbols that enter a system call, on the
 * architectures with syscall wrappers, and without them. */
static const char *const syscall_prefixes[] = {
	"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__s390x_sys_", "__riscv_sys_", "sys_",
};

static const struct twin_kind *twin_kind(const struct bsdk_prog *prog)
{
	for (size_t i = 0; i < ARRAY_SIZE(twin_kinds); i++)
		if (strcmp(prog->kind->prefix, twin_kinds[i].prefix) == 0)
			return &twin_kinds[i];
	return NULL;
}

/* Where prog's hook is, as twins compare it: a function's name (a system
 * call's entry symbol as "sys_NAME", whatever the architecture's wrapper
 * prefix), a tracepoint's name without its category. Empty when prog has
 * no twin: not a twin kind, a kprobe at an offset into the function. */
static void twin_hook(const struct bsdk_prog *prog, const struct twin_kind *tk,
		      char *buf, size_t size)
{
	const char *t = prog->target ? prog->target : "";
	size_t len;

	buf[0] = '\0';
	if (!tk || !*t)
		return;
	if (tk->event == TWIN_TRACEPOINT) {
		/* tracepoint/CAT/NAME: the raw tracepoint is NAME */
		if (tk->rank == 2) {
			const char *slash = strchr(t, '/');

			if (!slash || !slash[1])
				return;
			t = slash + 1;
		}
		snprintf(buf, size, "%s", t);
		return;
	}
	len = strcspn(t, "+");
	if (t[len] && strcmp(t + len, "+0") != 0)
		return;		/* not the function's entry */
	if (strcmp(tk->prefix, "ksyscall") == 0 || strcmp(tk->prefix, "kretsyscall") == 0) {
		snprintf(buf, size, "sys_%.*s", (int)len, t);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(syscall_prefixes); i++) {
		size_t n = strlen(syscall_prefixes[i]);

		if (len > n && strncmp(t, syscall_prefixes[i], n) == 0) {
			snprintf(buf, size, "sys_%.*s", (int)(len - n), t + n);
			return;
		}
	}
	snprintf(buf, size, "%.*s", (int)len, t);
}

/* Whether a and b see the same event through different kinds of hook. */
static bool twins(const struct bsdk_prog *a, const struct bsdk_prog *b)
{
	const struct twin_kind *ka = twin_kind(a), *kb = twin_kind(b);
	char ha[256], hb[256];

	if (a == b || !ka || !kb || ka->event != kb->event || ka->rank == kb->rank)
		return false;
	twin_hook(a, ka, ha, sizeof(ha));
	twin_hook(b, kb, hb, sizeof(hb));
	return ha[0] && strcmp(ha, hb) == 0;
}

/* Whether a and b are in one group: on the same hook through kinds that
 * twin (of one kind too: a tool that puts two programs on a hook wants
 * both, so they go, or stay, together). */
static bool grouped(const struct bsdk_prog *a, const struct bsdk_prog *b)
{
	const struct twin_kind *ka = twin_kind(a), *kb = twin_kind(b);
	char ha[256], hb[256];

	if (!ka || !kb || ka->event != kb->event)
		return false;
	twin_hook(a, ka, ha, sizeof(ha));
	twin_hook(b, kb, hb, sizeof(hb));
	return ha[0] && strcmp(ha, hb) == 0;
}

/* Whether prog's group holds two kinds among the programs that count:
 * those to be loaded (autoload) and, with spares, those waiting. */
static bool has_twin(const struct bsdk_prog *prog, bool spares)
{
	const struct bsdk_obj *obj = prog->obj;

	for (size_t i = 0; i < obj->nprogs; i++) {
		const struct bsdk_prog *p = &obj->progs[i];

		if ((p->autoload || (spares && p->twin_spare)) && twins(prog, p))
			return true;
	}
	return false;
}

int bsdk_prog_twin_rank(const struct bsdk_prog *prog)
{
	const struct twin_kind *tk = twin_kind(prog);
	char hook[256];

	twin_hook(prog, tk, hook, sizeof(hook));
	return hook[0] ? tk->rank : fail(ENOENT);
}

struct bsdk_prog *bsdk_prog_twin_next(const struct bsdk_prog *prog, const struct bsdk_prog *prev)
{
	const struct bsdk_obj *obj = prog->obj;
	size_t i = prev ? (size_t)(prev - obj->progs) + 1 : 0;
	bool any = false;

	/* a group: another kind on the hook, seen from any of its members */
	for (size_t j = 0; j < obj->nprogs && !any; j++)
		for (size_t k = 0; k < obj->nprogs && !any; k++)
			any = grouped(prog, &obj->progs[j]) && twins(&obj->progs[j], &obj->progs[k]);
	for (; any && i < obj->nprogs; i++)
		if (&obj->progs[i] != prog && grouped(prog, &obj->progs[i]))
			return &obj->progs[i];
	return fail_ptr(ENOENT);
}

/* The first program of prog's group at the best rank that is to be loaded
 * or is loaded: the one the others are left out for. */
static const struct bsdk_prog *group_kept(const struct bsdk_prog *prog)
{
	const struct bsdk_obj *obj = prog->obj;
	const struct bsdk_prog *kept = NULL;

	for (size_t i = 0; i < obj->nprogs; i++) {
		const struct bsdk_prog *p = &obj->progs[i];

		if (p->autoload && !p->twin_spare && grouped(prog, p) &&
		    (!kept || bsdk_prog_twin_rank(p) < bsdk_prog_twin_rank(kept)))
			kept = p;
	}
	return kept;
}

int twins_choose(struct bsdk_prog *prog, bool require_all, bool *done)
{
	struct bsdk_obj *obj = prog->obj;
	const struct bsdk_prog *kept;
	char why[512];
	int chosen = -1, nkept = 0, err;

	/* the best rank at which a program passes the check */
	for (int rank = 0; rank <= 2 && chosen < 0; rank++)
		for (size_t i = 0; i < obj->nprogs; i++) {
			struct bsdk_prog *p = &obj->progs[i];

			if (p->autoload && grouped(prog, p) && bsdk_prog_twin_rank(p) == rank &&
			    bsdk_prog_attach_check(p, why, sizeof(why)) == 0)
				chosen = rank;
		}
	for (size_t i = 0; i < obj->nprogs; i++) {
		struct bsdk_prog *p = &obj->progs[i];
		int rank = bsdk_prog_twin_rank(p);

		if (!p->autoload || !grouped(prog, p))
			continue;
		done[i] = true;
		if (rank > chosen && chosen >= 0) {
			p->twin_spare = true;	/* kept for when the chosen cannot be */
			continue;
		}
		err = bsdk_prog_attach_check(p, why, sizeof(why));
		if (err == 0) {
			nkept++;
			continue;
		}
		p->autoload = false;
		if (rank == chosen || chosen < 0) {
			attach_left_out(p, require_all, why);
			if (require_all)
				return err;
		} else {
			p->twin_spare = true;	/* said below, once its twin is known */
			p->autoload = true;
		}
	}
	kept = group_kept(prog);
	for (size_t i = 0; i < obj->nprogs; i++) {
		struct bsdk_prog *p = &obj->progs[i];

		if (!p->twin_spare || !grouped(prog, p))
			continue;
		p->autoload = false;
		if (bsdk_prog_twin_rank(p) < chosen) {
			/* failed the check: never a spare */
			p->twin_spare = false;
			bsdk_prog_attach_check(p, why, sizeof(why));
			log_info("'%s': program '%s' (section '%s'): left out: %s; its twin '%s' (section '%s') is used",
				 obj->name, p->fn.name, p->section, why, kept->fn.name, kept->section);
		} else {
			log_info("'%s': program '%s' (section '%s'): left out: a twin of '%s' (section '%s'), which is used (--all-twins attaches every twin)",
				 obj->name, p->fn.name, p->section, kept->fn.name, kept->section);
		}
	}
	return nkept;
}

bool twins_grouped(const struct bsdk_prog *prog)
{
	return has_twin(prog, false);
}

int twins_stand_in(struct bsdk_prog *failed)
{
	struct bsdk_obj *obj = failed->obj;
	char why[512];
	int n = 0;

	if (group_kept(failed))
		return 0;	/* another of its kind is still there */
	for (int rank = 0; rank <= 2 && !n; rank++)
		for (size_t i = 0; i < obj->nprogs; i++) {
			struct bsdk_prog *p = &obj->progs[i];

			if (!p->twin_spare || !grouped(failed, p) || bsdk_prog_twin_rank(p) != rank)
				continue;
			p->twin_spare = false;
			if (bsdk_prog_attach_check(p, why, sizeof(why))) {
				attach_left_out(p, false, why);
				continue;
			}
			p->autoload = true;
			log_info("'%s': program '%s' (section '%s'): stands in for its twin '%s' (section '%s')",
				 obj->name, p->fn.name, p->section, failed->fn.name, failed->section);
			n++;
		}
	return n;
}
