// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * pass.c - where the extensions hook into the object's life: the table of
 * passes the open and load pipeline runs (filled by the top of the
 * library, ext/passes.c; empty in libbpfsdk-core.a), and each
 * extension's state of an object, found by a key of its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "object/object.h"

const struct obj_pass *obj_passes[OBJ_PASSES_MAX];
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
