// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fuzz_obj.c - libFuzzer target: open any bytes as a BPF object and walk
 * everything `bpfsdk inspect` shows, then run the BTF sanitiser over what
 * was parsed. No bpf() call is made: bsdk_obj_open_mem() does all the
 * parsing and checking, and a finding here is a finding in it.
 *
 *   make fuzz [FUZZ_SECONDS=60]    build with ASan + UBSan and run
 *
 * A crash found here becomes a case in tests/unit/test_*_malformed.c.
 */
#include "fuzz_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bsdk_obj *obj;

	bsdk_set_log(log_sink, NULL);
	bsdk_set_log_level(BSDK_LOG_DEBUG);
	obj = bsdk_obj_open_mem(data, size, "fuzz");
	if (obj)
		walk(obj);
	bsdk_obj_close(obj);
	return 0;
}
