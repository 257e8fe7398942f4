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
 *
 * Entry and exit go together: a kprobe that saves what its kretprobe needs
 * (the lock klockstat's kretprobe cannot read from its registers) in a map
 * they share is half a probe without it, and its map fills with entries
 * nothing deletes. So the group of a function's entry and the group of its
 * exit are a pair when programs of one kind in each share a map, and a
 * pair takes the best kind both of its groups can attach: fentry and fexit,
 * or kprobe and kretprobe, never one of each. A uprobe and the uretprobe
 * on the same PATH:FUNCTION are such a pair too (of one kind: nothing to
 * choose between, but inspect shows them together). The maps a program
 * uses are those of its own instructions and of the subprograms it calls
 * (BPF-to-BPF calls, callbacks): fsdist's kretprobe and fexit both record
 * through one static function.
 */
#include <stdio.h>

#include "ext/policy/policy.h"
#include "object/pass.h"

/* The events twins share, and each kind's place in its group: lower
 * goes first. fentry and fmod_ret both run through the trampoline at the
 * function's entry; a kprobe is the older way to the same place. A user
 * function's entry and return have one kind each. */
enum twin_event { TWIN_NONE, TWIN_ENTRY, TWIN_EXIT, TWIN_TRACEPOINT, TWIN_UENTRY, TWIN_UEXIT };

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
	{ "uprobe", TWIN_UENTRY, 0 },     { "uprobe.s", TWIN_UENTRY, 0 },
	{ "uretprobe", TWIN_UEXIT, 0 },   { "uretprobe.s", TWIN_UEXIT, 0 },
};

/* The event at the other end of the function whose entry is event e, or TWIN_NONE. */
static enum twin_event exit_event(enum twin_event e)
{
	return e == TWIN_ENTRY ? TWIN_EXIT : e == TWIN_UENTRY ? TWIN_UEXIT : TWIN_NONE;
}

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
 * prefix), a user function as PATH:FUNCTION, a tracepoint's name without
 * its category. Empty when prog has no twin: not a twin kind, a probe at
 * an offset into the function, a uprobe whose section names no binary. */
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
	if (tk->event == TWIN_UENTRY || tk->event == TWIN_UEXIT) {
		if (memchr(t, ':', len))
			snprintf(buf, size, "%.*s", (int)len, t);
		return;
	}
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

/* The groups of an object's programs, made once at open (twins_pass): a
 * program's group is its first member's index, and the members of a group
 * are linked in the order of the programs, so that every question below
 * costs the size of a group, not the number of programs. */
struct twin_index {
	int *first;		/* the group's first member, -1 for no group */
	int *next;		/* the next member, -1 after the last */
	unsigned *ranks;	/* at a group's first member: the ranks it holds, as bits */
	/* Left out by the attach policy as a twin of a better program: it
	 * stands in when that one cannot be loaded or attached. */
	bool *spare;
	/* at a group's first member: the first member of the group of the other end of its
	 * function (entry, exit) when the two are a pair, else -1; found at the first question,
	 * once the relocations that name the maps are read */
	int *pair;
	bool paired;
};

static const char twins_key;

static void twin_index_free(void *p)
{
	struct twin_index *ix = p;

	free(ix->first);
	free(ix->next);
	free(ix->ranks);
	free(ix->spare);
	free(ix->pair);
	free(ix);
}

static const struct twin_index *twin_index(const struct bsdk_prog *prog)
{
	return obj_state_find(prog->obj, &twins_key);
}

static bool is_spare(const struct bsdk_prog *p)
{
	const struct twin_index *ix = twin_index(p);

	return ix && ix->spare[p - p->obj->progs];
}

static void set_spare(const struct bsdk_prog *p, bool spare)
{
	struct twin_index *ix = obj_state_find(p->obj, &twins_key);

	if (ix)
		ix->spare[p - p->obj->progs] = spare;
}

void twins_reset(struct bsdk_obj *obj)
{
	struct twin_index *ix = obj_state_find(obj, &twins_key);

	for (size_t i = 0; ix && i < obj->nprogs; i++)
		ix->spare[i] = false;
}

