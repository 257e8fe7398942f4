// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * names.c - the kernel's map types by name, the way bpftool and the kernel
 * documentation spell them (lower case, no prefix), for messages that
 * say "ringbuf" where the kernel's number would say 27; and its helpers
 * by name, for a call to one that does not exist ("did you mean").
 */
#include <linux/bpf.h>

#include "base/base.h"

/* Indexed by enum bpf_map_type. Types newer than the UAPI header this is
 * built against are named by number: their constants do not exist here. */
static const char *const map_type_names[] = {
	[BPF_MAP_TYPE_UNSPEC]			= "unspec",
	[BPF_MAP_TYPE_HASH]			= "hash",
	[BPF_MAP_TYPE_ARRAY]			= "array",
	[BPF_MAP_TYPE_PROG_ARRAY]		= "prog_array",
	[BPF_MAP_TYPE_PERF_EVENT_ARRAY]		= "perf_event_array",
	[BPF_MAP_TYPE_PERCPU_HASH]		= "percpu_hash",
	[BPF_MAP_TYPE_PERCPU_ARRAY]		= "percpu_array",
	[BPF_MAP_TYPE_STACK_TRACE]		= "stack_trace",
	[BPF_MAP_TYPE_CGROUP_ARRAY]		= "cgroup_array",
	[BPF_MAP_TYPE_LRU_HASH]			= "lru_hash",
	[BPF_MAP_TYPE_LRU_PERCPU_HASH]		= "lru_percpu_hash",
	[BPF_MAP_TYPE_LPM_TRIE]			= "lpm_trie",
	[BPF_MAP_TYPE_ARRAY_OF_MAPS]		= "array_of_maps",
	[BPF_MAP_TYPE_HASH_OF_MAPS]		= "hash_of_maps",
	[BPF_MAP_TYPE_DEVMAP]			= "devmap",
	[BPF_MAP_TYPE_SOCKMAP]			= "sockmap",
	[BPF_MAP_TYPE_CPUMAP]			= "cpumap",
	[BPF_MAP_TYPE_XSKMAP]			= "xskmap",
	[BPF_MAP_TYPE_SOCKHASH]			= "sockhash",
	[BPF_MAP_TYPE_CGROUP_STORAGE]		= "cgroup_storage",
	[BPF_MAP_TYPE_REUSEPORT_SOCKARRAY]	= "reuseport_sockarray",
	[BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE]	= "percpu_cgroup_storage",
	[BPF_MAP_TYPE_QUEUE]			= "queue",
	[BPF_MAP_TYPE_STACK]			= "stack",
	[BPF_MAP_TYPE_SK_STORAGE]		= "sk_storage",
	[BPF_MAP_TYPE_DEVMAP_HASH]		= "devmap_hash",
	[BPF_MAP_TYPE_STRUCT_OPS]		= "struct_ops",
	[BPF_MAP_TYPE_RINGBUF]			= "ringbuf",
	[BPF_MAP_TYPE_INODE_STORAGE]		= "inode_storage",
	[BPF_MAP_TYPE_TASK_STORAGE]		= "task_storage",
	[BPF_MAP_TYPE_BLOOM_FILTER]		= "bloom_filter",
	[BPF_MAP_TYPE_USER_RINGBUF]		= "user_ringbuf",
	[BPF_MAP_TYPE_USER_RINGBUF + 1]		= "cgrp_storage",
	[BPF_MAP_TYPE_USER_RINGBUF + 2]		= "arena",
};

const char *bsdk_map_type_name(int type)
{
	if (type < 0 || (size_t)type >= sizeof(map_type_names) /
					sizeof(map_type_names[0]))
		return NULL;
	return map_type_names[type];
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

const char *bsdk_helper_name(int id)
{
	if (id <= 0 || (size_t)id >= ARRAY_SIZE(helper_names))
		return NULL;
	return helper_names[id];
}

const char *bsdk_helper_closest(const char *name)
{
	return bsdk_name_closest(name, (const char *const *)helper_names + 1,
				 ARRAY_SIZE(helper_names) - 1);
}
