/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * tool.h - the layer right above the core: what a tool built on the
 * library needs and a minimal loader does not (its options read and
 * checked, args.c; the file systems it mounts and the files beside its
 * binary, fs.c; whether a kind of probe can attach, can_attach.c; the end
 * of its main and the tally of records, tally.c; addresses to function
 * names for stack traces, syms.c). Their API is in bpfsdk.h; this header
 * holds the layer's internal calls. Not installed.
 */
#ifndef BPFSDK_TOOL_H
#define BPFSDK_TOOL_H

#include "base/base.h"

#endif /* BPFSDK_TOOL_H */