/* The sort that puts each group's members side by side, in program order. */
static int hook_cmp(const void *a, const void *b, void *arg)
{
	const struct bsdk_prog *progs = ((const struct bsdk_obj *)arg)->progs;
	int i = *(const int *)a, j = *(const int *)b;
	const struct twin_kind *ki = twin_kind(&progs[i]), *kj = twin_kind(&progs[j]);
	char hi[256], hj[256];
	int d = (int)ki->event - (int)kj->event;

	if (d)
		return d;
	twin_hook(&progs[i], ki, hi, sizeof(hi));
	twin_hook(&progs[j], kj, hj, sizeof(hj));
	d = strcmp(hi, hj);
	return d ? d : i - j;
}

/* Link the members of each run of order[0..n) that share a hook. */
static void twin_index_link(struct twin_index *ix, const struct bsdk_obj *obj,
			    const int *order, size_t n)
{
	char prev[256] = "", hook[256];
	int first = -1, last = -1;
	enum twin_event ev = TWIN_NONE;

	for (size_t k = 0; k < n; k++) {
		const struct bsdk_prog *p = &obj->progs[order[k]];
		const struct twin_kind *tk = twin_kind(p);

		twin_hook(p, tk, hook, sizeof(hook));
		if (first < 0 || tk->event != ev || strcmp(hook, prev) != 0) {
			first = order[k];
			ev = tk->event;
			snprintf(prev, sizeof(prev), "%s", hook);
		} else {
			ix->next[last] = order[k];
		}
		ix->first[order[k]] = first;
		ix->ranks[first] |= 1u << tk->rank;
		last = order[k];
	}
}

/* A map that relocations of both a and b name, in their own instructions or in the
 * subprograms they call (the program as linked): the first of the object's maps they
 * share, whichever of the two asks, or NULL. */
static const struct bsdk_map *shared_map(const struct bsdk_prog *a, const struct bsdk_prog *b)
{
	size_t na = bsdk_prog_relo_count(a), nb = bsdk_prog_relo_count(b);
	const struct bsdk_map *found = NULL;
	struct bsdk_relo_info ra, rb;

	for (size_t i = 0; i < na; i++) {
		if (bsdk_prog_relo(a, i, &ra) || ra.kind != BSDK_RELO_MAP ||
		    (found && ra.map >= found))
			continue;
		for (size_t j = 0; j < nb && found != ra.map; j++)
			if (bsdk_prog_relo(b, j, &rb) == 0 && rb.kind == BSDK_RELO_MAP &&
			    rb.map == ra.map)
				found = ra.map;
	}
	return found;
}

/* Pair each entry group with the exit group on its hook (kernel or user function) when
 * programs of one kind in each share a map. */
static void twin_index_pair(struct twin_index *ix, const struct bsdk_obj *obj)
{
	char he[256], hx[256];

	for (size_t e = 0; e < obj->nprogs; e++) {
		const struct bsdk_prog *pe = &obj->progs[e];

		if (ix->first[e] != (int)e || exit_event(twin_kind(pe)->event) == TWIN_NONE)
			continue;
		twin_hook(pe, twin_kind(pe), he, sizeof(he));
		for (size_t x = 0; x < obj->nprogs && ix->pair[e] < 0; x++) {
			const struct bsdk_prog *px = &obj->progs[x];

			if (ix->first[x] != (int)x ||
			    twin_kind(px)->event != exit_event(twin_kind(pe)->event))
				continue;
			twin_hook(px, twin_kind(px), hx, sizeof(hx));
			if (strcmp(he, hx) != 0)
				continue;
			for (int a = (int)e; a >= 0 && ix->pair[e] < 0; a = ix->next[a])
				for (int b = (int)x; b >= 0 && ix->pair[e] < 0; b = ix->next[b])
					if (twin_kind(&obj->progs[a])->rank ==
					    twin_kind(&obj->progs[b])->rank &&
					    shared_map(&obj->progs[a], &obj->progs[b]))
						ix->pair[e] = (int)x, ix->pair[x] = (int)e;
		}
	}
}

