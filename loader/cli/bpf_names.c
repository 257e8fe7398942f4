// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bpf_names.c - readable names of the kernel's BPF enums, the way bpftool
 * and the kernel documentation spell them (lower case, no prefix).
 */
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli.h"

const char *bpf_map_type_str(int type)
{
	return bsdk_map_type_name(type);
}

/* Indexed by enum bpf_func_id, from the UAPI header's own list of helpers
 * in ID order. Headers before 6.2 have __BPF_FUNC_MAPPER(FN), FN(name)
 * separated by commas; later ones ___BPF_FUNC_MAPPER(FN), FN(name, id) with
 * no commas (their __BPF_FUNC_MAPPER adds commas of its own, so it is not
 * the one to take there). */
#ifdef ___BPF_FUNC_MAPPER
#define HELPER_NAME(name, ...) [BPF_FUNC_##name] = "bpf_" #name,
#define HELPER_LIST ___BPF_FUNC_MAPPER(HELPER_NAME)
#else
#define HELPER_NAME(name, ...) [BPF_FUNC_##name] = "bpf_" #name
#define HELPER_LIST __BPF_FUNC_MAPPER(HELPER_NAME)
#endif
static const char *const helper_names[] = {
	HELPER_LIST
};
#undef HELPER_LIST
#undef HELPER_NAME

const char *bpf_helper_str(int id)
{
	if (id <= 0 || (size_t)id >= sizeof(helper_names) / sizeof(helper_names[0]))
		return NULL;
	return helper_names[id];
}
