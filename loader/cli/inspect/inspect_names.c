// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * inspect_names.c - the words both outputs of `bpfsdk inspect` use for a
 * helper and for a CO-RE relocation's state, below the text and the JSON
 * printers and the command that calls them.
 */
#include <stdio.h>

#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "inspect.h"

const char *helper_label(int id, char *buf, size_t size)
{
	const char *name = bpf_helper_str(id);

	if (name)
		return name;
	name = bsdk_helper_gpl_only(id);
	if (name)
		return name;
	snprintf(buf, size, "helper %d", id);
	return buf;
}

/* Indexed by enum bsdk_core_state. */
const char *const co_re_states[4] = { "unresolved", "resolved", "poisoned", "error" };