static int twins_open(struct bsdk_obj *obj)
{
	struct twin_index *ix;
	int *order;
	size_t n = 0;
	char hook[256];

	ix = obj_state(obj, &twins_key, sizeof(*ix), twin_index_free);
	if (!ix)
		return -errno;
	ix->first = malloc((obj->nprogs + 1) * sizeof(*ix->first));
	ix->next = malloc((obj->nprogs + 1) * sizeof(*ix->next));
	ix->ranks = calloc(obj->nprogs + 1, sizeof(*ix->ranks));
	ix->spare = calloc(obj->nprogs + 1, sizeof(*ix->spare));
	ix->pair = malloc((obj->nprogs + 1) * sizeof(*ix->pair));
	order = malloc((obj->nprogs + 1) * sizeof(*order));
	if (!ix->first || !ix->next || !ix->ranks || !ix->spare || !ix->pair || !order) {
		free(order);
		return log_fail(ENOMEM, "'%s': out of memory grouping twin programs", obj->name);
	}
	for (size_t i = 0; i < obj->nprogs; i++) {
		const struct twin_kind *tk = twin_kind(&obj->progs[i]);

		ix->first[i] = ix->next[i] = ix->pair[i] = -1;
		twin_hook(&obj->progs[i], tk, hook, sizeof(hook));
		if (hook[0])
			order[n++] = (int)i;
	}
	qsort_r(order, n, sizeof(*order), hook_cmp, obj);
	twin_index_link(ix, obj, order, n);
	free(order);
	return 0;
}

const struct obj_pass twins_pass = {
	.name = "twins",
	.open = twins_open,
};

/* Whether a and b are in one group: on the same hook through kinds that
 * twin (of one kind too: a tool that puts two programs on a hook wants
 * both, so they go, or stay, together). */
static bool grouped(const struct bsdk_prog *a, const struct bsdk_prog *b)
{
	const struct twin_index *ix = twin_index(a);
	size_t i = (size_t)(a - a->obj->progs), j = (size_t)(b - b->obj->progs);

	return ix && ix->first[i] >= 0 && ix->first[i] == ix->first[j];
}

/* Whether a and b see the same event through different kinds of hook. */
static bool twins(const struct bsdk_prog *a, const struct bsdk_prog *b)
{
	return a != b && grouped(a, b) && twin_kind(a)->rank != twin_kind(b)->rank;
}

/* The members of prog's group, in program order: p = group_first(prog);
 * p; p = group_next(p). NULL for a program of no group. */
static struct bsdk_prog *group_first(const struct bsdk_prog *prog)
{
	const struct twin_index *ix = twin_index(prog);
	int f = ix ? ix->first[prog - prog->obj->progs] : -1;

	return f < 0 ? NULL : &prog->obj->progs[f];
}

static struct bsdk_prog *group_next(const struct bsdk_prog *p)
{
	int n = twin_index(p)->next[p - p->obj->progs];

	return n < 0 ? NULL : &p->obj->progs[n];
}

/* Whether prog's group holds two kinds among the programs that count:
 * those to be loaded (autoload) and, with spares, those waiting. */
static bool has_twin(const struct bsdk_prog *prog, bool spares)
{
	for (const struct bsdk_prog *p = group_first(prog); p; p = group_next(p))
		if ((p->autoload || (spares && is_spare(p))) && twins(prog, p))
			return true;
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
	const struct bsdk_prog *first = group_first(prog);
	unsigned ranks = first ? twin_index(prog)->ranks[first - prog->obj->progs] : 0;
	struct bsdk_prog *p;

	/* a group: another kind on the hook, seen from any of its members */
	if (!(ranks & (ranks - 1)))
		return fail_ptr(ENOENT);
	for (p = prev ? group_next(prev) : (struct bsdk_prog *)first; p; p = group_next(p))
		if (p != prog)
			return p;
	return fail_ptr(ENOENT);
}

/* The first program of prog's group at the best rank that is to be loaded
 * or is loaded: the one the others are left out for. */
static const struct bsdk_prog *group_kept(const struct bsdk_prog *prog)
{
	const struct bsdk_prog *kept = NULL;

	for (const struct bsdk_prog *p = group_first(prog); p; p = group_next(p)) {
		if (p->autoload && !is_spare(p) &&
		    (!kept || bsdk_prog_twin_rank(p) < bsdk_prog_twin_rank(kept)))
			kept = p;
	}
	return kept;
}

