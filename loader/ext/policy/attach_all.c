// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_all.c - the attach policy: attach every program of an object
 * that can be attached here, and leave out the rest with one warning line
 * each, naming the object, the program and why.
 *
 * Objects written for many kernels carry programs some kernels cannot run
 * (a tracepoint renamed, a kprobe where there are no kprobes, an fentry
 * where the BPF trampoline is missing): libbpf's tools load the rest, and
 * so does this. What can be known before loading (a probe section that
 * names no target, a missing tracepoint, a BTF target missing from kernel
 * BTF, a kind the kernel refuses) is found by bsdk_obj_attach_prepare(),
 * so that nothing is sent through the verifier in vain; what only the
 * attach itself can tell is found by bsdk_obj_attach_all().
 */
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

#include "ext/policy/policy.h"
#include "hooks/hooks.h"
#include "ext/usdt/usdt.h"
#include "object/pass.h"

bool bsdk_prog_attached(const struct bsdk_prog *prog) { return prog && prog->attached; }

/* The links bsdk_obj_attach_all() made, which bsdk_obj_detach_all() destroys (and the
 * caller's own are left alone): obj_state() of made_key, a link dropped as it is freed. */
struct made_links {
	struct bsdk_link **of;
	size_t n;
};
static const char made_key;

static void made_free(void *state)
{
	struct made_links *s = state;

	free(s->of);
	free(s);
}

static void made_drop(struct bsdk_link *link)
{
	struct made_links *s = obj_state_find(link->obj, &made_key);

	for (size_t i = 0; s && i < s->n; i++)
		if (s->of[i] == link) {
			s->of[i] = s->of[--s->n];
			return;
		}
}

static bool made_here(const struct bsdk_link *link)
{
	const struct made_links *s = obj_state_find(link->obj, &made_key);

	for (size_t i = 0; s && i < s->n; i++)
		if (s->of[i] == link)
			return true;
	return false;
}

/* 0, or -ENOMEM: then link is destroyed, as if its attach had failed. */
static int made_add(struct bsdk_link *link)
{
	struct made_links *s = obj_state(link->obj, &made_key, sizeof(*s), made_free);
	struct bsdk_prog *prog = link->prog;

	if (s && !array_push(&s->of, &s->n, &link, sizeof(link)))
		return 0;
	bsdk_link_destroy(link);
	prog->attached = bsdk_prog_link(prog) != NULL;	/* unless the caller holds one */
	return fail(ENOMEM);
}

const struct obj_pass policy_pass = {
	.name = "attach policy",
	.link_free = made_drop,
};

/* -v: how far the checks are, once a second at most: on a slow machine (an emulated guest
 * loading an empty program per BTF-typed kind) checking many programs takes seconds, and
 * the programs that pass say nothing until they load. Those before next are decided, and
 * those after it that a group of twins decided with an earlier one (done). */
static void say_progress(const struct bsdk_obj *obj, const bool *done, size_t next,
			 struct timespec *last)
{
	struct timespec now;
	size_t checked = next;

	if (clock_gettime(CLOCK_MONOTONIC, &now))
		return;
	if (now.tv_sec - last->tv_sec + (now.tv_nsec - last->tv_nsec) / 1e9 < 1.0)
		return;
	*last = now;
	for (size_t i = next; i < obj->nprogs; i++)
		checked += done[i];
	log_info("'%s': %zu of %zu programs checked", obj->name, checked, obj->nprogs);
}

int bsdk_obj_attach_prepare(struct bsdk_obj *obj, unsigned int flags)
{
	bool require_all = flags & BSDK_ATTACH_REQUIRE_ALL;
	struct timespec last = { 0, 0 };
	bool *done;
	char why[512];
	int left = 0;

	if (obj->loaded)
		return log_fail(EBUSY, "'%s': already loaded: prepare before bsdk_obj_load()", obj->name);
	done = calloc(obj->nprogs ? obj->nprogs : 1, sizeof(*done));
	if (!done)
		return log_fail(ENOMEM, "'%s': out of memory", obj->name);
	twins_reset(obj);
	if (obj->nprogs > 1)	/* -v: what the silence before the first load is */
		log_info("'%s': checking which of its %zu programs this kernel can attach",
			 obj->name, obj->nprogs);
	clock_gettime(CLOCK_MONOTONIC, &last);
	for (size_t i = 0; i < obj->nprogs; i++) {
		struct bsdk_prog *prog = &obj->progs[i];
		int err;

		if (i)
			say_progress(obj, done, i, &last);
		if (!prog->autoload || done[i])
			continue;
		/* one of each group of twins (twins.c) */
		if (!(flags & BSDK_ATTACH_ALL_TWINS) && twins_grouped(prog)) {
			err = twins_choose(prog, require_all, done);
			if (err < 0) {
				free(done);
				return err;
			}
			left += err;
			continue;
		}
		err = bsdk_prog_attach_check(prog, why, sizeof(why));
		if (!err) {
			left++;
			continue;
		}
		attach_left_out(prog, require_all, why);
		if (require_all) {
			free(done);
			return err;
		}
		prog->autoload = false;
	}
	free(done);
	return left;
}

/* Load prog; a verifier rejection leaves it out with a warning (prog.c)
 * and lets a twin stand in. 1: loaded, 0: left out, or a negative errno. */
static int load_leaving_out(struct bsdk_prog *prog)
{
	int err;

	err = prog_load(prog, true);
	if (err != -BSDK_EVERIFIER)
		return err ? err : 1;
	prog->autoload = false;
	twins_stand_in(prog);
	return 0;
}

