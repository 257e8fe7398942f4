// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bpf_names.c - readable names of the kernel's BPF enums, the way bpftool
 * and the kernel documentation spell them (lower case, no prefix).
 */
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"

const char *bpf_map_type_str(int type)
{
	return bsdk_map_type_name(type);
}

const char *bpf_helper_str(int id)
{
	return bsdk_helper_name(id);
}