/* The ranks at which a program of prog's group, to be loaded or waiting, passes the check. */
static unsigned pass_ranks(const struct bsdk_prog *prog)
{
	unsigned ranks = 0;
	char why[512];

	for (struct bsdk_prog *p = group_first(prog); p; p = group_next(p)) {
		int rank = bsdk_prog_twin_rank(p);

		if ((p->autoload || is_spare(p)) && !(ranks & 1u << rank) &&
		    bsdk_prog_attach_check(p, why, sizeof(why)) == 0)
			ranks |= 1u << rank;
	}
	return ranks;
}

/* The group of the other end of prog's function when the two are a pair, or NULL. */
static const struct bsdk_prog *pair_of(const struct bsdk_prog *prog)
{
	const struct bsdk_prog *first = group_first(prog);
	struct twin_index *ix = obj_state_find(prog->obj, &twins_key);
	int pair;

	if (!first || !ix)
		return NULL;
	if (!ix->paired && prog->obj->relos) {
		twin_index_pair(ix, prog->obj);
		ix->paired = true;
	}
	pair = ix->pair[first - prog->obj->progs];
	return pair < 0 ? NULL : &prog->obj->progs[pair];
}

struct bsdk_prog *bsdk_prog_twin_partner(const struct bsdk_prog *prog,
					 const struct bsdk_map **map)
{
	const struct bsdk_prog *pair = pair_of(prog);

	for (struct bsdk_prog *p = (struct bsdk_prog *)pair; p; p = group_next(p)) {
		const struct bsdk_map *m = bsdk_prog_twin_rank(p) == bsdk_prog_twin_rank(prog) ?
					   shared_map(prog, p) : NULL;

		if (m) {
			if (map)
				*map = m;
			return p;
		}
	}
	return fail_ptr(ENOENT);
}

/* -v: the pair that made the group take a kind it would not have taken alone. */
static void say_pair(const struct bsdk_prog *kept)
{
	const struct bsdk_map *m = NULL;
	const struct bsdk_prog *other = kept ? bsdk_prog_twin_partner(kept, &m) : NULL;

	if (other)
		log_info("'%s': program '%s' (section '%s') goes with '%s' (section '%s'): entry and exit of one function sharing map '%s', attached as one kind",
			 kept->obj->name, kept->fn.name, kept->section, other->fn.name,
			 other->section, m->name);
}

int twins_choose(struct bsdk_prog *prog, bool require_all, bool *done)
{
	struct bsdk_obj *obj = prog->obj;
	const struct bsdk_prog *kept, *pair = pair_of(prog);
	unsigned own = pass_ranks(prog), both = pair ? own & pass_ranks(pair) : 0;
	char why[512];
	int chosen = -1, nkept = 0, err;

	/* the best rank at which a program passes the check; for a pair, at which one of
	 * each of its groups does, when there is such a rank */
	if (own)
		chosen = __builtin_ctz(both ? both : own);
	for (struct bsdk_prog *p = group_first(prog); p; p = group_next(p)) {
		int rank = bsdk_prog_twin_rank(p);

		if (!p->autoload)
			continue;
		done[p - obj->progs] = true;
		if (chosen >= 0 && rank != chosen && (rank > chosen || (own & 1u << rank))) {
			set_spare(p, true);	/* kept for when the chosen cannot be */
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
			set_spare(p, true);	/* said below, once its twin is known */
			p->autoload = true;
		}
	}
	kept = group_kept(prog);
	if (both && chosen > __builtin_ctz(own))
		say_pair(kept);
	for (struct bsdk_prog *p = group_first(prog); p; p = group_next(p)) {
		if (!is_spare(p))
			continue;
		p->autoload = false;
		if (bsdk_prog_twin_rank(p) < chosen && !(own & 1u << bsdk_prog_twin_rank(p))) {
			/* failed the check: never a spare */
			set_spare(p, false);
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
		for (struct bsdk_prog *p = group_first(failed); p; p = group_next(p)) {
			if (!is_spare(p) || bsdk_prog_twin_rank(p) != rank)
				continue;
			set_spare(p, false);
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
