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
 * in ID order. Headers before 6.2 list FN(name) separated by commas; later
 * ones FN(name, id) with no commas (and define ___BPF_FUNC_MAPPER). */
#ifdef ___BPF_FUNC_MAPPER
#define HELPER_NAME(name, ...) [BPF_FUNC_##name] = "bpf_" #name,
#else
#define HELPER_NAME(name, ...) [BPF_FUNC_##name] = "bpf_" #name
#endif
static const char *const helper_names[] = {
	__BPF_FUNC_MAPPER(HELPER_NAME)
};
#undef HELPER_NAME

const char *bpf_helper_str(int id)
{
	if (id <= 0 || (size_t)id >= sizeof(helper_names) / sizeof(helper_names[0]))
		return NULL;
	return helper_names[id];
}
