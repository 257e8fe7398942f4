/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* skel_types.h - a named struct that skel_types.bpf.c and the program built on its skeleton share. */
#ifndef SKEL_TYPES_H
#define SKEL_TYPES_H

struct skel_pair {
	__u32 x;
	__u32 y;
};

#endif
