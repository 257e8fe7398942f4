// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * pass.c - where the extensions hook into the object's life: the table of
 * passes the open and load pipeline runs (filled by the top of the
 * library, ext/passes.c; empty in libbpfsdk-core.a), each hook's loop
 * with the rule that combines the passes' answers (pass.h names the
 * rules), and each extension's state of an object, found by a key of its
 * own. No other file of the core walks the table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "object/pass.h"

static const struct obj_pass *obj_passes[OBJ_PASSES_MAX];
size_t obj_npasses;

void obj_pass_add(const struct obj_pass *pass)
{
	for (size_t i = 0; i < obj_npasses; i++)
		if (obj_passes[i] == pass)
			return;
	if (obj_npasses == OBJ_PASSES_MAX) {
		/* a library built with more passes than its table holds: never
		 * run without one of them */
		fprintf(stderr, "bpfsdk: pass '%s': more than OBJ_PASSES_MAX (%d) passes\n",
			pass->name, OBJ_PASSES_MAX);
		abort();
	}
	obj_passes[obj_npasses++] = pass;
}

/* every: run hook over the passes that have it; the first error stops. */
#define EVERY(hook, ...)						\
	do {								\
		for (size_t i_ = 0; i_ < obj_npasses; i_++) {		\
			int err_ = obj_passes[i_]->hook ?		\
				   obj_passes[i_]->hook(__VA_ARGS__) : 0; \
			if (err_)					\
				return err_;				\
		}							\
		return 0;						\
	} while (0)

/* each: run hook over the passes that have it. */
#define EACH(hook, ...)							\
	do {								\
		for (size_t i_ = 0; i_ < obj_npasses; i_++)		\
			if (obj_passes[i_]->hook)			\
				obj_passes[i_]->hook(__VA_ARGS__);	\
	} while (0)

/* first: the index of the first pass with hook, obj_npasses when none has it */
#define FIRST(hook)							\
	({								\
		size_t i_ = 0;						\
		while (i_ < obj_npasses && !obj_passes[i_]->hook)	\
			i_++;						\
		i_;							\
	})

int passes_btf(struct bsdk_obj *obj) { EVERY(btf, obj); }
int passes_open(struct bsdk_obj *obj) { EVERY(open, obj); }
int passes_opened(struct bsdk_obj *obj) { EVERY(opened, obj); }
int passes_load(struct bsdk_obj *obj) { EVERY(load, obj); }
int passes_map_created(struct bsdk_map *map) { EVERY(map_created, map); }
int passes_prog_attr(struct bsdk_prog *prog, union bpf_attr *attr) { EVERY(prog_attr, prog, attr); }

int passes_link_func(const struct bsdk_prog *prog, const struct func *fn,
		     struct linked *out, size_t base)
{
	EVERY(link_func, prog, fn, out, base);
}

void passes_link_relo(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn)
{
	EACH(link_relo, obj, r, insn);
}

void passes_map_create_failed(const struct bsdk_map *map, int err)
{
	EACH(map_create_failed, map, err);
}

void passes_hint(const struct bsdk_prog *prog, const char *log, long insn, const struct linked *l)
{
	EACH(hint, prog, log, insn, l);
}

void passes_explain(const struct bsdk_prog *prog, const struct linked *l, long insn)
{
	EACH(explain, prog, l, insn);
}

void passes_load_failed(struct bsdk_obj *obj) { EACH(load_failed, obj); }
void passes_unload(struct bsdk_obj *obj) { EACH(unload, obj); }
void passes_link_free(struct bsdk_link *link) { EACH(link_free, link); }

bool passes_apply_core_relos(void)
{
	for (size_t i = 0; i < obj_npasses; i++)
		if (obj_passes[i]->co_re_relos)
			return true;
	return false;
}

bool passes_pin_maps(void)
{
	for (size_t i = 0; i < obj_npasses; i++)
		if (obj_passes[i]->pins_maps)
			return true;
	return false;
}

/* The check of a kernel BTF file named by the caller, made whether or not
 * this object needs it; one pass must be there to read it. */
int passes_kernel_btf(struct bsdk_obj *obj)
{
	size_t i = FIRST(kernel_btf);

	if (i < obj_npasses)
		return obj_passes[i]->kernel_btf(obj);
	return obj_fail(obj, BSDK_ENOTSUPP, "a kernel BTF file ('%s'), which this build of the library does not read (libbpfsdk-core: link libbpfsdk)",
			obj->btf_path);
}

/* -ENOENT from a pass: the symbol is not its own; from here: no pass's. */
int passes_relo_undef(struct bsdk_obj *obj, size_t sec, size_t n,
		      const struct bpf_insn *insn, struct relo *r)
{
	for (size_t i = 0; i < obj_npasses; i++) {
		int err = obj_passes[i]->relo_undef ?
			  obj_passes[i]->relo_undef(obj, sec, n, insn, r) : -ENOENT;

		if (err != -ENOENT)
			return err;
	}
	return -ENOENT;
}

/* 0: no pass took the map, create it; 1: a pass gave it an fd (a pinned
 * map reused); or an error, logged. */
int passes_map_create(struct bsdk_map *map)
{
	for (size_t i = 0; i < obj_npasses; i++) {
		int err = obj_passes[i]->map_create ? obj_passes[i]->map_create(map) : 0;

		if (err)
			return err;
	}
	return 0;
}

void *passes_map_data(const struct bsdk_map *map)
{
	for (size_t i = 0; i < obj_npasses; i++) {
		void *p = obj_passes[i]->map_data ? obj_passes[i]->map_data(map) : NULL;

		if (p)
			return p;
	}
	return NULL;
}

/* The log of the one run made to explain a rejection: a pass's size for
 * this kernel, else one that holds the end of any log, wherever the
 * kernel keeps it (256 MiB of address space; only what the kernel writes
 * is touched). */
size_t passes_log_size(void)
{
	size_t i = FIRST(log_size);

	return i < obj_npasses ? obj_passes[i]->log_size() : 256u << 20;
}

/* The verifier's reason for a rejection, in one line: a pass's reading of
 * its log, else where to find it. */
void passes_reason(const char *log, char *buf, size_t size)
{
	size_t i = FIRST(reason);

	if (i < obj_npasses)
		obj_passes[i]->reason(log, buf, size);
	else
		snprintf(buf, size, "its log is shown at debug level (-v -v)");
}

void *obj_state_find(const struct bsdk_obj *obj, const void *key)
{
	for (size_t i = 0; i < obj->nstates; i++)
		if (obj->states[i].key == key)
			return obj->states[i].state;
	return NULL;
}

void *obj_state(struct bsdk_obj *obj, const void *key, size_t size, void (*free_fn)(void *state))
{
	struct obj_state st = { key, obj_state_find(obj, key), free_fn };

	if (st.state)
		return st.state;
	st.state = calloc(1, size);
	if (!st.state)
		return fail_ptr(ENOMEM);
	if (array_push(&obj->states, &obj->nstates, &st, sizeof(st))) {
		free(st.state);
		return fail_ptr(ENOMEM);
	}
	return st.state;
}

void obj_states_free(struct bsdk_obj *obj)
{
	for (size_t i = 0; i < obj->nstates; i++)
		obj->states[i].free_fn(obj->states[i].state);
	free(obj->states);
	obj->states = NULL;
	obj->nstates = 0;
}
