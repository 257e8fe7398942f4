// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_load - load every program of an object and say which loaded, for
 * tests/bats/attach_policy.bats (load-only kinds go through the verifier).
 *
 *   attach_load OBJECT
 *
 * Prints "loaded NAME TYPE" for each program with an fd after
 * bsdk_obj_load(). Exit 0 when the object loaded, 1 otherwise.
 */
#include <stdio.h>

#include "bpfsdk.h"

int main(int argc, char **argv)
{
	struct bsdk_prog *prog = NULL;
	struct bsdk_obj *obj;

	if (argc != 2) {
		fprintf(stderr, "usage: attach_load OBJECT\n");
		return 2;
	}
	bsdk_bump_memlock();
	obj = bsdk_obj_open(argv[1]);
	if (!obj || bsdk_obj_load(obj)) {
		bsdk_obj_close(obj);
		return 1;
	}
	while ((prog = bsdk_obj_prog_next(obj, prog)))
		if (bsdk_prog_fd(prog) >= 0)
			printf("loaded %s %s\n", bsdk_prog_name(prog), bsdk_prog_type_name(prog));
	bsdk_obj_close(obj);
	return 0;
}
