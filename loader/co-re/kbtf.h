/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * kbtf.h - the kernel's BTF (see kbtf.c): vmlinux and the loaded modules' split BTF, read
 * once per process and indexed by name. Not installed.
 *
 * Every function takes custom_path: NULL for the running kernel's /sys/kernel/btf/vmlinux
 * (with the modules' BTF behind it), or a BTF file the caller names (bsdk_obj_open_opts's
 * btf_path; modules are then not searched). The first call per path builds what later calls
 * share, under a lock: objects may be opened from several threads. kbtf_release() must not
 * run while another thread uses the kernel BTF.
 */
#ifndef BPFSDK_KBTF_H
#define BPFSDK_KBTF_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* The kernel BTF. Parsed once per process and path, in linear time; NULL with errno (the
 * reason logged at error level) when it cannot be read or parsed. */
const struct btf *kbtf_vmlinux(const char *custom_path);

/* Find a named type of the given BTF kind (BTF_KIND_FUNC, _TYPEDEF, _STRUCT, _VAR, ...):
 * first in vmlinux, then in the loaded modules' BTF. Fills *btf (the BTF it was found in),
 * *id (its type ID there) and *btf_obj_fd (0 for vmlinux; for a module, an fd of its kernel
 * BTF object, as BPF_PROG_LOAD's attach_btf_obj_fd and kfunc calls' fd_array want; owned by
 * kbtf, valid until kbtf_release()). Any of the three may be NULL. 0, -ENOENT when there is
 * none (not logged), or -errno when the kernel BTF cannot be read (logged). */
int kbtf_find(const char *custom_path, const char *name, int kind,
	      const struct btf **btf, uint32_t *id, int *btf_obj_fd);

/* One type that may be what a CO-RE relocation's local type means. */
struct kbtf_cand {
	const struct btf *btf;
	uint32_t id;
	int btf_obj_fd;		/* as in kbtf_find() */
};

/* Every type of kind (ENUM and ENUM64 count as one kind) whose essential name equals the
 * first len bytes of name: in vmlinux, or when vmlinux has none, in the modules. *cands is
 * malloc'ed (the caller frees it; NULL when the count is 0). The count, or -errno. */
int kbtf_candidates(const char *custom_path, const char *name, size_t len, int kind,
		    struct kbtf_cand **cands);

/* Free every kernel BTF read so far and close the module BTF fds. */
void kbtf_release(void);

#endif /* BPFSDK_KBTF_H */