static int count_loaded(const struct bsdk_obj *obj)
{
	int n = 0;

	for (size_t i = 0; i < obj->nprogs; i++)
		n += obj->progs[i].fd >= 0;
	return n;
}

int bsdk_obj_attach_load(struct bsdk_obj *obj, unsigned int flags)
{
	bool again = true;
	int err;

	if (flags & BSDK_ATTACH_REQUIRE_ALL) {
		err = bsdk_obj_load(obj);
		return err ? err : count_loaded(obj);
	}
	err = obj_load_begin(obj);
	if (err)
		return err;
	/* a twin that stands in may come before the program it replaces */
	while (again) {
		again = false;
		for (size_t i = 0; i < obj->nprogs; i++) {
			struct bsdk_prog *prog = &obj->progs[i];

			if (!prog->autoload || prog->fd >= 0)
				continue;
			err = load_leaving_out(prog);
			if (err < 0) {
				obj_load_abort(obj, err);
				return err;
			}
			again |= err == 0;
		}
	}
	obj->loaded = true;
	return count_loaded(obj);
}

/* bsdk_obj_attach_all(), and in *last_err the errno of the last program
 * left out (0 when none was). */
static int attach_all(struct bsdk_obj *obj, unsigned int flags, int *last_err)
{
	bool require_all = flags & BSDK_ATTACH_REQUIRE_ALL;
	char why[1024];
	int count = 0, err;

	if (!obj->loaded) {
		err = bsdk_obj_attach_prepare(obj, flags);
		if (err < 0)
			return err;
		err = bsdk_obj_attach_load(obj, flags);
		if (err < 0)
			return err;
	}
	for (size_t i = 0; i < obj->nprogs; i++) {
		struct bsdk_prog *prog = &obj->progs[i];
		struct bsdk_link *link;

		/* a twin standing in for one that could not be attached */
		if (prog->autoload && prog->fd < 0 && !prog->attached && prog->obj->loaded) {
			err = load_leaving_out(prog);
			if (err < 0)
				return err;
			if (err == 0) {
				i = (size_t)-1;	/* its own spare may come earlier */
				continue;
			}
		}
		if (prog->fd < 0 || prog->attached || !prog->autoload)
			continue;	/* not loaded, left out, or attached already: the caller's */
		/* loaded without bsdk_obj_attach_prepare(): the same reasons */
		if (!prog->kind->method ||
		    (prog->kind->method == &attach_by_uprobe && !uprobe_target_complete(prog->target)) ||
		    (prog->kind->method == &attach_by_usdt && !*prog->target)) {
			bsdk_prog_attach_check(prog, why, sizeof(why));
			attach_left_out(prog, require_all, why);
			*last_err = EOPNOTSUPP;
			if (require_all)
				return fail(EOPNOTSUPP);
			prog->autoload = false;	/* said once */
			continue;
		}
		log_capture_begin(why, sizeof(why));
		link = bsdk_prog_attach(prog);
		log_capture_end();
		if (link && made_add(link) == 0) {
			count++;
			continue;
		}
		err = errno;
		if (!why[0])
			snprintf(why, sizeof(why), "%s", bsdk_strerror(err));
		attach_left_out(prog, require_all, why);
		*last_err = err;
		if (require_all)
			return fail(err);
		prog->autoload = false;	/* left out: not tried again */
		if (twins_stand_in(prog))
			i = (size_t)-1;		/* the spare may come earlier */
	}
	return count;
}

int bsdk_obj_attach_all(struct bsdk_obj *obj, unsigned int flags)
{
	int last_err = 0;

	return attach_all(obj, flags, &last_err);
}

static bool prog_has_link(const struct bsdk_prog *prog)
{
	for (const struct bsdk_link *l = prog->obj->links; l; l = l->next)
		if (l->prog == prog)
			return true;
	return false;
}

int bsdk_obj_attached_count(const struct bsdk_obj *obj)
{
	int n = 0;

	for (size_t i = 0; i < obj->nprogs; i++)
		n += prog_has_link(&obj->progs[i]);
	return n;
}

/* libbpf's skeleton contract: 0 when the programs to attach are attached,
 * where bsdk_obj_attach_all() counts them; a leave-out is a warning, but
 * nothing attached at all is an error, so that `if (err)` after attach
 * catches a tool that would trace nothing. */
int bsdk_obj_attach_skeleton(struct bsdk_obj *obj)
{
	int last_err = 0, n = attach_all(obj, 0, &last_err);

	if (n < 0 || bsdk_obj_attached_count(obj) > 0)
		return n < 0 ? n : 0;
	if (!last_err)
		last_err = obj->nprogs ? BSDK_ENOPROBE : ENOENT;
	return log_fail(last_err, "'%s': no program attached: %s", obj->name,
			obj->nprogs ? "each was left out (the warnings above say why)"
				    : "the object has no programs");
}

int bsdk_obj_detach_all(struct bsdk_obj *obj)
{
	struct bsdk_link *l, *next;
	int n = 0;

	for (l = obj->links; l; l = next) {
		struct bsdk_prog *prog = l->prog;

		next = l->next;
		if (!made_here(l))
			continue;
		bsdk_link_destroy(l);
		n++;
		/* attachable again, unless the caller holds a link of its own */
		prog->attached = prog_has_link(prog);
	}
	if (n)
		log_info("'%s': %d program%s detached", obj->name, n, n == 1 ? "" : "s");
	return n;
}
